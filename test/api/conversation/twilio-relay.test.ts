import { CALL_ANSWERED_NOTE } from '../../../src/services/conversation/chat-history';
import twilio from 'twilio';
import { APOLOGY } from '../../../src/services/conversation/engine';
import { conversationRelayTwiml } from '../../../src/services/telephony/conversation-relay';
import { subscribe, wsClient } from '../graphql/graphql-client';
import { FakeLlm } from '../../support/fake-llm';
import { mintRelayToken } from '../../../src/services/telephony/relay-token';
import { FakeRelay, RefusedHandshake, relayEnded, type RelayTarget, sessionTokenIn } from '../../support/fake-relay';
import { fakeTwilio, TWILIO_SID as SID, TWILIO_TOKEN as TOKEN, TWILIO_PUBLIC as PUBLIC, twilioProviderEnv } from '../../support/fake-twilio';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

const HANGUP = '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>';

let calls: Awaited<ReturnType<typeof fakeTwilio>>;
let llm: FakeLlm;
let t: TestApp;
let a: Tenant;
let target: RelayTarget;

beforeAll(async () => {
  calls = await fakeTwilio();
  llm = await FakeLlm.start();
  t = await startTestApp({
    ...twilioProviderEnv(calls),
    LLM_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'fake-model',
  });
  a = await tenant(t, 'A');
  target = { url: t.url, publicBaseUrl: PUBLIC, authToken: TOKEN };
});
afterAll(async () => {
  await t.close();
  await llm.close();
  await calls.close();
});

const read = async (id: string) => okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));

/** A call of `agentId` placed at the fake Twilio and answered, as Twilio's status callbacks say. */
async function answered(agentId: string = a.agent.id) {
  const made = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: agentId, call_from: FROM, call_to: '+14155550123' } }));
  const call = await waitFor('the call to reach Twilio', async () => {
    const c = await read(made.id);
    return c.call_sid ? c : undefined;
  });
  const path = `/v1/telephony/twilio/status?call_id=${call.id}`;
  const params = { CallSid: call.call_sid, AccountSid: SID, CallStatus: 'in-progress' };
  await t.request('POST', path, {
    raw: new URLSearchParams(params).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(TOKEN, `${PUBLIC}${path}`, params) },
  });
  return call as { id: string; call_sid: string };
}

/** The TwiML `call` was created with at Twilio. */
const twimlOf = (call: { id: string }) => calls.received.find((r) => r.path.endsWith('/Calls.json') && r.form.get('Twiml')?.includes(call.id))!.form.get('Twiml')!;
/** The session token of `call`'s relay URL, as Twilio reads it from the TwiML. */
const tokenOf = (call: { id: string }) => sessionTokenIn(twimlOf(call));

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 0,
    (err: unknown) => (err instanceof RefusedHandshake ? err.status : -1),
  );

/** A relay connected as Twilio would for `call`, with the agent's greeting read. */
async function relayFor(call: { id: string; call_sid: string }, greeting = 'Hello, this is Acme.') {
  llm.reply({ text: greeting });
  const relay = await FakeRelay.connect(target, TOKEN, tokenOf(call));
  relay.setup(call.id, call.call_sid);
  expect((await relay.turn()).text).toBe(greeting);
  return relay;
}

const ended = (call: { call_sid: string }, handoffData: string) => ({ AccountSid: SID, CallSid: call.call_sid, CallStatus: 'in-progress', SessionStatus: 'completed', HandoffData: handoffData });

describe('a Twilio call with its agent on ConversationRelay', () => {
  it("is placed with the relay TwiML, carrying the agent's settings and a session token of its own", async () => {
    const call = await answered();
    const token = tokenOf(call);
    // Twilio's `info` events are asked for by default (RELAY_INFO_EVENTS).
    expect(twimlOf(call)).toBe(conversationRelayTwiml(PUBLIC, call.id, { language: 'en-US', interruptionSensitivity: 50, welcomeGreeting: '' }, token, 'new', true));
    expect(twimlOf(call)).toContain('events="speaker-events tokens-played"');
    expect(tokenOf(await answered())).not.toBe(token);
  });

  it('refuses unsigned and wrongly signed handshakes, and session URLs without a token of ours, with 403', async () => {
    const call = await answered();
    for (const token of [null, 'not-the-token']) expect(await refusal(FakeRelay.connect(target, token, tokenOf(call)))).toBe(403);
    expect(await refusal(FakeRelay.connect(target))).toBe(403);
    expect(await refusal(FakeRelay.connect(target, TOKEN, mintRelayToken('another-secret', call.id, new Date())))).toBe(403);
    expect(await refusal(FakeRelay.connect(target, TOKEN, mintRelayToken(TOKEN, call.id, new Date(Date.now() - 11 * 60_000))))).toBe(403);
  });

  it('refuses a replayed session URL, even once its session is over', async () => {
    const call = await answered();
    const relay = await relayFor(call);
    expect(await refusal(FakeRelay.connect(target, TOKEN, tokenOf(call)))).toBe(403);
    relay.close();
    await relay.closed();
    expect(await refusal(FakeRelay.connect(target, TOKEN, tokenOf(call)))).toBe(403);
  });

  it("refuses a second concurrent session for a call, which leaves the first one's transcript alone", async () => {
    const call = await answered();
    const relay = await relayFor(call, 'Hello, this is Acme.');
    expect(await refusal(FakeRelay.connect(target, TOKEN, mintRelayToken(TOKEN, call.id, new Date())))).toBe(403);
    llm.reply({ text: 'Sure.' });
    relay.prompt('Can you help?');
    expect((await relay.turn()).text).toBe('Sure.');
    await waitFor('the transcript', async () => ((await read(call.id)).transcript === 'Agent: Hello, this is Acme.\nUser: Can you help?\nAgent: Sure.' ? true : undefined));
    relay.close();
  });

  it("closes a session whose setup names a call with another sid, another call than its token's, or an ended call", async () => {
    const call = await answered();
    const wrongSid = await FakeRelay.connect(target, TOKEN, tokenOf(call));
    wrongSid.setup(call.id, 'CA99999999999999999999999999999999');
    expect(await wrongSid.closed()).toBe(1008);
    const other = await answered();
    const otherCall = await FakeRelay.connect(target, TOKEN, tokenOf(other));
    otherCall.setup(call.id, call.call_sid);
    expect(await otherCall.closed()).toBe(1008);
    const gone = await answered();
    okData(await t.request('POST', `/v1/calls/${gone.id}/cancel`, { token: a.key }));
    const ended = await FakeRelay.connect(target, TOKEN, tokenOf(gone));
    ended.setup(gone.id, gone.call_sid);
    expect(await ended.closed()).toBe(1008);
  });

  it('stores the transcript turn by turn, each reaching a graphql-ws subscriber, and ignores malformed messages', async () => {
    const call = await answered();
    const client = wsClient(t, a.key);
    const updates = await subscribe<{ callStatusChanged: { transcript: string | null } }>(client, 'subscription ($id: ID) { callStatusChanged(callId: $id) { transcript } }', { id: call.id });
    const transcriptReaching = async (expected: string) => {
      for (;;) if ((await updates.next()).callStatusChanged.transcript === expected) return;
    };
    const relay = await relayFor(call, 'Hello Ada, this is Acme.');
    await transcriptReaching('Agent: Hello Ada, this is Acme.');

    relay.send('{garbage');
    relay.send({ type: 'prompt', voicePrompt: ['not', 'text'], last: true });
    relay.send({ type: 'mystery' });
    llm.reply({ text: 'Of course, I can help.' });
    relay.prompt('Can you help me?');
    expect((await relay.turn()).text).toBe('Of course, I can help.');
    await transcriptReaching('Agent: Hello Ada, this is Acme.\nUser: Can you help me?\nAgent: Of course, I can help.');
    const stored = await read(call.id);
    expect(stored.transcript_object.turns.map((turn: { role: string; text: string }) => [turn.role, turn.text])).toEqual([
      ['agent', 'Hello Ada, this is Acme.'],
      ['user', 'Can you help me?'],
      ['agent', 'Of course, I can help.'],
    ]);
    relay.close();
    updates.close();
    await client.dispose();
  });

  it('keeps only what the callee heard of an interrupted turn, and passes pressed keys to the model', async () => {
    const call = await answered();
    const relay = await relayFor(call, 'Hello, this is Acme calling about your order.');
    relay.interrupt('Hello, this is Acme');
    await waitFor('the transcript cut to what was heard', async () => ((await read(call.id)).transcript === 'Agent: Hello, this is Acme' ? true : undefined));
    llm.reply({ text: 'You pressed one.' });
    relay.dtmf('1');
    expect((await relay.turn()).text).toBe('You pressed one.');
    const { messages } = llm.conversationRequests().at(-1)!;
    const asked = messages.filter((m: { role: string }) => m.role !== 'system');
    expect(asked).toEqual([
      { role: 'user', content: CALL_ANSWERED_NOTE },
      { role: 'assistant', content: 'Hello, this is Acme' },
      { role: 'user', content: '[The caller pressed 1]' },
    ]);
    relay.close();
  });

  it('records user_hangup when the callee hangs up, keeping the stored turns', async () => {
    const call = await answered();
    const relay = await relayFor(call, 'Hello, this is Acme.');
    llm.reply({ text: 'Our hours are nine to five.' });
    relay.prompt('What are your hours?');
    expect((await relay.turn()).text).toBe('Our hours are nine to five.');
    relay.close();
    const { action, status } = await calls.calleeHangsUp(t.url, call.id, 14);
    expect([action.status, status.status]).toEqual([200, 200]);
    expect(await action.text()).toBe(HANGUP);
    expect(await read(call.id)).toMatchObject({ call_status: 'completed', disconnect_reason: 'user_hangup', call_duration: 14 });
    const transcript = 'Agent: Hello, this is Acme.\nUser: What are your hours?\nAgent: Our hours are nine to five.';
    await waitFor('the stored turns', async () => ((await read(call.id)).transcript === transcript ? true : undefined));
  });

  it('apologises and ends with llm_error when the model fails, and the call records it', async () => {
    const call = await answered();
    const relay = await relayFor(call);
    llm.reply({ status: 500 }, { status: 500 });
    relay.prompt('What are your hours?');
    const turn = await relay.turn();
    expect(turn.text.trim()).toBe(APOLOGY);
    const end = turn.others.find((m) => m.type === 'end') ?? (await relay.next());
    expect(JSON.parse(end.handoffData as string)).toEqual({ reason: 'llm_error' });
    expect((await relayEnded(target, call.id, ended(call, end.handoffData as string))).text).toBe(HANGUP);
    expect((await read(call.id)).disconnect_reason).toBe('llm_error');
  });

  it('transfers to an allowed number: end with the number as handoff, then <Dial>', async () => {
    const agent = okData(
      await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Transferring agent', prompt: 'Transfer when asked.', agent_flow: { transfer_numbers: ['+14155550100'] } } }),
    );
    const call = await answered(agent.id);
    const relay = await relayFor(call);
    llm.reply({ toolCalls: [{ name: 'transfer_call', arguments: { number: '+14155550100' } }] }, { text: 'Transferring you now.' });
    relay.prompt('Let me talk to a person.');
    let end = (await relay.turn()).others.find((m) => m.type === 'end');
    end ??= await relay.next();
    expect(end.type).toBe('end');
    expect(JSON.parse(end.handoffData as string)).toEqual({ reason: 'call_transfer', transfer_to: '+14155550100' });
    const res = await relayEnded(target, call.id, ended(call, end.handoffData as string));
    expect(res.text).toBe(`<?xml version="1.0" encoding="UTF-8"?><Response><Dial action="${PUBLIC}/v1/telephony/twilio/dial-ended?call_id=${call.id}">+14155550100</Dial></Response>`);
    expect((await read(call.id)).disconnect_reason).toBe('call_transfer');
  });
});
