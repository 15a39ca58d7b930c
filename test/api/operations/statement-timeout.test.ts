import pg from 'pg';
import { createLogger } from '../../../src/logger';
import { gql } from '../graphql/graphql-client';
import { okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';

/** What the service logs. */
const logged: { level: number; msg: string }[] = [];

let t: TestApp;
let a: Tenant;
let holder: pg.Client;

beforeAll(async () => {
  const logger = createLogger('info', { destination: { write: (line: string) => logged.push(JSON.parse(line)) } });
  t = await startTestApp({ REQUEST_STATEMENT_TIMEOUT_MS: '300' }, { logger });
  a = await tenant(t, 'A');
  holder = new pg.Client({ connectionString: t.databaseUrl });
  await holder.connect();
});
afterAll(async () => {
  await holder.end();
  await t.close();
});

/**
 * Runs `requests` while another session holds the contacts table (as a long statement of
 * another tenant would hold the database): the requests' statements wait on it, for
 * longer than REQUEST_STATEMENT_TIMEOUT_MS.
 */
async function whileContactsHeld<T>(requests: () => Promise<T>): Promise<T> {
  await holder.query('BEGIN');
  await holder.query('LOCK TABLE contacts IN ACCESS EXCLUSIVE MODE');
  try {
    return await requests();
  } finally {
    await holder.query('ROLLBACK');
  }
}

describe('REQUEST_STATEMENT_TIMEOUT_MS', () => {
  it('cuts a request statement that runs too long and answers it cleanly, on REST and GraphQL', async () => {
    const [rest, graphql] = await whileContactsHeld(() =>
      Promise.all([t.request('GET', `/v1/contacts/${a.contact.id}`, { token: a.key }), gql(t, '{ contacts(search: "ada") { totalCount } }', {}, a.key)]),
    );
    expect([rest.status, rest.body]).toEqual([503, { status: 'error', message: 'The request took too long', data: '' }]);
    expect(graphql.status).toBe(200);
    expect(graphql.errors).toEqual([{ message: 'The request took too long', locations: expect.any(Array), path: ['contacts'], extensions: { code: 'TIMEOUT' } }]);
    expect(graphql.data).toBeNull();
    expect(logged.filter((line) => line.level >= 50)).toEqual([]);
    // Once the table is free, the same requests answer.
    expect(okData(await t.request('GET', `/v1/contacts/${a.contact.id}`, { token: a.key })).id).toBe(a.contact.id);
  });

  it('holds for the connections of requests only, not for the jobs, sweeps and engines', async () => {
    const setting = async (em: { getConnection(): { execute(sql: string): Promise<{ statement_timeout: string }[]> } }) =>
      (await em.getConnection().execute('SHOW statement_timeout'))[0].statement_timeout;
    expect(await setting(t.app.orm.em.fork())).toBe('0');
  });
});
