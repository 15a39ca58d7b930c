import { oneTenant, type Tenant } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';

let t: TestApp;
let a: Tenant;

beforeAll(async () => ({ t, a } = await oneTenant()));
afterAll(() => t.close());

const countOf = async (companyId: string): Promise<number> => (await t.app.orm.em.fork().execute(`select count(*)::int as n from contacts where company_id = ?`, [companyId]))[0].n;

/** A CSV file of `rows` distinct valid contacts with two metadata columns. */
const file = (rows: number): string => `phone,first,plan,city\n${Array.from({ length: rows }, (_, i) => `+1415${String(2_000_000 + i).padStart(7, '0')},Name ${i},gold,"Paris, FR"`).join('\n')}\n`;

const importCsv = (csv: string) =>
  t.request('POST', `/v1/contacts/import?phone_number=phone&first_name=first&metadata=plan,city&campaign_id=${a.campaign.id}`, {
    token: a.key,
    raw: csv,
    headers: { 'content-type': 'text/csv' },
  });

describe('POST /v1/contacts/import at the row limit', () => {
  it('imports 100,000 rows in one request', async () => {
    const before = await countOf(a.companyId);
    const res = await importCsv(file(100_000));
    expect(res.body).toMatchObject({ status: 'ok', message: 'ok', data: { rows: 100_000, imported: 100_000, updated: 0, duplicates: 0, dry_run: false, columns: { metadata: ['plan', 'city'] } } });
    expect(await countOf(a.companyId)).toBe(before + 100_000);
    const [sample] = await t.app.orm.em.fork().execute(`select firstname, metadata, campaign_id from contacts where company_id = ? and phone_number = ?`, [a.companyId, '+14152099999']);
    expect(sample).toEqual({ firstname: 'Name 99999', metadata: { plan: 'gold', city: 'Paris, FR' }, campaign_id: a.campaign.id });
  }, 180_000);

  it('refuses 100,001 rows and writes nothing', async () => {
    const before = await countOf(a.companyId);
    const res = await importCsv(file(100_001));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: 'Validation failed', data: [{ field: 'file', message: 'Must have at most 100,000 rows' }] });
    expect(await countOf(a.companyId)).toBe(before);
  }, 180_000);
});
