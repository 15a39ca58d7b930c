import { okData, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => ({ t, a, b } = await twoTenants()));
afterAll(() => t.close());

const CONTACT_FIELDS = [
  'id',
  'company_id',
  'firstname',
  'lastname',
  'phone_number',
  'metadata',
  'number_country_code',
  'last_call_status',
  'last_call_at',
  'last_call_duration',
  'last_call_feedback',
  'source_name',
  'tag_name',
  'category_name',
  'notes',
  'created_at',
  'updated_at',
  'campaign_id',
  'status',
];

const list = (token = a.key) => t.request('GET', '/compaign/v1/contact', { token });

describe('GET /compaign/v1/contact', () => {
  it("lists the company's contacts with exactly the documented fields", async () => {
    const contacts = okData<any[]>(await list());
    expect(contacts).toHaveLength(1);
    expect(Object.keys(contacts[0]).sort()).toEqual([...CONTACT_FIELDS].sort());
    expect(contacts[0]).toMatchObject({
      id: a.contact.id,
      company_id: a.companyId,
      firstname: 'Ada',
      phone_number: '+14155550199',
      number_country_code: '1',
      metadata: {},
      last_call_status: null,
      campaign_id: a.campaign.id,
      status: 'active',
    });
  });

  it("never shows another company's contacts", async () => {
    const ids = okData<any[]>(await list(b.key)).map((c) => c.id);
    expect(ids).toEqual([b.contact.id]);
  });

  it('answers 401 without credentials', async () => {
    const res = await t.request('GET', '/compaign/v1/contact');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: 'error', message: 'Unauthorized', data: '' });
  });
});

describe('contact management', () => {
  it('creates one contact from a national number and reads it back', async () => {
    const made = okData(
      await t.request('POST', '/v1/contacts', {
        token: a.key,
        body: { firstname: 'Grace', lastname: 'Hopper', phone_number: '(415) 555-0150', metadata: { plan: 'gold' } },
      }),
    );
    expect(made).toMatchObject({ firstname: 'Grace', lastname: 'Hopper', phone_number: '+14155550150', number_country_code: '1', metadata: { plan: 'gold' } });
    const uk = okData(await t.request('POST', '/v1/contacts', { token: a.key, body: { phone_number: '+44 20 7946 0958' } }));
    expect(uk).toMatchObject({ phone_number: '+442079460958', number_country_code: '44' });
    expect(okData(await t.request('GET', `/v1/contacts/${uk.id}`, { token: a.key })).id).toBe(uk.id);
  });

  it('imports an array all-or-nothing, naming each bad row by index', async () => {
    const before = okData<any[]>(await list()).length;
    const res = await t.request('POST', '/v1/contacts', {
      token: a.key,
      body: [
        { firstname: 'ok', phone_number: '+14155550111' },
        { firstname: 'bad', phone_number: 'nope' },
        { firstname: 'ok', phone_number: '+14155550112' },
        { phone_number: '+14155550113', campaign_id: b.campaign.id },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: 'error',
      message: 'Validation failed',
      data: [{ field: '[1].phone_number', message: 'Invalid phone number format' }],
    });
    const foreign = await t.request('POST', '/v1/contacts', {
      token: a.key,
      body: [{ phone_number: '+14155550111' }, { phone_number: '+14155550113', campaign_id: b.campaign.id }],
    });
    expect(foreign.body.data).toEqual([{ field: '[1].campaign_id', message: 'Campaign not found' }]);
    expect(okData<any[]>(await list())).toHaveLength(before);
  });

  it('imports 10,000 contacts in one request and refuses 10,001', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ firstname: `n${i}`, phone_number: `+1415555${String(i).padStart(4, '0')}` }));
    const made = okData<any[]>(await t.request('POST', '/v1/contacts', { token: b.key, body: rows }));
    expect(made).toHaveLength(10_000);
    const tooMany = await t.request('POST', '/v1/contacts', { token: b.key, body: [...rows, rows[0]] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.data).toEqual([{ field: 'body', message: 'At most 10000 contacts per import' }]);
  }, 60_000);

  it('updates and soft-deletes, only within the company', async () => {
    const c = okData(await t.request('POST', '/v1/contacts', { token: a.key, body: { phone_number: '+14155550140' } }));
    const foreign = await t.request('PATCH', `/v1/contacts/${c.id}`, { token: b.key, body: { firstname: 'x' } });
    expect(foreign.status).toBe(404);
    const patched = okData(await t.request('PATCH', `/v1/contacts/${c.id}`, { token: a.key, body: { firstname: 'Lin', status: 'inactive' } }));
    expect(patched).toMatchObject({ firstname: 'Lin', status: 'inactive', phone_number: '+14155550140' });
    const bad = await t.request('PATCH', `/v1/contacts/${c.id}`, { token: a.key, body: { phone_number: '' } });
    expect(bad.status).toBe(400);
    expect((await t.request('DELETE', `/v1/contacts/${c.id}`, { token: b.key })).status).toBe(404);
    okData(await t.request('DELETE', `/v1/contacts/${c.id}`, { token: a.key }));
    expect((await t.request('GET', `/v1/contacts/${c.id}`, { token: a.key })).status).toBe(404);
    expect(okData<any[]>(await list()).map((x) => x.id)).not.toContain(c.id);
  });
});
