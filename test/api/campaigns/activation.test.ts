import { campaignStatsShape } from '../../../src/rest/campaign.serializer';
import { firstError, gql } from '../graphql/graphql-client';
import { okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { campaignApi, DIALER_ENV, statsWhen } from './support';

let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  t = await startTestApp(DIALER_ENV);
  a = await tenant(t, 'A');
});
afterAll(() => t.close());

describe('activating a campaign', () => {
  it('without an agent or an outbound number fails the documented way on update: HTTP 200, status error', async () => {
    const bare = okData(await t.request('POST', '/v1/campaigns', { token: a.key, body: { name: 'Bare' } }));
    const res = await t.request('POST', `/compaign/v1/campaign/update/${bare.id}`, { token: a.key, body: { status: 'active' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'error', message: 'error', data: '' });
    expect(okData(await t.request('GET', `/v1/campaigns/by-id/${bare.id}`, { token: a.key })).status).toBe('draft');
  });

  it('names the missing fields on create (REST extension) and in GraphQL', async () => {
    const rest = await t.request('POST', '/v1/campaigns', { token: a.key, body: { name: 'Bare', status: 'active' } });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      status: 'error',
      message: 'Validation failed',
      data: [
        { field: 'ai_agent_id', message: 'An active campaign needs an agent of your company' },
        { field: 'outbound_phone_number_id', message: 'An active campaign needs an outbound phone number of your company' },
      ],
    });
    const graphql = await gql(t, 'mutation($id: ID!) { updateCampaign(id: $id, input: { status: "active", outboundPhoneNumberId: null }) { id } }', { id: a.campaign.id }, a.key);
    expect(firstError(graphql)).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'outboundPhoneNumberId', message: 'An active campaign needs an outbound phone number of your company' }] });
  });

  it('refuses an agent deleted since it was chosen, and another company’s number', async () => {
    const api = campaignApi(t, a);
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Gone' } }));
    const campaign = await api.campaign({ ai_agent_id: agent.id });
    okData(await t.request('DELETE', `/v1/ai-agent/${agent.id}`, { token: a.key }));
    const res = await t.request('POST', '/v1/campaigns', { token: a.key, body: { name: 'x', status: 'active', ai_agent_id: agent.id, outbound_phone_number_id: a.number.id } });
    expect(res.body.data).toEqual([{ field: 'ai_agent_id', message: 'Agent not found' }]);
    const update = await t.request('POST', `/compaign/v1/campaign/update/${campaign.id}`, { token: a.key, body: { status: 'active' } });
    expect(update.body).toEqual({ status: 'error', message: 'error', data: '' });
    const b = await tenant(t, 'B', '+14155552672');
    const foreign = await t.request('POST', '/v1/campaigns', { token: a.key, body: { name: 'x', status: 'active', ai_agent_id: a.agent.id, outbound_phone_number_id: b.number.id } });
    expect(foreign.body.data).toEqual([{ field: 'outbound_phone_number_id', message: 'Phone number not found' }]);
  });

  it('created active, a complete campaign starts dialing at once', async () => {
    const api = campaignApi(t, a);
    await api.contacts(['+14155557001'], { tag_name: 'at-once' });
    const campaign = await api.campaign({ contacts_list_tags: ['at-once'], status: 'active', call_time_of_day_from: '00:00:00', call_time_of_day_to: '00:00:00' });
    const stats = await statsWhen(api, campaign.id, 'the contact to be picked up', (s) => s.picked_up === 1);
    expect(campaignStatsShape.parse(stats)).toEqual(stats);
    expect((await t.request('GET', '/metrics')).text).toMatch(/^switchboard_campaign_dials_total [1-9]/m);
  });

  it('refuses malformed and unknown stats ids like other reads', async () => {
    expect((await t.request('GET', '/v1/campaigns/by-id/nope/stats', { token: a.key })).body).toMatchObject({ status: 'error', message: 'Validation failed' });
    expect((await t.request('GET', '/v1/campaigns/by-id/11111111-1111-4111-8111-111111111111/stats', { token: a.key })).status).toBe(404);
    expect((await t.request('GET', `/v1/campaigns/by-id/${a.campaign.id}/stats`)).status).toBe(401);
  });
});
