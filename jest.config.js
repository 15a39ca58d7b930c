/**
 * Soak and scale runs (a minute or more each: replicas as processes, hundreds of calls):
 * `npm run test:slow`, which CI runs after `npm test` (jest.slow.config.js). Regular
 * expressions over test file paths.
 */
const SLOW = ['/test/slow/.*\\.test\\.ts$', '/contacts-import-large\\.test\\.ts$'];

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...SLOW],
  // One worker per core: measured, the suite is CPU-bound (booting the service in each file,
  // the services' own work), and four workers on two busy cores only made hooks time out
  // (docs/testing.md). `--maxWorkers` overrides it.
  maxWorkers: '100%',
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
  setupFilesAfterEnv: ['<rootDir>/test/support/audit-statements.ts'],
  testTimeout: 30000,
  // A failed test can leave a service's reconnect or poll loop running; end the run anyway,
  // so that CI reports the failure instead of waiting for its time limit.
  forceExit: true,
};
