import { okData, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => ({ t, a, b } = await twoTenants()));
afterAll(() => t.close());

/** POST /v1/contacts/import with a `text/csv` body and the mapping in `query`. */
const importCsv = (csv: string, query: string, options: { token?: string; type?: string } = {}) =>
  t.request('POST', `/v1/contacts/import?${query}`, { token: options.token ?? a.key, raw: csv, headers: { 'content-type': options.type ?? 'text/csv' } });

/** POST /v1/contacts/import as multipart/form-data, parts in the order given. */
async function importMultipart(parts: [string, string][], query = '') {
  const form = new FormData();
  for (const [name, value] of parts) {
    if (name === 'file') form.append(name, new Blob([value], { type: 'text/csv' }), 'contacts.csv');
    else form.append(name, value);
  }
  const res = await fetch(`${t.url}/v1/contacts/import?${query}`, { method: 'POST', headers: { authorization: `Bearer ${a.key}` }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

/** The company's contacts with these phone numbers, as the database holds them. */
async function stored(companyId: string, phones: string[]): Promise<any[]> {
  return t.app.orm.em
    .fork()
    .execute(
      `select phone_number, firstname, lastname, tag_name, category_name, metadata, campaign_id, number_country_code from contacts where company_id = ? and phone_number in (?) order by phone_number`,
      [companyId, phones],
    );
}

const countOf = async (companyId: string): Promise<number> => (await t.app.orm.em.fork().execute(`select count(*)::int as n from contacts where company_id = ?`, [companyId]))[0].n;

const failure = (fields: { field: string; message: string }[], message = 'Validation failed') => ({ status: 'error', message, data: fields });

describe('POST /v1/contacts/import (text/csv)', () => {
  it('imports every row with the mapped fields, metadata columns and the campaign', async () => {
    const csv =
      '\uFEFFPhone,First,Last,Segment,Kind,Plan,City,Ignored\r\n' +
      '+14155550301,Ada,Lovelace,vip,lead,gold,"London, UK",x\r\n' +
      '"(415) 555-0302","Grace ""Amazing""",Hopper,,customer,silver,,y\r\n' +
      '\r\n' +
      '+442079460303,"Multi\r\nline",Turing,vip,,,,z\r\n';
    const query = `phone_number=Phone&first_name=First&last_name=Last&tag=Segment&category=Kind&metadata=Plan,City&campaign_id=${a.campaign.id}`;
    const data = okData(await importCsv(csv, query));
    expect(data).toEqual({
      rows: 3,
      imported: 3,
      updated: 0,
      duplicates: 0,
      columns: { mapped: { phone_number: 'Phone', first_name: 'First', last_name: 'Last', tag: 'Segment', category: 'Kind' }, metadata: ['Plan', 'City'] },
      dry_run: false,
    });
    expect(await stored(a.companyId, ['+14155550301', '+14155550302', '+442079460303'])).toEqual([
      {
        phone_number: '+14155550301',
        firstname: 'Ada',
        lastname: 'Lovelace',
        tag_name: 'vip',
        category_name: 'lead',
        metadata: { Plan: 'gold', City: 'London, UK' },
        campaign_id: a.campaign.id,
        number_country_code: '1',
      },
      {
        phone_number: '+14155550302',
        firstname: 'Grace "Amazing"',
        lastname: 'Hopper',
        tag_name: '',
        category_name: 'customer',
        metadata: { Plan: 'silver' },
        campaign_id: a.campaign.id,
        number_country_code: '1',
      },
      { phone_number: '+442079460303', firstname: 'Multi\r\nline', lastname: 'Turing', tag_name: 'vip', category_name: '', metadata: {}, campaign_id: a.campaign.id, number_country_code: '44' },
    ]);
    const listed = okData<any[]>(await t.request('GET', '/compaign/v1/contact', { token: a.key }));
    expect(listed.find((c) => c.phone_number === '+14155550301')).toMatchObject({ firstname: 'Ada', campaign_id: a.campaign.id, status: 'active' });
  });

  it("refreshes the planner's statistics after a large import, so a call's lookup of its contact uses the primary key at once", async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => `+1415557${String(i).padStart(4, '0')}`);
    expect(okData(await importCsv(`phone\n${rows.join('\n')}\n`, 'phone_number=phone'))).toMatchObject({ rows: 2000, imported: 2000, dry_run: false });
    const em = t.app.orm.em.fork();
    const [{ rows: estimated }] = await em.execute(`/* test:check */ SELECT reltuples::int AS rows FROM pg_class WHERE oid = 'contacts'::regclass`);
    expect(estimated).toBeGreaterThanOrEqual(2000);
    // The join a call's transition makes to mirror its status on its contact (docs/performance.md, "The dialer and stale statistics").
    const [contact] = await em.execute(`/* test:check */ SELECT id FROM contacts WHERE phone_number = ?`, [rows[1000]]);
    const plan = (await em.execute(`/* test:check */ EXPLAIN SELECT ct.firstname FROM contacts ct WHERE ct.id = ? AND ct.company_id = ?`, [contact.id, a.companyId]))
      .map((r) => r['QUERY PLAN'] as string)
      .join('\n');
    expect(plan).toContain('contacts_pkey');
  });

  it('checks everything and writes nothing in a dry run', async () => {
    const before = await countOf(a.companyId);
    const data = okData(await importCsv('phone\n+14155550311\n+14155550312\n', 'phone_number=phone&dry_run=true'));
    expect(data).toMatchObject({ rows: 2, imported: 2, duplicates: 0, dry_run: true });
    expect(await countOf(a.companyId)).toBe(before);
  });

  it('answers a dry run of a file with bad rows with 200: each bad row by line and field, the good rows as they would be stored; the import refuses the same file', async () => {
    const before = await countOf(a.companyId);
    const csv = 'Phone,First,Plan\n+14155550313,Ada,gold\nnope,Bad,x\n\n+14155550314,' + 'x'.repeat(201) + ',\n+14155550313,Twice,\n(415) 555-0315,Grace,,extra\n';
    const query = 'phone_number=Phone&first_name=First&metadata=Plan';
    const { preview, ...counts } = okData(await importCsv(csv, `${query}&dry_run=true`));
    expect(counts).toMatchObject({ rows: 5, imported: 1, updated: 0, duplicates: 1, dry_run: true });
    expect(preview).toEqual({
      delimiter: ',',
      encoding: 'utf-8',
      header: ['Phone', 'First', 'Plan'],
      sample: [
        {
          line: 2,
          action: 'create',
          contact: expect.objectContaining({ phone_number: '+14155550313', number_country_code: '1', firstname: 'Ada', lastname: null, metadata: { Plan: 'gold' }, campaign_id: null }),
        },
        { line: 6, action: 'duplicate', contact: expect.objectContaining({ phone_number: '+14155550313', firstname: 'Twice', metadata: {} }) },
      ],
      invalid_rows: 3,
      errors: [
        { line: 3, field: 'phone_number', message: 'Invalid phone number format' },
        { line: 5, field: 'first_name', message: expect.stringMatching(/200/) },
        { line: 7, field: null, message: 'Has 4 cells; the header row has 3' },
      ],
      error_count: 3,
    });
    const refused = await importCsv(csv, query);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(
      failure(
        preview.errors.map(({ line, field, message }: any) => ({ field: field === null ? `[${line}]` : `[${line}].${field}`, message })),
        'Validation failed: 3 errors in the file',
      ),
    );
    expect(await countOf(a.companyId)).toBe(before);
  });

  it('answers a dry run whose mapping does not fit the header with 200, the header and the mapping problems (line null); rows are counted, not checked', async () => {
    const { preview, ...counts } = okData(await importCsv('Mobile;Name\n+14155550316;Ada\nnope;Bad\n', 'phone_number=Phone&first_name=Name&dry_run=true'));
    expect(counts).toMatchObject({ rows: 2, imported: 0, duplicates: 0, columns: { mapped: {}, metadata: [] } });
    expect(preview).toMatchObject({
      delimiter: ';',
      header: ['Mobile', 'Name'],
      sample: [],
      invalid_rows: 0,
      errors: [{ line: null, field: 'mapping.phone_number', message: 'No column "Phone" in the header row' }],
      error_count: 1,
    });
    const refused = await importCsv('Mobile;Name\n+14155550316;Ada\n', 'phone_number=Phone&first_name=Name');
    expect(refused.body).toEqual(failure([{ field: 'mapping.phone_number', message: 'No column "Phone" in the header row' }]));
  });

  it('lists the first 100 problems of a dry run, counts them all, and samples the first 20 good rows', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? `+1415558${String(i).padStart(4, '0')}` : `bad ${i}`));
    const { preview, ...counts } = okData(await importCsv(`phone\n${rows.join('\n')}\n`, 'phone_number=phone&dry_run=true'));
    expect(counts).toMatchObject({ rows: 300, imported: 150 });
    expect(preview.errors).toHaveLength(100);
    expect(preview.errors[0]).toEqual({ line: 3, field: 'phone_number', message: 'Invalid phone number format' });
    expect(preview).toMatchObject({ invalid_rows: 150, error_count: 150 });
    expect(preview.sample.map((row: any) => row.line)).toEqual(Array.from({ length: 20 }, (_, i) => 2 + 2 * i));
  });

  it('still refuses in a dry run what is wrong with the request or the file: an unknown key, a campaign of another company, an empty file', async () => {
    const unknown = await importCsv('phone\n+14155550317\n', 'phone_number=phone&mobile=phone&dry_run=true');
    expect(unknown.status).toBe(400);
    expect(unknown.body.data).toEqual([{ field: 'mapping.mobile', message: expect.stringMatching(/^Unknown mapping key; valid keys: phone_number, /) }]);
    const theirs = await importCsv('phone\n+14155550317\n', `phone_number=phone&campaign_id=${b.campaign.id}&dry_run=true`);
    expect(theirs.body).toEqual(failure([{ field: 'campaign_id', message: 'Campaign not found' }]));
    const empty = await importCsv('phone\n', 'phone_number=phone&dry_run=true');
    expect(empty.body).toEqual(failure([{ field: 'file', message: 'Has no rows after the header row' }]));
  });

  it('answers every bad row of 1,000 by spreadsheet line and writes nothing', async () => {
    const before = await countOf(a.companyId);
    const rows = Array.from({ length: 1000 }, (_, i) => `+1415556${String(i).padStart(4, '0')},Name ${i}`);
    rows[12] = 'not a phone,Bad';
    rows[700] = `+14155560700,${'x'.repeat(201)}`;
    const res = await importCsv(`phone,name\n${rows.join('\n')}\n`, 'phone_number=phone&first_name=name');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      failure(
        [
          { field: '[14].phone_number', message: 'Invalid phone number format' },
          { field: '[702].first_name', message: 'Must be at most 200 characters' },
        ],
        'Validation failed: 2 errors in the file',
      ),
    );
    expect(await countOf(a.companyId)).toBe(before);
  });

  it('lists the first 100 errors and says how many there were', async () => {
    const res = await importCsv(`phone\n${Array.from({ length: 150 }, () => 'nope').join('\n')}\n`, 'phone_number=phone');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Validation failed: 150 errors in the file; the first 100 are listed');
    expect(res.body.data).toHaveLength(100);
    expect(res.body.data[99]).toEqual({ field: '[101].phone_number', message: 'Invalid phone number format' });
  });

  it('names a missing phone number, a cell PostgreSQL cannot store and a row with too many cells', async () => {
    const res = await importCsv('phone,name\n,Ada\n+14155550321,A\u0000B\n+14155550322,C,extra\n+14155550323,D,\n', 'phone_number=phone&first_name=name');
    expect(res.body).toEqual(
      failure(
        [
          { field: '[2].phone_number', message: 'Required' },
          { field: '[3].first_name', message: 'NUL characters are not allowed' },
          { field: '[4]', message: 'Has 3 cells; the header row has 2' },
        ],
        'Validation failed: 3 errors in the file',
      ),
    );
  });

  it('names each mapped header missing from the file', async () => {
    const res = await importCsv('Phone,Name\n+14155550331,Ada\n', 'phone_number=Mobile&first_name=Name&metadata=Plan,Name');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      failure([
        { field: 'mapping.phone_number', message: 'No column "Mobile" in the header row' },
        { field: 'mapping.metadata[0]', message: 'No column "Plan" in the header row' },
      ]),
    );
  });

  it('refuses a mapping without phone_number, or with an unknown key, listing the valid keys', async () => {
    const res = await importCsv('Phone\n+14155550341\n', 'firstname=Phone');
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'mapping.phone_number', message: 'Required: the header of the phone number column' }]);
    const unknown = await importCsv('Phone\n+14155550341\n', 'phone_number=Phone&first=Phone');
    expect(unknown.body.data).toEqual([
      {
        field: 'mapping.first',
        message: 'Unknown mapping key; valid keys: phone_number, firstname, first_name, lastname, last_name, tag_name, tag, category_name, category, source_name, notes, metadata',
      },
    ]);
    const proto = await importCsv('Phone,__proto__\n+14155550343,x\n', 'phone_number=Phone&metadata=__proto__');
    expect(proto.body).toEqual(failure([{ field: 'mapping.metadata[0]', message: 'Not allowed as a metadata key (it would set an object prototype)' }]));
    const flag = await importCsv('Phone\n+14155550342\n', 'phone_number=Phone&dry_run=yes');
    expect(flag.body).toEqual(failure([{ field: 'dry_run', message: 'Must be true or false' }]));
  });

  it('refuses an empty file, a header without rows, and text that is not CSV or not UTF-8', async () => {
    const cases: [string | Buffer, string][] = [
      ['', 'Is empty: expected a header row, then one row per contact'],
      ['phone\n', 'Has no rows after the header row'],
      ['phone\n"+14155550351\n', 'Not valid CSV at line 2: Quote Not Closed'],
      [Buffer.from([0x70, 0x68, 0x6f, 0x6e, 0x65, 0x0a, 0xff, 0xfe, 0x0a]), 'Must be UTF-8 text; this file is not (Excel: save as "CSV UTF-8")'],
    ];
    for (const [body, message] of cases) {
      const res = await fetch(`${t.url}/v1/contacts/import?phone_number=phone`, { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'text/csv' }, body });
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 400, body: failure([{ field: 'file', message }]) });
    }
  });

  it('refuses another media type with 415', async () => {
    const res = await importCsv('{"phone":"+14155550371"}', 'phone_number=phone', { type: 'application/json' });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ status: 'error', message: 'Unsupported media type: send text/csv or multipart/form-data', data: '' });
  });

  it("refuses another company's campaign as an unknown one, writing nothing", async () => {
    const before = await countOf(a.companyId);
    const res = await importCsv('phone\n+14155550381\n', `phone_number=phone&campaign_id=${b.campaign.id}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(failure([{ field: 'campaign_id', message: 'Campaign not found' }]));
    expect(await countOf(a.companyId)).toBe(before);
  });

  it('answers 401 without credentials', async () => {
    const res = await importCsv('phone\n+14155550391\n', 'phone_number=phone', { token: '' });
    expect(res.status).toBe(401);
  });
});

describe('POST /v1/contacts/import (multipart/form-data)', () => {
  it('imports the file part with the mapping part, metadata columns included', async () => {
    const mapping = { phone_number: 'Phone, mobile', first_name: 'First', metadata: ['Plan, yearly'] };
    const res = await importMultipart(
      [
        ['mapping', JSON.stringify(mapping)],
        ['file', '"Phone, mobile",First,"Plan, yearly"\n+14155550401,Ada,gold\n+14155550402,Grace,\n'],
      ],
      'dry_run=false',
    );
    expect(res).toMatchObject({
      status: 200,
      body: { status: 'ok', message: 'ok', data: { imported: 2, columns: { mapped: { phone_number: 'Phone, mobile', first_name: 'First' }, metadata: ['Plan, yearly'] }, dry_run: false } },
    });
    expect(await stored(a.companyId, ['+14155550401', '+14155550402'])).toMatchObject([
      { firstname: 'Ada', metadata: { 'Plan, yearly': 'gold' }, campaign_id: null },
      { firstname: 'Grace', metadata: {} },
    ]);
  });

  it('reads the mapping part only before the file part (after it, the header maps itself), as JSON', async () => {
    const late = await importMultipart([
      ['file', 'phone\n+14155550411\n'],
      ['mapping', '{"phone_number":"phone"}'],
    ]);
    expect(late).toMatchObject({
      status: 400,
      body: { message: 'Validation failed', data: [{ field: 'mapping', message: expect.stringMatching(/^No mapping given and no column named phone_number/) }] },
    });
    const notJson = await importMultipart([
      ['mapping', 'phone'],
      ['file', 'phone\n+14155550412\n'],
    ]);
    expect(notJson.body).toEqual(failure([{ field: 'mapping', message: 'Must be a JSON object' }]));
    const noFile = await importMultipart([['mapping', '{"phone_number":"phone"}']]);
    expect(noFile.body).toEqual(failure([{ field: 'file', message: 'Required: a part named file' }]));
    expect(await stored(a.companyId, ['+14155550411', '+14155550412'])).toEqual([]);
  });

  it('names a row error the same way as a text/csv upload', async () => {
    const res = await importMultipart([
      ['mapping', '{"phone_number":"phone"}'],
      ['file', 'phone\n+14155550421\nnope\n'],
    ]);
    expect(res).toEqual({ status: 400, body: failure([{ field: '[3].phone_number', message: 'Invalid phone number format' }], 'Validation failed: 1 error in the file') });
  });
});
