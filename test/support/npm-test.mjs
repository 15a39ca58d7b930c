import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { createRequire } from 'node:module';

/**
 * `npm test`: the static checks (test/support/checks.mjs, what `npm run lint` runs) beside
 * jest (docs/testing.md, "How long it takes"). The checks type-check src, test and bench and
 * write dist first; jest starts once dist is written (its set-up, told so by
 * TEST_TYPECHECKED, compiles nothing), and the checks go on with the linters at a lower
 * priority, on the same TypeScript programs, in the part of the two cores jest's workers leave
 * idle while they wait on PostgreSQL, timers and child processes. The console's GraphQL types
 * are generated before both start. The checks' output is printed once they end; the run fails
 * when either fails. Arguments go to jest (`npm test -- test/unit`).
 */
const jestBin = createRequire(import.meta.url).resolve('jest/bin/jest');

const exited = (child) => new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));

const types = await exited(spawn(process.execPath, ['console/build.mjs', 'types'], { stdio: 'inherit' }));
if (types !== 0) process.exit(types);

const checks = spawn(process.execPath, ['test/support/checks.mjs'], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
const output = [];
checks.stdout.on('data', (chunk) => output.push(chunk));
checks.stderr.on('data', (chunk) => output.push(chunk));
const checked = exited(checks).then((code) => {
  process.stderr.write(Buffer.concat(output));
  process.stderr.write(code === 0 ? 'checks (npm run lint): passed\n' : `checks (npm run lint): failed (exit ${code})\n`);
  return code;
});

const built = await Promise.race([new Promise((resolve) => checks.once('message', () => resolve(true))), checked.then(() => false)]);
if (!built) process.exit((await checked) || 1);
setPriority(checks.pid, 10);

// A young generation as large as the service's own (`npm start`): the workers' scavenges took
// 6% of their CPU, and jest's process 4-9% less CPU with it (docs/testing.md).
const jest = spawn(process.execPath, ['--max-semi-space-size=64', jestBin, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, TEST_TYPECHECKED: '1' } });
const [tests, linted] = await Promise.all([exited(jest), checked]);
process.exit(tests !== 0 ? tests : linted);
