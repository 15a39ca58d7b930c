import { okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';

let t: TestApp;
let a: Tenant;
let b: Tenant;
let call: any;

beforeAll(async () => {
  t = await startTestApp();
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
  call = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: a.number.phone_number, call_to: '+14155550123' } }));
});
afterAll(() => t.close());

/** Every operation that names one of A's records, as company B would call it. */
// Every row has four entries: jest would take a missing fourth as a `done` callback.
const foreignOps: [string, string, () => string, unknown][] = [
  ['GET', 'campaign by id', () => `/v1/campaigns/by-id/${a.campaign.id}`, undefined],
  ['DELETE', 'campaign', () => `/v1/campaigns/${a.campaign.id}`, undefined],
  ['GET', 'agent', () => `/v1/ai-agent/${a.agent.id}`, undefined],
  ['PATCH', 'agent', () => `/v1/ai-agent/${a.agent.id}`, { name: 'stolen' }],
  ['DELETE', 'agent', () => `/v1/ai-agent/${a.agent.id}`, undefined],
  ['GET', 'contact', () => `/v1/contacts/${a.contact.id}`, undefined],
  ['PATCH', 'contact', () => `/v1/contacts/${a.contact.id}`, { firstname: 'stolen' }],
  ['DELETE', 'contact', () => `/v1/contacts/${a.contact.id}`, undefined],
  ['DELETE', 'phone number', () => `/v1/phone-numbers/${a.number.id}`, undefined],
  ['GET', 'webhook', () => `/v1/webhooks/${a.flow.id}`, undefined],
  ['PATCH', 'webhook', () => `/v1/webhooks/${a.flow.id}`, { name: 'stolen' }],
  ['DELETE', 'webhook', () => `/v1/webhooks/${a.flow.id}`, undefined],
  ['GET', 'call', () => `/v1/calls/${call.id}`, undefined],
];

describe("company B against company A's records", () => {
  it.each(foreignOps)('%s %s answers 404 Not found', async (method, _what, path, body) => {
    const res = await t.request(method, path(), { token: b.key, body });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', message: 'Not found', data: '' });
  });

  it("cannot update A's campaign through the documented route", async () => {
    const res = await t.request('POST', `/compaign/v1/campaign/update/${a.campaign.id}`, { token: b.key, body: { name: 'stolen' } });
    expect(res.body).toEqual({ status: 'error', message: 'error', data: '' });
  });

  it("cannot place a call with A's agent, nor from A's number", async () => {
    for (const body of [
      { ai_agent_id: a.agent.id, call_from: b.number.phone_number, call_to: '+14155550123' },
      { ai_agent_id: b.agent.id, call_from: a.number.phone_number, call_to: '+14155550123' },
    ]) {
      const res = await t.request('POST', '/v1/calls/make-call', { token: b.key, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message: 'error', data: '' });
    }
  });

  it("cannot attach a contact to A's campaign", async () => {
    const res = await t.request('POST', '/v1/contacts', { token: b.key, body: { phone_number: '+14155550155', campaign_id: a.campaign.id } });
    expect(res.body.data).toEqual([{ field: 'campaign_id', message: 'Campaign not found' }]);
  });

  it("sees none of A's records in any list", async () => {
    const lists = ['/v1/campaigns/list', '/v1/campaigns/by-workspace/default', '/compaign/v1/contact', '/v1/ai-agent', '/v1/webhooks', '/v1/phone-numbers'];
    const aIds = [a.campaign.id, a.contact.id, a.agent.id, a.flow.id, a.number.id];
    for (const path of lists) {
      const data = okData<any[]>(await t.request('GET', path, { token: b.key }));
      expect(data.length).toBeGreaterThan(0);
      expect(data.map((r) => r.id).filter((id) => aIds.includes(id))).toEqual([]);
    }
    const calls = okData(await t.request('GET', '/v1/calls', { token: b.key }));
    expect(calls.items.map((c: any) => c.id)).not.toContain(call.id);
  });

  it('left every record of A as it was', async () => {
    expect(okData(await t.request('GET', `/v1/campaigns/by-id/${a.campaign.id}`, { token: a.key })).name).toBe('A campaign');
    expect(okData(await t.request('GET', `/v1/ai-agent/${a.agent.id}`, { token: a.key })).name).toBe('A agent');
    expect(okData(await t.request('GET', `/v1/contacts/${a.contact.id}`, { token: a.key })).firstname).toBe('Ada');
    expect(okData(await t.request('GET', `/v1/webhooks/${a.flow.id}`, { token: a.key })).name).toBe('A flow');
    expect(okData<any[]>(await t.request('GET', '/v1/phone-numbers', { token: a.key })).map((n) => n.id)).toContain(a.number.id);
  });
});
