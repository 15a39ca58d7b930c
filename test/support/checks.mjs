import { spawn } from 'node:child_process';
import path from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';

/**
 * The static checks (`npm run lint`, and `npm test` beside the suites; docs/testing.md,
 * "Linters"), on one TypeScript program per tsconfig: the program that type-checks src, test
 * and bench and compiles them to dist (tsconfig.test.json, incremental) and the console's
 * (console/tsconfig.json) are the programs ESLint's type-aware rules read, so the types are
 * worked out once, not once by tsc and again by ESLint's project service. In that order:
 * 1. the typecheck and dist (a type error ends the run here, with tsc's messages); a parent
 *    that spawned this with an IPC channel hears `built` once dist is written;
 * 2. ESLint, Prettier's check and the dependency rules, side by side.
 * Exits 1 when any fails. The console's GraphQL types must be generated first
 * (`node console/build.mjs types`): the console's program reads them.
 */
const root = path.resolve(import.meta.dirname, '../..');
const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) };

function fail(diagnostics) {
  const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
  process.exit(1);
}

/** Type-checks the project of `tsconfig` and writes what it emits (dist, or only its incremental state); answers its program. */
function typecheck(tsconfig) {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, tsconfig), {}, host);
  const builder = ts.createIncrementalProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  const diagnostics = [
    ...builder.getConfigFileParsingDiagnostics(),
    ...builder.getOptionsDiagnostics(),
    ...builder.getGlobalDiagnostics(),
    ...builder.getSyntacticDiagnostics(),
    ...builder.getSemanticDiagnostics(),
  ];
  if (diagnostics.length === 0) diagnostics.push(...builder.emit().diagnostics);
  if (diagnostics.length > 0) fail(diagnostics);
  return builder.getProgram();
}

/** Runs a dependency's command line; answers whether it passed. */
function command(bin, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules', bin), ...args], { cwd: root, stdio: 'inherit' });
    child.on('close', (code) => resolve(code === 0));
  });
}

// ESLint's cache keys its results by the configuration as JSON, which a program is not: named instead.
const programs = Object.assign([typecheck('tsconfig.test.json')], { toJSON: () => 'the programs of tsconfig.test.json and console/tsconfig.json' });
process.send?.('built');
programs.push(typecheck('console/tsconfig.json'));

const others = Promise.all([
  command('prettier/bin/prettier.cjs', ['--check', '--cache', '--log-level', 'warn', '.']),
  command('dependency-cruiser/bin/dependency-cruise.mjs', [
    '--config',
    '.dependency-cruiser.cjs',
    '--cache',
    'node_modules/.cache/dependency-cruiser',
    '--cache-strategy',
    'content',
    'src',
    'test',
    'bench',
    'console/src',
  ]),
]);
const eslint = new ESLint({
  cwd: root,
  cache: true,
  cacheLocation: path.join(root, 'node_modules/.cache/eslint'),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, programs } } },
});
const results = await eslint.lintFiles(['src', 'test', 'bench', 'console/src']);
const report = await (await eslint.loadFormatter('stylish')).format(results);
if (report) process.stderr.write(report);
const linted = results.every((r) => r.errorCount === 0 && r.fatalErrorCount === 0 && r.warningCount === 0);
const passed = (await others).every(Boolean);
process.exit(linted && passed ? 0 : 1);
