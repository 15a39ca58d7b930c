/**
 * Soak and scale runs (a minute or more each: replicas as processes, hundreds of calls):
 * `npm run test:slow`, which CI runs after `npm test` (jest.slow.config.js). Regular
 * expressions over test file paths.
 */
const SLOW = ['/test/slow/.*\\.test\\.ts$', '/contacts-import-large\\.test\\.ts$'];

const { availableParallelism } = require('node:os');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...SLOW],
  // Three workers on two cores: each waits on PostgreSQL, timers and child processes much of
  // the time (docs/testing.md has the figures); `--maxWorkers` overrides it. Counted here: jest
  // reads a percentage over 100% as a plain number ('150%' would be 150 workers).
  maxWorkers: Math.ceil(availableParallelism() * 1.5),
  // The files run as the JavaScript the set-up compiles (tsc, with the typecheck), in worker
  // threads that keep their modules from one file to the next: test/support/runner.mjs.
  runner: '<rootDir>/test/support/runner.mjs',
  // For the set-up and teardown, which jest itself loads (the test files run compiled).
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          keepClassNames: true,
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/test/support/time-limits.mjs'],
  // A failed test can leave a service's reconnect or poll loop running; end the run anyway,
  // so that CI reports the failure instead of waiting for its time limit.
  forceExit: true,
};
