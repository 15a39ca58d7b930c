import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { createRequire } from 'node:module';

/**
 * `npm test`: the linters (`npm run lint`) beside jest rather than before it (docs/testing.md,
 * "How long it takes"). jest's workers leave part of the two cores idle while they wait on
 * PostgreSQL, timers and child processes; the linters, at a lower priority, take that part,
 * so their cold start (ESLint's type-aware pass) no longer comes first. The console's GraphQL
 * types are generated before both start: ESLint reads them and the run's set-up finds them
 * current. The linters' output is printed once they end; the run fails when either fails.
 * Arguments go to jest (`npm test -- test/unit`).
 */
const jestBin = createRequire(import.meta.url).resolve('jest/bin/jest');

const exited = (child) => new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));

const types = await exited(spawn(process.execPath, ['console/build.mjs', 'types'], { stdio: 'inherit' }));
if (types !== 0) process.exit(types);

const lint = spawn('npm', ['run', '--silent', 'lint'], { stdio: ['ignore', 'pipe', 'pipe'] });
setPriority(lint.pid, 10);
const output = [];
lint.stdout.on('data', (chunk) => output.push(chunk));
lint.stderr.on('data', (chunk) => output.push(chunk));
const linted = exited(lint).then((code) => {
  process.stderr.write(Buffer.concat(output));
  process.stderr.write(code === 0 ? 'npm run lint: passed\n' : `npm run lint: failed (exit ${code})\n`);
  return code;
});

const jest = spawn(process.execPath, [jestBin, ...process.argv.slice(2)], { stdio: 'inherit' });
const [tests, checks] = await Promise.all([exited(jest), linted]);
process.exit(tests !== 0 ? tests : checks);
