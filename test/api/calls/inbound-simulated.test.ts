import { jobCaller } from '../../../src/services/platform/jobs/job-catalogue';
import { gql, gqlData } from '../graphql/graphql-client';
import { FROM, okData, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

/**
 * simulate-inbound (issue 13, part 1): the incoming-call path with the simulated provider,
 * over REST and GraphQL. Short simulated talk time, so calls end within the test.
 */

const CALLER = '+14155550199'; // tenant A's contact Ada

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  ({ t, a, b } = await twoTenants({ SIM_RING_MS: '5', SIM_TALK_MS: '50' }));
});
afterAll(() => t.close());

const simulate = (tn: Tenant, body: unknown) => t.request('POST', '/v1/calls/simulate-inbound', { token: tn.key, body });

async function calls(tn: Tenant): Promise<any[]> {
  return okData(await t.request('GET', '/v1/calls?limit=100', { token: tn.key })).items;
}

describe('POST /v1/calls/simulate-inbound', () => {
  it('refuses a number with no agent, and a number of another company, with the field named; stores nothing', async () => {
    for (const to of [FROM, '+14155552672']) {
      const res = await simulate(a, { to, from: CALLER });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message: 'Validation failed', data: [{ field: 'to', message: expect.any(String) }] });
    }
    const bad = await simulate(a, { to: 'soon', from: 42 });
    expect(bad.status).toBe(400);
    expect(bad.body.data.map((f: { field: string }) => f.field).sort()).toEqual(['from', 'to']);
    expect(await calls(a)).toEqual([]);
    expect(await calls(b)).toEqual([]);
  });

  it("is answered by the number's agent as a test call, matched to the caller's contact, and runs to its end", async () => {
    okData(await t.request('PATCH', `/v1/phone-numbers/${a.number.id}`, { token: a.key, body: { inbound_agent_id: a.agent.id } }));
    const call = okData(await simulate(a, { to: '(415) 555-2671', from: '415-555-0199' }));
    expect(call).toMatchObject({
      call_direction: 'incoming',
      is_test: true,
      call_status: 'in-progress',
      call_from: CALLER,
      call_to: FROM,
      ai_agent_id: a.agent.id,
      contact_id: a.contact.id,
      call_sid: expect.stringMatching(/^SIM/),
    });
    const ended = await waitFor('the simulated inbound call to end', async () => {
      const c = okData(await t.request('GET', `/v1/calls/${call.id}`, { token: a.key }));
      return c.call_status === 'completed' ? c : undefined;
    });
    expect(ended).toMatchObject({ disconnect_reason: 'agent_hangup', transcript: expect.stringContaining(a.agent.name) });
    const contact = okData(await t.request('GET', `/v1/contacts/${a.contact.id}`, { token: a.key }));
    expect(contact.last_call_status).toBe('picked-up');
  });

  it('is offered over GraphQL too, with the same rules', async () => {
    const mutation = `mutation($input: SimulateInboundCallInput!) { simulateInboundCall(input: $input) { id callDirection isTest aiAgentId callStatus } }`;
    const { simulateInboundCall } = await gqlData(t, mutation, { input: { to: FROM, from: '+14155550100' } }, a.key);
    expect(simulateInboundCall).toMatchObject({ callDirection: 'INCOMING', isTest: true, aiAgentId: a.agent.id, callStatus: 'IN_PROGRESS' });
    const foreign = await gql(t, mutation, { input: { to: FROM, from: CALLER } }, b.key);
    expect(foreign.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it("lets GraphQL name the number's agent; another company's agent is NOT_FOUND", async () => {
    const mutation = `mutation($id: ID!, $agent: ID) { updatePhoneNumber(id: $id, input: { inboundAgentId: $agent }) { inboundAgentId } }`;
    const mine = await gqlData(t, mutation, { id: b.number.id, agent: b.agent.id }, b.key);
    expect(mine.updatePhoneNumber).toEqual({ inboundAgentId: b.agent.id });
    const foreign = await gql(t, mutation, { id: b.number.id, agent: a.agent.id }, b.key);
    expect(foreign.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('inbound campaigns', () => {
  it('need their inbound number to be activated, not an outbound one', async () => {
    const res = await t.request('POST', '/v1/campaigns', { token: a.key, body: { name: 'Line', campaign_type: 'inbound', status: 'active', ai_agent_id: a.agent.id } });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'inbound_phone_number_id', message: expect.any(String) }]);
  });

  it('answer calls to their number and never dial their contacts', async () => {
    const campaign = okData(
      await t.request('POST', '/v1/campaigns', {
        token: a.key,
        body: { name: 'Line', campaign_type: 'inbound', status: 'active', ai_agent_id: a.agent.id, inbound_phone_number_id: a.number.id, outbound_phone_number_id: a.number.id },
      }),
    );
    await t.app.services.dialer.tick(jobCaller(t.app.orm, a.companyId), campaign.id);
    const stats = okData(await t.request('GET', `/v1/campaigns/by-id/${campaign.id}/stats`, { token: a.key }));
    expect(stats.contacts_selected).toBe(0);
    const call = okData(await simulate(a, { to: FROM, from: CALLER }));
    expect(call).toMatchObject({ campaign_id: campaign.id, call_direction: 'incoming' });
    expect((await calls(a)).filter((c) => c.campaign_id === campaign.id)).toEqual([expect.objectContaining({ id: call.id })]);
  });
});
