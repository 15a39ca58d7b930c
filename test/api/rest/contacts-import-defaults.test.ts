import { okData, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';

/**
 * CSV imports that just work (docs/rest.md, "Importing contacts from CSV"): a header naming
 * the contact's fields maps itself, the delimiter is detected, numbers already in the
 * company are skipped or update their contact, and a dry run answers the same preview.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => ({ t, a, b } = await twoTenants()));
afterAll(() => t.close());

const importCsv = (csv: string, query = '', token = a.key) => t.request('POST', `/v1/contacts/import${query ? `?${query}` : ''}`, { token, raw: csv, headers: { 'content-type': 'text/csv' } });

/** The same as bytes (a file in another encoding). */
async function importBytes(bytes: Buffer, query: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${t.url}/v1/contacts/import?${query}`, { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'text/csv' }, body: bytes });
  return { status: res.status, body: await res.json() };
}

async function stored(companyId: string, phones: string[]): Promise<any[]> {
  return t.app.orm.em
    .fork()
    .execute(
      `select phone_number, firstname, lastname, tag_name, source_name, notes, metadata from contacts where company_id = ? and phone_number in (?) and deleted_at is null order by phone_number, created_at`,
      [companyId, phones],
    );
}

describe('POST /v1/contacts/import without a mapping', () => {
  it("maps a header named as the contact's fields, semicolon-separated, in a dry run and for real alike", async () => {
    const csv = 'firstname;lastname;phone_number;tag_name;category_name;source_name;notes;ignored\nAda;Lovelace;(415) 555-0901;vip;lead;fair;"met; twice";x\n';
    const { preview, ...counts } = okData(await importCsv(csv, 'dry_run=true'));
    expect(counts).toEqual({
      rows: 1,
      imported: 1,
      updated: 0,
      duplicates: 0,
      dry_run: true,
      columns: {
        mapped: { firstname: 'firstname', lastname: 'lastname', phone_number: 'phone_number', tag_name: 'tag_name', category_name: 'category_name', source_name: 'source_name', notes: 'notes' },
        metadata: [],
      },
    });
    expect(preview).toEqual({
      delimiter: ';',
      encoding: 'utf-8',
      header: ['firstname', 'lastname', 'phone_number', 'tag_name', 'category_name', 'source_name', 'notes', 'ignored'],
      sample: [
        {
          line: 2,
          action: 'create',
          contact: {
            phone_number: '+14155550901',
            number_country_code: '1',
            firstname: 'Ada',
            lastname: 'Lovelace',
            tag_name: 'vip',
            category_name: 'lead',
            source_name: 'fair',
            notes: 'met; twice',
            metadata: null,
            campaign_id: null,
          },
        },
      ],
      invalid_rows: 0,
      errors: [],
      error_count: 0,
    });
    expect(await stored(a.companyId, ['+14155550901'])).toEqual([]);
    expect(okData(await importCsv(csv))).toEqual({ ...counts, dry_run: false });
    expect(await stored(a.companyId, ['+14155550901'])).toEqual([
      { phone_number: '+14155550901', firstname: 'Ada', lastname: 'Lovelace', tag_name: 'vip', source_name: 'fair', notes: 'met; twice', metadata: {} },
    ]);
  });

  it('detects a tab-separated file, and takes the contact field names as mapping keys', async () => {
    const data = okData(await importCsv('Mobile\tGiven\tFamily\n+14155550911\tGrace\tHopper\n', 'phone_number=Mobile&firstname=Given&lastname=Family'));
    expect(data).toMatchObject({ imported: 1, columns: { mapped: { phone_number: 'Mobile', firstname: 'Given', lastname: 'Family' } } });
    expect(await stored(a.companyId, ['+14155550911'])).toMatchObject([{ firstname: 'Grace', lastname: 'Hopper' }]);
  });

  it('refuses a header with no phone_number column, and a Windows-1252 file the same way in a dry run', async () => {
    const none = await importCsv('name,number\nAda,+14155550921\n');
    expect(none.status).toBe(400);
    expect(none.body.data).toEqual([
      { field: 'mapping', message: expect.stringMatching(/^No mapping given and no column named phone_number: name the columns as the contact fields \(phone_number, firstname/) },
    ]);
    const latin = Buffer.concat([Buffer.from('phone_number,firstname\n+14155550922,J'), Buffer.from([0xfc]), Buffer.from('rgen\n')]);
    for (const query of ['dry_run=true', '']) {
      const res = await importBytes(latin, query);
      expect(res.status).toBe(400);
      expect(res.body.data).toEqual([{ field: 'file', message: 'Must be UTF-8 text; this file is not (Excel: save as "CSV UTF-8")' }]);
    }
    expect(await stored(a.companyId, ['+14155550922'])).toEqual([]);
  });
});

describe('on_duplicate', () => {
  const csv = 'phone_number,firstname,tag_name\n+14155550931,First,old\n+14155550932,Second,old\n';

  it('skips numbers the company already has (the default), and a number twice in the file, counting them in the preview', async () => {
    okData(await importCsv(csv));
    const again = 'phone_number,firstname\n+14155550931,Again\n+14155550933,New\n+14155550933,Twice\n';
    const preview = okData(await importCsv(again, 'dry_run=true'));
    expect(preview).toMatchObject({ rows: 3, imported: 1, updated: 0, duplicates: 2 });
    expect(okData(await importCsv(again))).toMatchObject({ rows: 3, imported: 1, updated: 0, duplicates: 2, dry_run: false });
    expect(await stored(a.companyId, ['+14155550931', '+14155550933'])).toMatchObject([
      { phone_number: '+14155550931', firstname: 'First' },
      { phone_number: '+14155550933', firstname: 'New' },
    ]);
  });

  it('update writes the fields the row holds over the contact having its number, and keeps the others', async () => {
    const data = okData(await importCsv('phone_number,firstname,notes\n+14155550932,Renamed,called back\n+14155550934,Fresh,\n', 'on_duplicate=update'));
    expect(data).toMatchObject({ rows: 2, imported: 1, updated: 1, duplicates: 1 });
    expect(await stored(a.companyId, ['+14155550932'])).toEqual([
      { phone_number: '+14155550932', firstname: 'Renamed', lastname: '', tag_name: 'old', source_name: '', notes: 'called back', metadata: {} },
    ]);
  });

  it("never counts another company's contacts as duplicates, nor updates them", async () => {
    expect(okData(await importCsv('phone_number,firstname\n+14155550932,Theirs\n', 'on_duplicate=update', b.key))).toMatchObject({ imported: 1, updated: 0, duplicates: 0 });
    expect(await stored(a.companyId, ['+14155550932'])).toMatchObject([{ firstname: 'Renamed' }]);
    expect(await stored(b.companyId, ['+14155550932'])).toMatchObject([{ firstname: 'Theirs' }]);
  });

  it('refuses another value', async () => {
    const res = await importCsv(csv, 'on_duplicate=create');
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'on_duplicate', message: 'Must be one of skip, update' }]);
  });
});
