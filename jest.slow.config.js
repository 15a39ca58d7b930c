const fast = require('./jest.config');

const [, ...slow] = fast.testPathIgnorePatterns;

/**
 * `npm run test:slow`: what `npm test` leaves out (its ignore patterns past node_modules),
 * and the fuzz suites again, at length (FUZZ_RUNS, set by the script). Two files at a time:
 * two services in one file hold up to 50 PostgreSQL connections, and the machine's server
 * allows 100.
 * @type {import('jest').Config}
 */
module.exports = {
  ...fast,
  maxWorkers: 2,
  testMatch: undefined,
  testRegex: [...slow, '/test/api/fuzz/.*\\.test\\.ts$'],
  testPathIgnorePatterns: ['/node_modules/'],
};
