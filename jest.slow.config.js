const fast = require('./jest.config');

const [, ...slow] = fast.testPathIgnorePatterns;

/**
 * `npm run test:slow`: what `npm test` leaves out (its ignore patterns past node_modules),
 * and the fuzz suites again, at length (FUZZ_RUNS, set by the script).
 * @type {import('jest').Config}
 */
module.exports = {
  ...fast,
  testMatch: undefined,
  testRegex: [...slow, '/test/api/fuzz/.*\\.test\\.ts$'],
  testPathIgnorePatterns: ['/node_modules/'],
};
