import { okData, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { firstError, gql, gqlData } from './graphql-client';

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => ({ t, a, b } = await twoTenants()));
afterAll(() => t.close());

const IMPORT = 'mutation($input: ImportContactsCsvInput!) { importContactsCsv(input: $input) { imported dryRun } }';

const importCsv = (input: Record<string, unknown>) => gql(t, IMPORT, { input }, a.key);

/** The stored fields of the company's contacts with these numbers, without ids and timestamps. */
async function stored(phones: string[]): Promise<any[]> {
  return t.app.orm.em
    .fork()
    .execute(
      `select phone_number, number_country_code, firstname, lastname, tag_name, category_name, metadata, campaign_id, status, source_name, notes from contacts where company_id = ? and phone_number in (?) order by phone_number`,
      [a.companyId, phones],
    );
}

const CSV = 'Phone,First,Last,Tag,Kind,Plan\n+1415555{n}1,Ada,Lovelace,vip,lead,gold\n(415) 555-{n}2,Grace,Hopper,,customer,\n';
const mapping = { phoneNumber: 'Phone', firstName: 'First', lastName: 'Last', tag: 'Tag', category: 'Kind', metadata: ['Plan'] };
const restQuery = 'phone_number=Phone&first_name=First&last_name=Last&tag=Tag&category=Kind&metadata=Plan';

describe('importContactsCsv', () => {
  it('creates the same records as the REST import of the same file', async () => {
    const data = await gqlData(t, IMPORT, { input: { csv: CSV.replaceAll('{n}', '050'), mapping, campaignId: a.campaign.id } }, a.key);
    expect(data.importContactsCsv).toEqual({ imported: 2, dryRun: false });
    const rest = await t.request('POST', `/v1/contacts/import?${restQuery}&campaign_id=${a.campaign.id}`, {
      token: a.key,
      raw: CSV.replaceAll('{n}', '060'),
      headers: { 'content-type': 'text/csv' },
    });
    expect(okData(rest)).toMatchObject({ rows: 2, imported: 2, dry_run: false });
    const viaGraphql = await stored(['+14155550501', '+14155550502']);
    const viaRest = await stored(['+14155550601', '+14155550602']);
    expect(viaGraphql).toHaveLength(2);
    expect(viaGraphql[0]).toMatchObject({ firstname: 'Ada', metadata: { Plan: 'gold' }, campaign_id: a.campaign.id });
    const withoutPhone = (rows: any[]) => rows.map(({ phone_number: _, ...rest }) => rest);
    expect(withoutPhone(viaGraphql)).toEqual(withoutPhone(viaRest));
  });

  it('writes nothing in a dry run', async () => {
    const data = await gqlData(t, IMPORT, { input: { csv: 'p\n+14155550701\n', mapping: { phoneNumber: 'p' }, dryRun: true } }, a.key);
    expect(data.importContactsCsv).toEqual({ imported: 1, dryRun: true });
    expect(await stored(['+14155550701'])).toEqual([]);
  });

  it("answers a dry run of bad rows with its preview, as REST's dry run of the same file, and no error", async () => {
    const PREVIEW = `mutation($input: ImportContactsCsvInput!) {
      importContactsCsv(input: $input) {
        rows imported duplicates dryRun
        preview { delimiter encoding header invalidRows errorCount errors { line field message } sample { line action contact { phoneNumber numberCountryCode firstname lastname metadata campaignId } } }
      }
    }`;
    const csv = 'p;f\n+14155550711;J\u00fcrgen\nnope;Grace\n+14155550711;Again\n';
    const res = await gql(t, PREVIEW, { input: { csv, mapping: { phoneNumber: 'p', firstName: 'f' }, dryRun: true } }, a.key);
    expect(res.errors).toBeUndefined();
    expect(res.data.importContactsCsv).toEqual({
      rows: 3,
      imported: 1,
      duplicates: 1,
      dryRun: true,
      preview: {
        delimiter: ';',
        encoding: 'utf-8',
        header: ['p', 'f'],
        invalidRows: 1,
        errorCount: 1,
        errors: [{ line: 3, field: 'phoneNumber', message: 'Invalid phone number format' }],
        sample: [
          { line: 2, action: 'CREATE', contact: { phoneNumber: '+14155550711', numberCountryCode: '1', firstname: 'J\u00fcrgen', lastname: null, metadata: null, campaignId: null } },
          { line: 4, action: 'DUPLICATE', contact: { phoneNumber: '+14155550711', numberCountryCode: '1', firstname: 'Again', lastname: null, metadata: null, campaignId: null } },
        ],
      },
    });
    const rest = okData(await t.request('POST', '/v1/contacts/import?phone_number=p&first_name=f&dry_run=true', { token: a.key, raw: csv, headers: { 'content-type': 'text/csv' } }));
    expect(rest.preview.errors).toEqual([{ line: 3, field: 'phone_number', message: 'Invalid phone number format' }]);
    expect(rest.preview.sample.map(({ line, action }: any) => ({ line, action: action.toUpperCase() }))).toEqual(
      res.data.importContactsCsv.preview.sample.map(({ line, action }: any) => ({ line, action })),
    );
    expect(await stored(['+14155550711'])).toEqual([]);
  });

  it("answers bad rows as BAD_USER_INPUT with the fields REST names, in GraphQL's names, writing nothing", async () => {
    const csv = 'p,f\n+14155550801,Ada\nnope,Grace\n+14155550803,\n,Alan\n';
    const res = await importCsv({ csv, mapping: { phoneNumber: 'p', firstName: 'f' } });
    const rest = await t.request('POST', '/v1/contacts/import?phone_number=p&first_name=f', { token: a.key, raw: csv, headers: { 'content-type': 'text/csv' } });
    expect(res.errors?.[0]?.message).toBe(rest.body.message);
    expect(firstError(res)).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [
        { field: '[3].phoneNumber', message: 'Invalid phone number format' },
        { field: '[5].phoneNumber', message: 'Required' },
      ],
    });
    expect(rest.body.data).toEqual([
      { field: '[3].phone_number', message: 'Invalid phone number format' },
      { field: '[5].phone_number', message: 'Required' },
    ]);
    expect(await stored(['+14155550801', '+14155550803'])).toEqual([]);
  });

  it("names a missing header, an empty file and another company's campaign", async () => {
    const cases: [Record<string, unknown>, { field: string; message: string }][] = [
      [
        { csv: 'Phone\n+14155550901\n', mapping: { phoneNumber: 'Mobile' } },
        { field: 'mapping.phoneNumber', message: 'No column "Mobile" in the header row' },
      ],
      [
        { csv: '', mapping: { phoneNumber: 'Phone' } },
        { field: 'file', message: 'Is empty: expected a header row, then one row per contact' },
      ],
      [
        { csv: 'Phone\n+14155550902\n', mapping: { phoneNumber: 'Phone' }, campaignId: b.campaign.id },
        { field: 'campaignId', message: 'Campaign not found' },
      ],
    ];
    for (const [input, field] of cases) expect(firstError(await importCsv(input))).toEqual({ code: 'BAD_USER_INPUT', fields: [field] });
    expect(await stored(['+14155550901', '+14155550902'])).toEqual([]);
  });

  it('takes a file of a few MiB (the GraphQL body limit is 5 MiB)', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => `+1415${String(3_000_000 + i)},${'x'.repeat(80)}`);
    const csv = `p,f\n${rows.join('\n')}\n`;
    expect(Buffer.byteLength(csv)).toBeGreaterThan(2.5 * 1024 * 1024);
    const data = await gqlData(t, IMPORT, { input: { csv, mapping: { phoneNumber: 'p', firstName: 'f' }, dryRun: true } }, a.key);
    expect(data.importContactsCsv).toEqual({ imported: 30_000, dryRun: true });
  }, 60_000);

  it('refuses a request over 5 MiB, pointing to REST', async () => {
    const res = await importCsv({ csv: `p\n${'+14155550998\n'.repeat(500_000)}`, mapping: { phoneNumber: 'p' } });
    expect(res.status).toBe(413);
    expect(res.errors).toEqual([{ message: 'Request body too large (limit 5 MiB)', extensions: { code: 'BAD_REQUEST' } }]);
  });

  it('answers UNAUTHENTICATED without credentials', async () => {
    const res = await gql(t, IMPORT, { input: { csv: 'p\n+14155550999\n', mapping: { phoneNumber: 'p' } } }, null);
    expect(firstError(res)?.code).toBe('UNAUTHENTICATED');
  });
});
