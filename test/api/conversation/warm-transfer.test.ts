import { TRANSFER_FAILED_LINE, TRANSFER_FAILED_NOTE } from '../../../src/services/conversation/resumption';
import type { FakeLlm, ScriptedReply } from '../../support/fake-llm';
import { FakeRelay, parametersIn, relayEnded, type RelayOut, type RelayTarget } from '../../support/fake-relay';
import { type FakeTwilio, TWILIO_SID as SID, TWILIO_PUBLIC as PUBLIC } from '../../support/fake-twilio';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { gql, gqlData } from '../graphql/graphql-client';
import { answeredOnTwilio, twilioConversations } from './support';

// Transfers on Twilio (docs/calls.md, "Transfers"): a warm one plays the hold audio while the
// model summarises the call, the <Dial> rings the person with a whisper of that summary, and
// nobody taking the call brings the agent back; a cold one is dialled at once.

const HANGUP = '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>';
const DESK = '+14155550100';
const HOLD = 'https://cdn.example.com/hold.mp3';
const SUMMARY = 'Ada wants to move her Friday appointment to Monday.';

let env: Awaited<ReturnType<typeof twilioConversations>>;
let twilio: FakeTwilio;
let llm: FakeLlm;
let t: TestApp;
let a: Tenant;
let b: Tenant;
let target: RelayTarget;
let warm: { id: string };
let cold: { id: string };

beforeAll(async () => {
  env = await twilioConversations();
  ({ twilio, llm, t, target } = env);
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
  const agent = (body: Record<string, unknown>) => t.request('POST', '/v1/ai-agent', { token: a.key, body: { prompt: 'Transfer when asked.', agent_flow: { transfer_numbers: [DESK] }, ...body } });
  warm = okData(await agent({ name: 'Warm', transfer_mode: 'warm', hold_audio_url: HOLD }));
  cold = okData(await agent({ name: 'Cold' }));
});
afterAll(() => env.close());

const read = async (id: string) => okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));

/** A call of `agentId` placed at the fake Twilio, answered, its relay open and the greeting read. */
async function answered(agentId: string) {
  const call = await answeredOnTwilio(t, twilio, a.key, { ai_agent_id: agentId, call_from: FROM, call_to: '+14155550123' });
  llm.reply({ text: 'Hello, this is Acme.' });
  const relay = await FakeRelay.ofTwiml(target, call.twiml, call.call_sid);
  expect((await relay.turn()).text).toBe('Hello, this is Acme.');
  return { call, relay };
}

/**
 * The caller asks for a person; the agent transfers to DESK, and the model answers `summary`
 * when asked for one (null: not asked, a cold transfer). Answers what the relay sent after the
 * agent's words, up to `end`.
 */
async function askForAPerson(relay: FakeRelay, summary: ScriptedReply | null = { text: SUMMARY }): Promise<RelayOut[]> {
  llm.reply({ text: 'Let me put you through.', toolCalls: [{ name: 'transfer_call', arguments: { number: DESK } }] }, ...(summary ? [summary] : []));
  relay.prompt('I need a person, please.');
  const turn = await relay.turn();
  expect(turn.text).toBe('Let me put you through.');
  const after = [...turn.others];
  while (after.at(-1)?.type !== 'end') after.push(await relay.next());
  return after;
}

const handedOff = (call: { call_sid: string }, end: RelayOut) => ({
  AccountSid: SID,
  CallSid: call.call_sid,
  CallStatus: 'in-progress',
  SessionStatus: 'completed',
  HandoffData: end.handoffData as string,
});

describe('a warm transfer on Twilio', () => {
  it('plays the hold audio while the model summarises, rings the person with a whisper of the summary, and ends call_transfer once taken', async () => {
    const { call, relay } = await answered(warm.id);
    const after = await askForAPerson(relay);
    expect(after).toEqual([
      { type: 'play', source: HOLD, loop: 1, interruptible: false },
      { type: 'end', handoffData: expect.any(String) },
    ]);
    expect(JSON.parse(after[1].handoffData as string)).toEqual({ reason: 'call_transfer', transfer_to: DESK, summary: SUMMARY });
    const asked = llm.conversationRequests().at(-1)!.messages;
    expect(asked[0].content).toContain('You prepare a phone transfer.');
    expect(asked[1]).toEqual({ role: 'user', content: 'Agent: Hello, this is Acme.\nCaller: I need a person, please.\nAgent: Let me put you through.' });

    const dial = await relayEnded(target, call.id, handedOff(call, after[1]));
    expect(dial.text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        `<Dial action="${PUBLIC}/v1/telephony/twilio/dial-ended?call_id=${call.id}" timeout="30">` +
        `<Number url="${PUBLIC}/v1/telephony/twilio/whisper?call_id=${call.id}">${DESK}</Number></Dial></Response>`,
    );
    const dialing = await read(call.id);
    expect(dialing).toMatchObject({ disconnect_reason: '', transfer: { to: DESK, mode: 'warm', status: 'dialing' } });
    expect(Date.parse(dialing.transfer.started_at)).toBeGreaterThan(Date.now() - 60_000);

    const ran = await twilio.dial(t.url, call.id, dial.text, 'completed');
    expect(ran).toMatchObject({ number: DESK, timeout: '30' });
    expect(ran.whisper).toEqual({ status: 200, twiml: `<?xml version="1.0" encoding="UTF-8"?><Response><Say language="en-US">${SUMMARY}</Say></Response>` });
    expect(ran.action).toEqual({ status: 200, twiml: HANGUP });
    await twilio.status(t.url, call.id, 'completed', { CallDuration: '60' });
    expect(await read(call.id)).toMatchObject({ call_status: 'completed', disconnect_reason: 'call_transfer', transfer: { to: DESK, mode: 'warm', status: 'completed' } });
    const shown = await gqlData(t, 'query($id: ID!) { call(id: $id) { transfer { to mode status startedAt } } }', { id: call.id }, a.key);
    expect(shown.call.transfer).toEqual({ to: DESK, mode: 'WARM', status: 'COMPLETED', startedAt: dialing.transfer.started_at });
  });

  it('brings the agent back when nobody answers: it tells the caller, with the conversation so far, and the call goes on', async () => {
    const { call, relay } = await answered(warm.id);
    const after = await askForAPerson(relay);
    const dial = await relayEnded(target, call.id, handedOff(call, after.at(-1)!));
    relay.close();
    const ran = await twilio.dial(t.url, call.id, dial.text, 'no-answer');
    expect(ran.whisper).toBeNull();
    expect(parametersIn(ran.action.twiml)).toEqual({ call_id: call.id, opening: 'transfer_failed' });
    expect(await read(call.id)).toMatchObject({ call_status: 'in-progress', disconnect_reason: '', resumes: 0, transfer: { mode: 'warm', status: 'no-answer' } });

    const asked = llm.requests.length;
    llm.reply({ text: 'Can I take a message for them?' });
    const back = await FakeRelay.ofTwiml(target, ran.action.twiml, call.call_sid);
    expect((await back.turn()).text).toBe(TRANSFER_FAILED_LINE);
    expect((await back.turn()).text).toBe('Can I take a message for them?');
    expect(llm.conversationRequests(asked)[0].messages.slice(1)).toEqual([
      { role: 'user', content: expect.stringContaining('[The call has been answered.') },
      { role: 'assistant', content: 'Hello, this is Acme.' },
      { role: 'user', content: 'I need a person, please.' },
      { role: 'assistant', content: `Let me put you through. ${TRANSFER_FAILED_LINE}` },
      { role: 'user', content: TRANSFER_FAILED_NOTE },
    ]);

    llm.reply({ text: 'Goodbye.', toolCalls: [{ name: 'end_call', arguments: {} }] });
    back.prompt('No thanks, bye.');
    const bye = await back.turn();
    const end = bye.others.find((m) => m.type === 'end') ?? (await back.next());
    expect((await relayEnded(target, call.id, handedOff(call, end))).text).toBe(HANGUP);
    await twilio.status(t.url, call.id, 'completed', { CallDuration: '70' });
    const ended = await read(call.id);
    expect(ended).toMatchObject({ disconnect_reason: 'agent_hangup', transfer: { status: 'no-answer' } });
    expect(ended.transcript_object.turns.map((turn: { text: string }) => turn.text)).toEqual([
      'Hello, this is Acme.',
      'I need a person, please.',
      'Let me put you through.',
      TRANSFER_FAILED_LINE,
      'Can I take a message for them?',
      'No thanks, bye.',
      'Goodbye.',
    ]);
  });

  it('falls back to the last turns when the model cannot summarise, and whispers them', async () => {
    const { call, relay } = await answered(warm.id);
    const after = await askForAPerson(relay, { status: 400 });
    const summary = 'The agent said: Hello, this is Acme. The caller said: I need a person, please. The agent said: Let me put you through.';
    expect(JSON.parse(after.at(-1)!.handoffData as string).summary).toBe(summary);
    const dial = await relayEnded(target, call.id, handedOff(call, after.at(-1)!));
    expect((await twilio.dial(t.url, call.id, dial.text, 'completed')).whisper!.twiml).toContain(`<Say language="en-US">${summary}</Say>`);
  });

  it("refuses forged whisper and dial callbacks, and another call's sids, and changes nothing", async () => {
    const { call, relay } = await answered(warm.id);
    const dial = await relayEnded(target, call.id, handedOff(call, (await askForAPerson(relay)).at(-1)!));
    const post = (path: string, params: Record<string, string>) =>
      t.request('POST', `${path}?call_id=${call.id}`, {
        raw: new URLSearchParams(params).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'forged' },
      });
    expect((await post('/v1/telephony/twilio/whisper', { CallSid: 'CA1', ParentCallSid: call.call_sid })).status).toBe(403);
    expect((await post('/v1/telephony/twilio/dial-ended', { CallSid: call.call_sid, DialCallStatus: 'completed' })).status).toBe(403);
    const other = await answered(warm.id);
    const wrong = await twilio.dial(t.url, other.call.id, dial.text, 'completed');
    expect(wrong.whisper!.status).toBe(404);
    expect(wrong.action.status).toBe(404);
    expect((await read(call.id)).transfer.status).toBe('dialing');
    other.relay.close();
  });
});

describe('a cold transfer on Twilio', () => {
  it('is dialled at once with its action, records the transfer and call_transfer, and a busy number hangs up', async () => {
    const { call, relay } = await answered(cold.id);
    const after = await askForAPerson(relay, null);
    expect(after).toEqual([{ type: 'end', handoffData: JSON.stringify({ reason: 'call_transfer', transfer_to: DESK }) }]);
    const dial = await relayEnded(target, call.id, handedOff(call, after[0]));
    expect(dial.text).toBe(`<?xml version="1.0" encoding="UTF-8"?><Response><Dial action="${PUBLIC}/v1/telephony/twilio/dial-ended?call_id=${call.id}">${DESK}</Dial></Response>`);
    expect(await read(call.id)).toMatchObject({ disconnect_reason: 'call_transfer', transfer: { to: DESK, mode: 'cold', status: 'dialing' } });
    const ran = await twilio.dial(t.url, call.id, dial.text, 'busy');
    expect(ran).toMatchObject({ whisper: null, action: { twiml: HANGUP } });
    expect((await read(call.id)).transfer.status).toBe('busy');
  });
});

describe('the transfer fields', () => {
  it('are validated on the agent, shown in REST and GraphQL, and only to their company', async () => {
    const refused = await t.request('PATCH', `/v1/ai-agent/${warm.id}`, { token: a.key, body: { transfer_mode: 'lukewarm', hold_audio_url: 'http://cdn.example.com/hold.mp3' } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('Must be one of cold, warm');
    expect(JSON.stringify(refused.body)).toContain('Must be an https URL');
    expect(okData(await t.request('GET', `/v1/ai-agent/${warm.id}`, { token: a.key }))).toMatchObject({ transfer_mode: 'warm', hold_audio_url: HOLD });
    expect(okData(await t.request('GET', `/v1/ai-agent/${cold.id}`, { token: a.key }))).toMatchObject({ transfer_mode: 'cold', hold_audio_url: null });
    const cleared = okData(await t.request('PATCH', `/v1/ai-agent/${warm.id}`, { token: a.key, body: { hold_audio_url: null } }));
    expect(cleared.hold_audio_url).toBeNull();
    expect(await gqlData(t, 'query($id: ID!) { aiAgent(id: $id) { transferMode holdAudioUrl } }', { id: cold.id }, a.key)).toEqual({ aiAgent: { transferMode: 'COLD', holdAudioUrl: null } });
    const update = (input: string) => gql(t, `mutation($id: ID!) { updateAiAgent(id: $id, input: { ${input} }) { transferMode holdAudioUrl } }`, { id: warm.id }, a.key);
    expect((await update('holdAudioUrl: "ftp://cdn.example.com/x.mp3"')).errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect((await update(`transferMode: WARM, holdAudioUrl: "${HOLD}"`)).data).toEqual({ updateAiAgent: { transferMode: 'WARM', holdAudioUrl: HOLD } });

    expect((await t.request('GET', `/v1/ai-agent/${warm.id}`, { token: b.key })).status).toBe(404);
    const calls = okData(await t.request('GET', '/v1/calls?limit=50', { token: a.key }));
    const transferred = calls.items.find((c: { transfer: unknown }) => c.transfer !== null);
    expect((await t.request('GET', `/v1/calls/${transferred.id}`, { token: b.key })).status).toBe(404);
    expect((await gql(t, 'query($id: ID!) { call(id: $id) { transfer { to } } }', { id: transferred.id }, b.key)).data).toEqual({ call: null });
    expect(okData(await t.request('GET', '/v1/calls?limit=50', { token: b.key })).items.every((c: { transfer: unknown }) => c.transfer === null)).toBe(true);
  });
});
