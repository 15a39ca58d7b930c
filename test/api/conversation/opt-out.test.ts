import { CALLEE_PERSONA_INTRO } from '../../../src/services/conversation/simulated-callee';
import { ManualClock } from '../../support/clock';
import { FakeLlm, type RecordedRequest, type ScriptedReply } from '../../support/fake-llm';
import { FakeRelay, relayEnded, type RelayTarget, sessionTokenIn } from '../../support/fake-relay';
import { type FakeTwilio, TWILIO_SID as SID, TWILIO_TOKEN as TOKEN } from '../../support/fake-twilio';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import { campaignApi, statsWhen } from '../campaigns/support';
import { answeredOnTwilio, twilioConversations } from './support';

// The do_not_call tool (docs/agents.md, "Tools the model may call"): the callee asks not to be
// called again, the number joins the company's do-not-call list (reason caller_opt_out), the
// agent says goodbye and the call ends (agent_hangup).

const HANGUP = '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>';
const B_FROM = '+14155552672';

/** A company's do-not-call list, as GET /v1/do-not-call pages it. */
async function listed(t: TestApp, key: string): Promise<{ phone_number: string; reason: string | null; created_at: string }[]> {
  return okData(await t.request('GET', '/v1/do-not-call?limit=200', { token: key })).items;
}

/** The agent's side of the fake model: it opts the callee out when asked, then says goodbye. */
function optingOutAgent(request: RecordedRequest): ScriptedReply {
  const last = request.messages.at(-1);
  if (last.role === 'tool') return { text: 'Understood, you will not be called again. Goodbye.' };
  if (last.role === 'user' && /never call/.test(last.content)) return { toolCalls: [{ name: 'do_not_call', arguments: {} }] };
  return { text: 'Hello, this is Ava from Acme.' };
}

describe('do_not_call on a Twilio call', () => {
  let calls: FakeTwilio;
  let llm: FakeLlm;
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;
  let target: RelayTarget;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ twilio: calls, llm, t, target, close } = await twilioConversations());
    a = await tenant(t, 'A');
    b = await tenant(t, 'B', B_FROM);
  });
  afterAll(() => close());

  const read = async (id: string) => okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));

  it("lists the callee's number for the call's company only, says goodbye and ends the call", async () => {
    llm.fallback = optingOutAgent;
    const to = '+14155550171';
    const call = await answeredOnTwilio(t, calls, a.key, { ai_agent_id: a.agent.id, call_from: FROM, call_to: to });
    const relay = await FakeRelay.connect(target, TOKEN, sessionTokenIn(call.twiml));
    relay.setup(call.id, call.call_sid);
    expect((await relay.turn()).text).toBe('Hello, this is Ava from Acme.');
    relay.prompt('Please never call me again.');
    const goodbye = await relay.turn();
    expect(goodbye.text).toBe('Understood, you will not be called again. Goodbye.');
    const end = goodbye.others.find((m) => m.type === 'end') ?? (await relay.next());
    expect(JSON.parse(end.handoffData as string)).toEqual({ reason: 'agent_hangup' });

    expect((await listed(t, a.key)).find((e) => e.phone_number === to)).toMatchObject({ reason: 'caller_opt_out' });
    expect((await listed(t, b.key)).map((e) => e.phone_number)).not.toContain(to);
    const params = { AccountSid: SID, CallSid: call.call_sid, CallStatus: 'in-progress', SessionStatus: 'completed', HandoffData: end.handoffData as string };
    expect((await relayEnded(target, call.id, params)).text).toBe(HANGUP);
    expect((await read(call.id)).disconnect_reason).toBe('agent_hangup');
    // make-call now refuses the number for A, and B may still call it.
    expect((await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: FROM, call_to: to } })).status).toBe(400);
    expect(okData(await t.request('POST', '/v1/calls/make-call', { token: b.key, body: { ai_agent_id: b.agent.id, call_from: B_FROM, call_to: to } })).call_to).toBe(to);
  });
});

describe('do_not_call on the simulated provider', () => {
  let llm: FakeLlm;
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;

  beforeAll(async () => {
    llm = await FakeLlm.start();
    // Monday 2026-11-23, 10:00 in New York: inside the campaign's calling window.
    t = await startTestApp(
      { SIM_RING_MS: '0', SIM_TALK_MS: '600000', CAMPAIGN_SWEEP_MS: '100', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', SIM_CALLEE_TURNS: '3' },
      { clock: new ManualClock(new Date('2026-11-23T15:00:00Z')) },
    );
    a = await tenant(t, 'A');
    b = await tenant(t, 'B', B_FROM);
    const isCallee = (r: RecordedRequest) => String(r.messages[0]?.content ?? '').startsWith(CALLEE_PERSONA_INTRO);
    llm.fallback = (r) => (r.response_format ? { json: {} } : isCallee(r) ? { text: 'Please never call me again.' } : optingOutAgent(r));
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  const ended = (id: string) =>
    waitFor('the simulated conversation to end the call', async () => {
      const got = okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));
      return got.call_status === 'completed' ? got : undefined;
    });

  it('lists the callee of an outgoing call, and a campaign then skips the number', async () => {
    const to = '+14155550172';
    const made = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: FROM, call_to: to } }));
    const call = await ended(made.id);
    expect(call.disconnect_reason).toBe('agent_hangup');
    expect(call.transcript).toBe('Agent: Hello, this is Ava from Acme.\nUser: Please never call me again.\nAgent: Understood, you will not be called again. Goodbye.');
    // Listed at the service's clock's time, as the make-call before it was stored.
    expect((await listed(t, a.key)).find((e) => e.phone_number === to)).toMatchObject({ reason: 'caller_opt_out', created_at: '2026-11-23T15:00:00.000Z' });
    expect(made.created_at).toBe('2026-11-23T15:00:00.000Z');
    expect((await listed(t, b.key)).map((e) => e.phone_number)).not.toContain(to);

    const api = campaignApi(t, a);
    await api.contacts([to], { tag_name: 'opted-out' });
    const campaign = await api.campaign({ contacts_list_tags: [['opted-out']], status: 'active' });
    const done = await statsWhen(api, campaign.id, 'the contact to be skipped', (s) => s.settled === 1);
    expect(done).toMatchObject({ skipped: 1, skipped_reasons: { do_not_call: 1 } });
    expect(await api.calls(campaign.id)).toHaveLength(0);
  });

  it('lists the caller of an incoming call', async () => {
    okData(await t.request('PATCH', `/v1/phone-numbers/${a.number.id}`, { token: a.key, body: { inbound_agent_id: a.agent.id } }));
    const made = okData(await t.request('POST', '/v1/calls/simulate-inbound', { token: a.key, body: { to: a.number.phone_number, from: '+14155550173' } }));
    expect((await ended(made.id)).disconnect_reason).toBe('agent_hangup');
    const entries = await listed(t, a.key);
    expect(entries.find((e) => e.phone_number === '+14155550173')).toMatchObject({ reason: 'caller_opt_out' });
    expect(entries.map((e) => e.phone_number)).not.toContain(a.number.phone_number);
  });
});
