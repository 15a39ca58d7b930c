import { Call } from '../../../src/entities';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import { gqlData, subscribe, wsClient } from '../graphql/graphql-client';

const TERMINAL = ['completed', 'busy', 'no-answer', 'failed', 'canceled'];

let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  t = await startTestApp({ SIM_RING_MS: '150', SIM_TALK_MS: '1600', CALL_PRICE_PER_MINUTE: '0.6' });
  a = await tenant(t, 'A');
});
afterAll(() => t.close());

const makeCall = async (to: string, extra: Record<string, unknown> = {}) =>
  okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: FROM, call_to: to, ...extra } }));

const getCall = async (id: string) => okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));

const ended = (id: string) =>
  waitFor(`call ${id} to end`, async () => {
    const call = await getCall(id);
    return TERMINAL.includes(call.call_status) ? call : undefined;
  });

describe('a call answered by a person', () => {
  it('without a language model, has its agent greet and say a scripted exchange, never its system prompt', async () => {
    const prompt = 'You are Ava from Acme. Never reveal the discount code SECRET42. Qualify the lead, then book a demo.';
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Ava', prompt } }));
    const call = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: agent.id, call_from: FROM, call_to: '+14155550124' } }));
    const done = await ended(call.id);
    expect(done.transcript).toMatch(/^Agent: Hello, this is Ava\.\n/);
    for (const sentence of prompt.split(/(?<=\.) /)) expect(done.transcript).not.toContain(sentence.replace(/\.$/, ''));
  });

  it('moves through every status, each reaching a graphql-ws subscriber, and ends stamped', async () => {
    const client = wsClient(t, a.key);
    const sub = await subscribe(client, `subscription { callStatusChanged(workspace: "live") { id callStatus callDuration } }`);
    const call = await makeCall('+14155550123', { workspace: 'live', dynamic_variables: [{ name: 'firstname', value: 'Ada' }] });
    expect(call.call_status).toBe('pstn-queued');
    const seen: string[] = [];
    while (seen[seen.length - 1] !== 'COMPLETED') seen.push((await sub.next()).callStatusChanged.callStatus);
    sub.close();
    await client.dispose();
    // Each event carries the call's state when delivered: in order, ending in COMPLETED.
    const order = ['PSTN_QUEUED', 'RINGING', 'IN_PROGRESS', 'COMPLETED'];
    expect(seen.map((s) => order.indexOf(s))).toEqual([...seen.map((s) => order.indexOf(s))].sort());
    expect(seen).toEqual(expect.arrayContaining(['RINGING', 'IN_PROGRESS', 'COMPLETED']));

    const done = await getCall(call.id);
    expect(done).toMatchObject({
      call_status: 'completed',
      call_provider: 'simulated',
      disconnect_reason: 'agent_hangup',
      call_duration: 2,
      cost: 0.02,
      cost_breakdown: { telephony: 0.02, llm: 0, recording: 0, total: 0.02 },
      transcript_language: 'en-US',
    });
    expect(done.call_sid).toMatch(/^SIM[0-9a-f]{32}$/);
    expect(new Date(done.ended_at).getTime()).toBeGreaterThanOrEqual(new Date(done.started_at).getTime());
    expect(done.latency).toBeGreaterThanOrEqual(400);
    expect(done.transcript).toContain('Agent: Hello Ada, this is A agent.');
    expect(done.transcript_object.turns[0]).toEqual({ role: 'agent', text: 'Hello Ada, this is A agent.', at: done.started_at });
    const times = done.transcript_object.turns.map((turn: any) => Date.parse(turn.at));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(done.transcript_object.turns.map((turn: any) => turn.role)).toContain('user');
  });
});

describe('outcomes chosen by the callee number', () => {
  it.each([
    ['+14155550001', 'busy', 'busy'],
    ['+14155550002', 'no-answer', 'no_answer'],
    ['+14155550003', 'failed', 'dial_failed'],
  ])('%s ends %s, never answered', async (to, status, reason) => {
    const call = await ended((await makeCall(to)).id);
    expect(call).toMatchObject({ call_status: status, disconnect_reason: reason, call_duration: 0, cost: 0, started_at: null, transcript: null });
    expect(call.ended_at).not.toBeNull();
  });

  it('+14155550004 is answered by voicemail: completed, voicemail_reached, no transcript, hung up at once (voicemail_action hangup)', async () => {
    const call = await ended((await makeCall('+14155550004')).id);
    expect(call).toMatchObject({ call_status: 'completed', disconnect_reason: 'voicemail_reached', answered_by: 'machine', transcript: null, call_duration: 0 });
  });
});

// Each ending's mirror on the contact, and stale updates changing nothing, at the service
// level: test/service/calls/lifecycle.test.ts. Here, the mirror as REST and GraphQL show it.
describe('the contact of a call', () => {
  it('shows the call’s outcome as last_call_status (REST) and lastCallStatus (GraphQL)', async () => {
    const to = '+14155550001';
    const contact = okData(await t.request('POST', '/v1/contacts', { token: a.key, body: { phone_number: to } }));
    // A call to a contact outside a campaign (as an inbound call matched to a contact is), stored and queued as make-call does.
    const em = t.app.orm.em.fork();
    const call = em.create(Call, { company: a.companyId, aiAgent: a.agent.id, contact: contact.id, callProvider: 'simulated', callFrom: FROM, callTo: to, priceUnit: 'USD' }, { persist: false });
    await em.insert(call);
    await t.app.services.lifecycle.enqueueMany(a.companyId, [{ id: call.id, campaignId: null, workspace: 'default' }]);
    const done = await ended(call.id);
    const mirrored = okData(await t.request('GET', `/v1/contacts/${contact.id}`, { token: a.key }));
    expect(mirrored).toMatchObject({ last_call_status: 'busy', last_call_duration: 0, last_call_at: done.created_at });
    const viaGraphQL = await gqlData(t, 'query($id: ID!) { contact(id: $id) { lastCallStatus } }', { id: contact.id }, a.key);
    expect(viaGraphQL.contact.lastCallStatus).toBe('BUSY');
  });
});

describe('cancel', () => {
  it('refuses a call already ended with a clear error, on REST and GraphQL', async () => {
    const call = await ended((await makeCall('+14155550001')).id);
    const rest = await t.request('POST', `/v1/calls/${call.id}/cancel`, { token: a.key });
    expect(rest.status).toBe(409);
    expect(rest.body).toEqual({ status: 'error', message: 'Call already ended (busy)', data: '' });
    const res = await t.request('POST', '/graphql', { token: a.key, body: { query: 'mutation($id: ID!) { cancelCall(id: $id) { id } }', variables: { id: call.id } } });
    expect(res.body.errors[0].extensions.code).toBe('CONFLICT');
  });

  it("answers 404 for another company's call", async () => {
    const b = await tenant(t, 'B', '+14155552672');
    const call = await makeCall('+14155550123');
    expect((await t.request('POST', `/v1/calls/${call.id}/cancel`, { token: b.key })).status).toBe(404);
  });
});

describe('a live call interrupted', () => {
  let slow: TestApp;
  let s: Tenant;

  beforeAll(async () => {
    slow = await startTestApp({ SIM_RING_MS: '60000', SIM_TALK_MS: '60000', MAX_CALL_DURATION_S: '1', CALL_SWEEP_MS: '200' });
    s = await tenant(slow, 'S');
  });
  afterAll(() => slow.close());

  const place = async () => okData(await slow.request('POST', '/v1/calls/make-call', { token: s.key, body: { ai_agent_id: s.agent.id, call_from: FROM, call_to: '+14155550123' } }));
  const status = async (id: string) => okData(await slow.request('GET', `/v1/calls/${id}`, { token: s.key }));

  it('is canceled while ringing, through GraphQL', async () => {
    const call = await place();
    await waitFor('ringing', async () => ((await status(call.id)).call_status === 'ringing' ? true : undefined));
    const res = await slow.request('POST', '/graphql', { token: s.key, body: { query: 'mutation($id: ID!) { cancelCall(id: $id) { callStatus endedAt } }', variables: { id: call.id } } });
    expect(res.body.data.cancelCall.callStatus).toBe('CANCELED');
    expect(await status(call.id)).toMatchObject({ call_status: 'canceled', disconnect_reason: 'canceled', call_duration: 0 });
  });

  it('ends as failed with timeout when the provider never answers', async () => {
    const call = await place();
    const done = await waitFor('the timeout', async () => {
      const c = await status(call.id);
      return c.call_status === 'failed' ? c : undefined;
    });
    expect(done.disconnect_reason).toBe('timeout');
    expect(done.ended_at).not.toBeNull();
  });
});

describe('a call dispatched but never placed (its process died between the two)', () => {
  it('is placed by the call sweep, once, and completes', async () => {
    const call = await makeCall('+14155550123');
    await ended(call.id);
    // The same call as a crash would leave it: given its slot 31 s ago, never handed to the provider.
    const stranded = await t.app.orm.em.fork().execute(
      `insert into calls (id, created_at, updated_at, company_id, ai_agent_id, workspace_id, call_provider, call_from, call_to, is_test, call_direction, price_unit, agent_dynamic_variables, dispatched_at)
       select gen_random_uuid(), now() - interval '31 seconds', now() - interval '31 seconds', company_id, ai_agent_id, workspace_id, call_provider, call_from, call_to, is_test, call_direction, price_unit, agent_dynamic_variables, now() - interval '31 seconds'
       from calls where id = ? and company_id = ? returning id`,
      [call.id, a.companyId],
    );
    const done = await ended(stranded[0].id);
    expect(done).toMatchObject({ call_status: 'completed', disconnect_reason: 'agent_hangup' });
    expect(done.call_sid).toMatch(/^SIM[0-9a-f]{32}$/);
    const [jobs] = await t.app.orm.em.fork().execute(`select count(*)::int as n from pgboss.job where name = 'call.place' and data->>'callId' = ?`, [stranded[0].id]);
    expect(jobs.n).toBe(1);
  });
});

describe('GET /v1/calls/{id}', () => {
  // The by-id read (and each subscription event's) comes from a store query, the list from
  // entities: the same call must be the same bytes in both, key order included.
  it('answers the bytes of the same call in the list, every field of an ended call set', async () => {
    const call = await makeCall('+14155550123', { dynamic_variables: [{ name: 'firstname', value: 'Ada "A" ✓' }], workspace: 'bytes' });
    const done = await ended(call.id);
    expect(done).toMatchObject({ call_status: 'completed', workspace_id: 'bytes' });
    expect(done.transcript_object.turns.length).toBeGreaterThan(0);
    expect(done.cost).toBeGreaterThan(0);
    const list = await t.request('GET', '/v1/calls?workspace=bytes', { token: a.key });
    const byId = await t.request('GET', `/v1/calls/${call.id}`, { token: a.key });
    const item = (list.body.data.items as { id: string }[]).find((c) => c.id === call.id);
    expect(JSON.stringify(JSON.parse(byId.text).data)).toBe(JSON.stringify(item));
  });

  it('answers 404 in the envelope for a call of another company, and 400 for a malformed id', async () => {
    const b = await tenant(t, 'B2', '+14155552673');
    const call = await makeCall('+14155550123');
    expect((await t.request('GET', `/v1/calls/${call.id}`, { token: b.key })).status).toBe(404);
    const malformed = await t.request('GET', '/v1/calls/not-a-uuid', { token: a.key });
    expect(malformed.status).toBe(400);
    expect(malformed.body.status).toBe('error');
  });
});
