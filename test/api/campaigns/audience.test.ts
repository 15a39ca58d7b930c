import { okData, type Tenant } from '../../support/fixtures';
import { audienceTenants } from './audience-tenants';
import type { TestApp } from '../../support/harness';
import { firstError, gql, gqlData } from '../graphql/graphql-client';

/**
 * The audience preview (docs/campaigns.md, "Audience preview"): who a campaign will call,
 * counted with the dialer's own selection and skip rules, over REST and GraphQL.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ t, a, b } = await audienceTenants());
});
afterAll(() => t.close());

const audience = (id: string, query = '', token = a.key) => t.request('GET', `/v1/campaigns/by-id/${id}/audience${query}`, { token });
const update = (id: string, body: unknown) => t.request('POST', `/compaign/v1/campaign/update/${id}`, { token: a.key, body });

describe('GET /v1/campaigns/by-id/{id}/audience', () => {
  it('counts every contact of the company for a campaign without filters, each skipped under its reason, and samples the callable ones newest first', async () => {
    const data = okData(await audience(a.campaign.id));
    expect(Object.keys(data)).toEqual(['matched', 'matched_exact', 'callable', 'skipped', 'capped', 'sample']);
    expect(data).toMatchObject({ matched: 6, matched_exact: true, callable: 3, skipped: { do_not_call: 1, non_local: 1, inactive: 1 }, capped: false });
    expect(data.sample.map((c: any) => c.firstname)).toEqual(['Other', 'Vip', 'Ada']);
    expect(data.sample[0]).toMatchObject({ company_id: a.companyId, phone_number: '+14155550304', last_call_status: null });
    expect(okData(await audience(a.campaign.id, '?limit=1')).sample.map((c: any) => c.firstname)).toEqual(['Other']);
    expect(okData(await audience(a.campaign.id, '?limit=0')).sample).toEqual([]);
  });

  it("follows the campaign's filters and its rule on non-local numbers", async () => {
    expect(okData(await update(a.campaign.id, { contacts_list_tags: [['vip']] })).length).toBeGreaterThan(0);
    // Its own contact (campaign_id) plus the four tagged vip.
    expect(okData(await audience(a.campaign.id))).toMatchObject({ matched: 5, callable: 2, skipped: { do_not_call: 1, non_local: 1, inactive: 1 } });
    okData(await update(a.campaign.id, { allow_non_local_calls: true }));
    const open = okData(await audience(a.campaign.id));
    expect(open).toMatchObject({ matched: 5, callable: 3, skipped: { do_not_call: 1, non_local: 0, inactive: 1 } });
    expect(open.sample.map((c: any) => c.firstname)).toEqual(['Abroad', 'Vip', 'Ada']);
  });

  it("never counts or shows another company's contacts, and answers 404 for its campaign", async () => {
    const theirs = okData(await audience(b.campaign.id, '', b.key));
    expect(theirs).toMatchObject({ matched: 6, callable: 3 });
    expect(theirs.sample.every((c: any) => c.company_id === b.companyId)).toBe(true);
    const foreign = await audience(b.campaign.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ status: 'error', message: 'Not found', data: '' });
    expect((await audience('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('refuses a bad limit with the field named', async () => {
    for (const query of ['?limit=101', '?limit=-1', '?limit=abc', '?limit=1.5']) {
      const res = await audience(a.campaign.id, query);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', message: 'Validation failed', data: [{ field: 'limit' }] });
    }
  });
});

describe('GraphQL Campaign.audience', () => {
  const QUERY =
    'query($id: ID!, $limit: Int) { campaign(id: $id) { audience(limit: $limit) { matched matchedExact callable skipped { doNotCall nonLocal inactive } capped sample { firstname campaign { id } } } } }';

  it('answers what REST answers', async () => {
    const data = await gqlData(t, QUERY, { id: b.campaign.id, limit: 2 }, b.key);
    expect(data.campaign.audience).toEqual({
      matched: 6,
      matchedExact: true,
      callable: 3,
      skipped: { doNotCall: 1, nonLocal: 1, inactive: 1 },
      capped: false,
      sample: [
        { firstname: 'Other', campaign: null },
        { firstname: 'Vip', campaign: null },
      ],
    });
    expect((await gqlData(t, QUERY, { id: b.campaign.id }, a.key)).campaign).toBeNull();
    expect(firstError(await gql(t, QUERY, { id: b.campaign.id, limit: 500 }, b.key))).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'limit' }] });
  });
});
