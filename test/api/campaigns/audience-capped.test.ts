import { okData, type Tenant } from '../../support/fixtures';
import { audienceTenants } from './audience-tenants';
import type { TestApp } from '../../support/harness';
import { gqlData } from '../graphql/graphql-client';

/**
 * The audience preview past AUDIENCE_COUNT_LIMIT (docs/campaigns.md, "Audience preview"): the
 * counts are of the first matched contacts in the dialer's order and say so (`capped`);
 * `matched` is then a lower bound, except for a campaign selecting every contact, whose
 * matched contacts are the company's live ones, counted exactly. Here the limit is 5.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ t, a, b } = await audienceTenants({ AUDIENCE_COUNT_LIMIT: '5' }));
  // B has more: were they counted with A's, A's campaigns would be capped sooner.
  okData(await t.request('POST', '/v1/contacts', { token: b.key, body: [{ phone_number: '+14155550305', tag_name: 'vip' }, { phone_number: '+14155550306' }] }));
});
afterAll(() => t.close());

const audience = (id: string) => t.request('GET', `/v1/campaigns/by-id/${id}/audience`, { token: a.key });
const update = (id: string, body: unknown) => t.request('POST', `/compaign/v1/campaign/update/${id}`, { token: a.key, body });
/** The first five of A's contacts: Ada and Vip called, Asleep inactive, Listed on the do-not-call list, Abroad not local. */
const FIRST_FIVE = { callable: 2, skipped: { do_not_call: 1, non_local: 1, inactive: 1 } };

describe('the audience preview past AUDIENCE_COUNT_LIMIT', () => {
  it('counts every contact up to the limit exactly', async () => {
    okData(await update(a.campaign.id, { contacts_list_tags: [['vip']] }));
    // Its own contact plus the four tagged vip: five, the limit itself.
    expect(okData(await audience(a.campaign.id))).toMatchObject({ matched: 5, matched_exact: true, ...FIRST_FIVE, capped: false });
  });

  it('past it, counts the first contacts in the dialer’s order and answers the limit as a lower bound', async () => {
    okData(await update(a.campaign.id, { contacts_list_tags: [['vip', 'other']] }));
    const data = okData(await audience(a.campaign.id));
    expect(data).toMatchObject({ matched: 5, matched_exact: false, ...FIRST_FIVE, capped: true });
    expect(data.sample.map((c: any) => c.firstname)).toEqual(['Other', 'Vip', 'Ada']);
  });

  it('for a campaign selecting every contact, answers the exact number of live contacts beside the capped counts', async () => {
    okData(await update(a.campaign.id, { contacts_list_tags: [] }));
    expect(okData(await audience(a.campaign.id))).toMatchObject({ matched: 6, matched_exact: true, ...FIRST_FIVE, capped: true });
    const gone = okData(await t.request('POST', '/v1/contacts', { token: a.key, body: { phone_number: '+14155550399' } }));
    okData(await t.request('DELETE', `/v1/contacts/${gone.id}`, { token: a.key }));
    expect(okData(await audience(a.campaign.id))).toMatchObject({ matched: 6, matched_exact: true, capped: true });
    const theirs = okData(await t.request('GET', `/v1/campaigns/by-id/${b.campaign.id}/audience`, { token: b.key }));
    expect(theirs).toMatchObject({ matched: 8, matched_exact: true, ...FIRST_FIVE, capped: true });
  });

  it('answers the same over GraphQL', async () => {
    okData(await update(a.campaign.id, { contacts_list_tags: [['vip', 'other']] }));
    const QUERY = 'query($id: ID!) { campaign(id: $id) { audience(limit: 0) { matched matchedExact callable skipped { doNotCall nonLocal inactive } capped } } }';
    expect((await gqlData(t, QUERY, { id: a.campaign.id }, a.key)).campaign.audience).toEqual({
      matched: 5,
      matchedExact: false,
      callable: 2,
      skipped: { doNotCall: 1, nonLocal: 1, inactive: 1 },
      capped: true,
    });
  });
});
