import pg from 'pg';
import { okData, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { gqlData } from './graphql-client';

/**
 * GraphQL `contacts { totalCount }` without filters reads the count of live contacts kept by
 * the triggers on contacts (docs/performance.md, "Volume"): after every kind of write, folded
 * or not, it equals a real `count(*)` of the company's undeleted contacts, and another
 * company's writes never move it.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let sql: pg.Client;

beforeAll(async () => {
  // No periodic fold (it runs with the campaign sweep): the test folds when it says so.
  ({ t, a, b } = await twoTenants({ CAMPAIGN_SWEEP_MS: '3600000' }));
  sql = new pg.Client({ connectionString: t.databaseUrl });
  await sql.connect();
});
afterAll(async () => {
  await sql.end();
  await t.close();
});

const totalCount = async (tenant: Tenant, args = 'first: 1'): Promise<number> => (await gqlData(t, `{ contacts(${args}) { totalCount } }`, {}, tenant.key)).contacts.totalCount;
const counted = async (tenant: Tenant, where = 'TRUE'): Promise<number> =>
  (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM contacts WHERE company_id = $1 AND deleted_at IS NULL AND ${where}`, [tenant.companyId])).rows[0].n;
const pendingDeltas = async (): Promise<number> => (await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM contact_count_deltas')).rows[0].n;

/** Both companies' kept counts equal their real counts; answers A's. */
async function expectKept(): Promise<number> {
  for (const tenant of [a, b]) expect(await totalCount(tenant)).toBe(await counted(tenant));
  return totalCount(a);
}

const create = (body: unknown, token = a.key) => t.request('POST', '/v1/contacts', { token, body });
const phone = (n: number) => `+1415555${String(2000 + n)}`;
const fold = () => t.app.services.contacts.sweep(t.app.orm.em.fork());

describe('contacts { totalCount } without filters', () => {
  it('counts every live contact after creates one by one, in a batch and at once, and ignores the other company', async () => {
    const before = await expectKept();
    const theirs = await totalCount(b);
    okData(await create({ phone_number: phone(1) }));
    okData(await create([{ phone_number: phone(2) }, { phone_number: phone(3), status: 'inactive' }]));
    await Promise.all(Array.from({ length: 12 }, (_, i) => create({ phone_number: phone(10 + i) }).then(okData)));
    expect(await expectKept()).toBe(before + 15);
    expect(await totalCount(b)).toBe(theirs);
  });

  it('follows a CSV import that creates some contacts and updates others', async () => {
    const before = await totalCount(a);
    const csv = `phone_number,firstname\n${phone(1)},Updated\n${phone(40)},New\n${phone(41)},Newer\n`;
    const res = okData(await t.request('POST', '/v1/contacts/import?on_duplicate=update', { token: a.key, raw: csv, headers: { 'content-type': 'text/csv' } }));
    expect(res).toMatchObject({ imported: 2, updated: 1 });
    expect(await expectKept()).toBe(before + 2);
  });

  it('drops a deleted contact once, whether folded or not, and keeps inactive ones', async () => {
    const before = await totalCount(a);
    const doomed = okData(await create({ phone_number: phone(50) }));
    const id = okData(await create({ phone_number: phone(51) })).id;
    expect((await t.request('DELETE', `/v1/contacts/${doomed.id}`, { token: a.key })).status).toBeLessThan(300);
    expect((await t.request('DELETE', `/v1/contacts/${doomed.id}`, { token: a.key })).status).toBe(404);
    okData(await t.request('PATCH', `/v1/contacts/${id}`, { token: a.key, body: { status: 'inactive' } }));
    expect(await expectKept()).toBe(before + 1);
    expect(await pendingDeltas()).toBeGreaterThan(0);
    await fold();
    expect(await pendingDeltas()).toBe(0);
    expect(await expectKept()).toBe(before + 1);
  });

  it('follows writes outside the API: a restore, a contact moved to another company, rows deleted; a new company counts none', async () => {
    const deleted = okData(await create({ phone_number: phone(60) }));
    okData(await t.request('DELETE', `/v1/contacts/${deleted.id}`, { token: a.key }));
    await expectKept();
    await sql.query('UPDATE contacts SET deleted_at = NULL WHERE id = $1', [deleted.id]);
    await expectKept();
    await sql.query('UPDATE contacts SET company_id = $1 WHERE id = $2', [b.companyId, deleted.id]);
    await expectKept();
    await sql.query('DELETE FROM contacts WHERE id = $1', [deleted.id]);
    await expectKept();
    // A statement over many rows of both companies: one delta per company.
    await sql.query(`UPDATE contacts SET deleted_at = now() WHERE company_id IN ($1, $2) AND phone_number IN ($3, $4)`, [a.companyId, b.companyId, phone(40), '+14155550199']);
    await Promise.all([fold(), fold()]);
    expect(await expectKept()).toBe(await counted(a));
    const empty = await t.company('Empty');
    expect((await gqlData(t, '{ contacts(first: 1) { totalCount } }', {}, empty.apiKey)).contacts.totalCount).toBe(0);
  });

  it('counts the rows a filter matches exactly, through the filter', async () => {
    okData(
      await create([
        { phone_number: phone(70), tag_name: 'counted' },
        { phone_number: phone(71), tag_name: 'counted', status: 'inactive' },
      ]),
    );
    expect(await totalCount(a, 'tagName: "counted"')).toBe(2);
    expect(await totalCount(a, 'status: "inactive"')).toBe(await counted(a, `status = 'inactive'`));
    expect(await totalCount(a, 'tagName: "counted", status: "active"')).toBe(1);
    expect(await totalCount(b, 'tagName: "counted"')).toBe(0);
  });
});
