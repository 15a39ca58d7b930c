import { unfilteredStatements } from './statements';

/**
 * Every test file that starts the service ends with the statement audit over what it ran:
 * a statement on a tenant table without its company filter fails the file (docs/scaling.md).
 */
afterAll(async () => {
  const failures = await unfilteredStatements();
  if (failures.length > 0) {
    throw new Error(`${failures.length} statement(s) on tenant tables lack the company filter a table distributed by company needs (docs/scaling.md):\n  ${failures.join('\n  ')}`);
  }
});
