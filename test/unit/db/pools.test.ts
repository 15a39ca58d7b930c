import { loadConfig } from '../../../src/config';

describe('connection pool settings', () => {
  it('default to 10 + 10 + 4 connections per replica (docs/operations.md, Scaling)', () => {
    expect(loadConfig({}).pools).toEqual({ orm: 10, jobs: 10, side: 10 });
  });

  it('are read from the environment', () => {
    expect(loadConfig({ DATABASE_POOL_MAX: '4', JOB_POOL_MAX: '3', DATABASE_SIDE_POOL_MAX: '2' }).pools).toEqual({ orm: 4, jobs: 3, side: 2 });
  });

  it('name a bad value', () => {
    expect(() => loadConfig({ DATABASE_POOL_MAX: '0' })).toThrow(/DATABASE_POOL_MAX/);
    expect(() => loadConfig({ JOB_POOL_MAX: '101' })).toThrow(/JOB_POOL_MAX/);
    expect(() => loadConfig({ DATABASE_SIDE_POOL_MAX: 'many' })).toThrow(/DATABASE_SIDE_POOL_MAX/);
  });
});
