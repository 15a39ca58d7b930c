import path from 'node:path';
import { createRunner } from 'jest-light-runner';

const LightRunner = createRunner();

/** Where the run's set-up compiles `file` (test/support/global-setup.ts: tsc -p tsconfig.test.json). */
const compiled = (test) => {
  const { rootDir } = test.context.config;
  return path.join(rootDir, 'dist', path.relative(rootDir, test.path)).replace(/\.ts$/, '.js');
};

/**
 * The suite's jest runner: jest-light-runner, which runs test files in plain Node worker
 * threads (one per jest worker) that keep their module cache from one file to the next, so
 * the service's modules load, and its code warms up, once per worker instead of once per
 * file (docs/testing.md has the figures). It runs the JavaScript that the run's set-up has
 * just type-checked and compiled to dist/, each file under its source's name in jest's report.
 */
export default class CompiledTestsRunner extends LightRunner {
  runTests(tests, watcher, onStart, onResult, onFailure) {
    const sources = new Map();
    const runs = tests.map((test) => {
      const run = { ...test, path: compiled(test) };
      sources.set(run, test);
      return run;
    });
    return super.runTests(
      runs,
      watcher,
      (run) => onStart(sources.get(run)),
      (run, result) => onResult(sources.get(run), { ...result, testFilePath: sources.get(run).path }),
      (run, error) => onFailure(sources.get(run), error),
    );
  }
}
