import { okData, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { firstError, gql, gqlData } from '../graphql/graphql-client';

/** GET /v1/contacts and GraphQL `contacts`: pages, filters and the search by name or number (docs/rest.md, "Listing contacts"). */
let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ t, a, b } = await twoTenants());
  // One request each, in order: each is newer than the one before (an array import shares one creation time).
  for (const body of [
    { firstname: 'Ada', lastname: 'Lovelace', phone_number: '(415) 555-2671', tag_name: 'vip' },
    { firstname: 'Grace', lastname: 'Hopper', phone_number: '+442079460958', tag_name: 'vip', campaign_id: a.campaign.id },
    { firstname: 'Alan', lastname: 'Turing', phone_number: '+14155550177', tag_name: 'lead', status: 'inactive' },
    { firstname: '50%_off', lastname: 'Sale', phone_number: '+14155550178' },
  ]) {
    okData(await t.request('POST', '/v1/contacts', { token: a.key, body }));
  }
  // Company B has an Ada Lovelace at the same number: never listed to A.
  okData(await t.request('POST', '/v1/contacts', { token: b.key, body: { firstname: 'Ada', lastname: 'Lovelace', phone_number: '+14155552671', tag_name: 'vip' } }));
});
afterAll(() => t.close());

const page = (query: string, token = a.key) => t.request('GET', `/v1/contacts${query}`, { token });
const names = async (query: string, token = a.key) => okData<{ items: any[] }>(await page(query, token)).items.map((c) => c.firstname);

describe('GET /v1/contacts', () => {
  it('answers pages newest first in the shape of GET /v1/calls, with the documented contact fields', async () => {
    const first = okData(await page('?limit=2'));
    expect(Object.keys(first).sort()).toEqual(['items', 'next_cursor']);
    expect(first.items.map((c: any) => c.firstname)).toEqual(['50%_off', 'Alan']);
    expect(Object.keys(first.items[0])).toContain('phone_number');
    const second = okData(await page(`?limit=2&cursor=${first.next_cursor}`));
    expect(second.items.map((c: any) => c.firstname)).toEqual(['Grace', 'Ada']);
    const last = okData(await page(`?limit=2&cursor=${second.next_cursor}`));
    expect(last.items.map((c: any) => c.id)).toEqual([a.contact.id]);
    expect(last.next_cursor).toBeNull();
  });

  it("answers a page in the bytes of its contacts' by-id answers (metadata, nulls, instants)", async () => {
    okData(await t.request('PATCH', `/v1/contacts/${a.contact.id}`, { token: a.key, body: { metadata: { crm: { id: 7, tags: ['a', 'é'] }, note: 'say "hi"' } } }));
    const answer = await page('?limit=5');
    const { items, next_cursor } = okData<{ items: { id: string }[]; next_cursor: string | null }>(answer);
    const byId = await Promise.all(items.map(async (c) => okData(await t.request('GET', `/v1/contacts/${c.id}`, { token: a.key }))));
    expect(byId.map((c: any) => c.metadata)).toContainEqual({ crm: { id: 7, tags: ['a', 'é'] }, note: 'say "hi"' });
    // A by-id answer is the JSON.stringify of the contact's serialized view (its key order, numbers and escapes kept through a parse).
    expect(answer.text).toBe(JSON.stringify({ status: 'ok', message: 'ok', data: { items: byId, next_cursor } }));
  });

  it('finds a full name in either order and any case, and a number in any format', async () => {
    expect(await names('?search=Ada%20Lovelace')).toEqual(['Ada']);
    expect(await names('?search=lovelace%20ADA')).toEqual(['Ada']);
    expect(await names('?search=hop')).toEqual(['Grace']);
    expect(await names(`?search=${encodeURIComponent('(415) 555-2671')}`)).toEqual(['Ada']);
    expect(await names(`?search=${encodeURIComponent('+1 415.555.2671')}`)).toEqual(['Ada']);
    expect(await names(`?search=${encodeURIComponent('+44 20 7946 0958')}`)).toEqual(['Grace']);
    // Part of a number: every number containing its digits.
    expect(await names(`?search=${encodeURIComponent('555-017')}`)).toEqual(['50%_off', 'Alan']);
    // Wildcards are typed text, not patterns.
    expect(await names('?search=%25_o')).toEqual(['50%_off']);
    expect(await names('?search=Ada%20Hopper')).toEqual([]);
  });

  it('filters by campaign, tag and status, all combined', async () => {
    expect(await names(`?campaign_id=${a.campaign.id}`)).toEqual(['Grace', 'Ada']);
    expect(await names('?tag_name=vip')).toEqual(['Grace', 'Ada']);
    expect(await names(`?tag_name=vip&campaign_id=${a.campaign.id}&search=grace`)).toEqual(['Grace']);
    expect(await names('?status=inactive')).toEqual(['Alan']);
  });

  it("never lists another company's contacts, even by its campaign", async () => {
    const listed = okData(await page('?search=lovelace', b.key)).items;
    expect(listed).toHaveLength(1);
    expect(listed[0].company_id).toBe(b.companyId);
    expect(await names(`?campaign_id=${a.campaign.id}`, b.key)).toEqual([]);
  });

  it('refuses bad input with the fields named', async () => {
    const res = await page('?limit=0&campaign_id=nope&cursor=garbage&search=');
    expect(res.status).toBe(400);
    expect(res.body.status).toBe('error');
    expect(res.body.message).toBe('Validation failed');
    expect(res.body.data.map((e: any) => e.field).sort()).toEqual(['campaign_id', 'limit', 'search']);
    const cursor = await page('?cursor=garbage');
    expect(cursor.status).toBe(400);
    expect(cursor.body.data).toEqual([{ field: 'cursor', message: 'Invalid cursor' }]);
    expect((await t.request('GET', '/v1/contacts')).status).toBe(401);
  });
});

describe('GraphQL contacts', () => {
  const QUERY = 'query($search: String, $tagName: String) { contacts(first: 10, search: $search, tagName: $tagName) { totalCount edges { node { firstname } } } }';

  it('takes the same filters and search', async () => {
    const found = await gqlData(t, QUERY, { search: '(415) 555-2671', tagName: 'vip' }, a.key);
    expect(found.contacts).toEqual({ totalCount: 1, edges: [{ node: { firstname: 'Ada' } }] });
    const byName = await gqlData(t, QUERY, { search: 'LOVELACE ada' }, b.key);
    expect(byName.contacts.totalCount).toBe(1);
    const bad = await gql(t, QUERY, { search: '  ' }, a.key);
    expect(firstError(bad)).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'search', message: 'Must not be empty' }] });
  });
});
