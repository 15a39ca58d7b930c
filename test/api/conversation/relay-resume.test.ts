import { CALL_ANSWERED_NOTE } from '../../../src/services/conversation/chat-history';
import { RESUMED_LINE, RESUMED_NOTE } from '../../../src/services/conversation/resumption';
import { mintRelayToken } from '../../../src/services/telephony/relay-token';
import type { FakeLlm } from '../../support/fake-llm';
import { FakeRelay, parametersIn, RefusedHandshake, relayEnded, type RelayTarget, sessionTokenIn } from '../../support/fake-relay';
import { type FakeTwilio, TWILIO_SID as SID, TWILIO_TOKEN as TOKEN, TWILIO_PUBLIC as PUBLIC } from '../../support/fake-twilio';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import { gql, gqlData } from '../graphql/graphql-client';
import { answeredOnTwilio, twilioConversations } from './support';

// A relay session that drops (its replica died) is resumed by the action callback, on any
// replica: a new <Connect><ConversationRelay> of the same call, whose conversation goes on from
// the stored turns (docs/calls.md, "A call that survives its replica"). The slow suite kills the
// replica holding the socket; here the socket is closed and Twilio's callback posted.

const HANGUP = '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>';

let env: Awaited<ReturnType<typeof twilioConversations>>;
let twilio: FakeTwilio;
let llm: FakeLlm;
let t: TestApp;
let a: Tenant;
let b: Tenant;
let target: RelayTarget;

beforeAll(async () => {
  env = await twilioConversations();
  ({ twilio, llm, t, target } = env);
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
});
afterAll(() => env.close());

const read = async (id: string) => okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));

/** A call placed at the fake Twilio and answered. */
const answered = () => answeredOnTwilio(t, twilio, a.key, { ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550123' });

/** The TwiML the call was created with. */
const twimlOf = (call: { id: string }) => twilio.created(call.id).form.get('Twiml')!;

/** The action callback of a session that ended without our handoff while the callee is on the line, as Twilio posts it. */
const dropped = (call: { id: string; call_sid: string }) =>
  relayEnded(target, call.id, { AccountSid: SID, CallSid: call.call_sid, CallStatus: 'in-progress', SessionId: 'VX00000000000000000000000000000001', SessionStatus: 'failed', SessionDuration: '9' });

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 0,
    (err: unknown) => (err instanceof RefusedHandshake ? err.status : -1),
  );

const turnsOf = async (id: string) => ((await read(id)).transcript_object?.turns ?? []).map((turn: { role: string; text: string }) => [turn.role, turn.text]);

describe('a Twilio call whose relay session drops', () => {
  it('is resumed with its history: the agent says it lost the caller, its first model request carries the stored turns, and the transcript keeps them', async () => {
    const call = await answered();
    llm.reply({ text: 'Hello, this is Acme.' });
    const first = await FakeRelay.ofTwiml(target, twimlOf(call), call.call_sid);
    expect((await first.turn()).text).toBe('Hello, this is Acme.');
    llm.reply({ text: 'Your order ships tomorrow.' });
    first.prompt('When does my order ship?');
    expect((await first.turn()).text).toBe('Your order ships tomorrow.');
    await waitFor('three turns stored', async () => ((await turnsOf(call.id)).length === 3 ? true : undefined));
    first.close();
    await first.closed();

    const resumed = await dropped(call);
    expect(resumed).toMatchObject({ status: 200, type: 'text/xml; charset=utf-8' });
    expect(resumed.text).toContain(`<Connect action="${PUBLIC}/v1/telephony/twilio/relay-ended?call_id=${call.id}">`);
    expect(parametersIn(resumed.text)).toEqual({ call_id: call.id, opening: 'resumed' });
    expect(sessionTokenIn(resumed.text)).not.toBe(sessionTokenIn(twimlOf(call)));
    expect((await read(call.id)).resumes).toBe(1);
    expect(await gqlData(t, 'query($id: ID!) { call(id: $id) { resumes } }', { id: call.id }, a.key)).toEqual({ call: { resumes: 1 } });

    const asked = llm.requests.length;
    llm.reply({ text: 'As I was saying, it ships tomorrow.' });
    const second = await FakeRelay.ofTwiml(target, resumed.text, call.call_sid);
    expect((await second.turn()).text).toBe(RESUMED_LINE);
    expect((await second.turn()).text).toBe('As I was saying, it ships tomorrow.');
    expect(llm.conversationRequests(asked)[0].messages.filter((m: { role: string }) => m.role !== 'system')).toEqual([
      { role: 'user', content: CALL_ANSWERED_NOTE },
      { role: 'assistant', content: 'Hello, this is Acme.' },
      { role: 'user', content: 'When does my order ship?' },
      { role: 'assistant', content: `Your order ships tomorrow. ${RESUMED_LINE}` },
      { role: 'user', content: RESUMED_NOTE },
    ]);
    await waitFor('the transcript of both sessions', async () => ((await turnsOf(call.id)).length === 5 ? true : undefined));
    expect(await turnsOf(call.id)).toEqual([
      ['agent', 'Hello, this is Acme.'],
      ['user', 'When does my order ship?'],
      ['agent', 'Your order ships tomorrow.'],
      ['agent', RESUMED_LINE],
      ['agent', 'As I was saying, it ships tomorrow.'],
    ]);

    llm.reply({ text: 'You are welcome.' });
    second.prompt('Thanks.');
    expect((await second.turn()).text).toBe('You are welcome.');
    await waitFor("the next turns stored after the first session's", async () => ((await turnsOf(call.id)).length === 7 ? true : undefined));
    second.close();
  });

  it("refuses a replay of the dropped session's URL, and opens only one new session", async () => {
    const call = await answered();
    llm.reply({ text: 'Hello, this is Acme.' });
    const first = await FakeRelay.ofTwiml(target, twimlOf(call), call.call_sid);
    await first.turn();
    first.close();
    await first.closed();
    const resumed = await dropped(call);
    expect(await refusal(FakeRelay.connect(target, TOKEN, sessionTokenIn(twimlOf(call))))).toBe(403);

    llm.reply({ text: 'Where were we?' });
    const second = await FakeRelay.ofTwiml(target, resumed.text, call.call_sid);
    expect((await second.turn()).text).toBe(RESUMED_LINE);
    expect(await refusal(FakeRelay.connect(target, TOKEN, sessionTokenIn(resumed.text)))).toBe(403);
    expect(await refusal(FakeRelay.connect(target, TOKEN, mintRelayToken(TOKEN, call.id, new Date())))).toBe(403);
    expect(await refusal(FakeRelay.connect(target, TOKEN, sessionTokenIn(twimlOf(call))))).toBe(403);
    second.close();
  });

  it('is resumed at most three times: the fourth drop hangs up and the call ends with provider_error', async () => {
    const call = await answered();
    for (let resume = 1; resume <= 3; resume++) {
      expect(parametersIn((await dropped(call)).text).opening).toBe('resumed');
      expect((await read(call.id)).resumes).toBe(resume);
    }
    expect((await dropped(call)).text).toBe(HANGUP);
    await twilio.status(t.url, call.id, 'completed', { CallDuration: '40' });
    expect(await read(call.id)).toMatchObject({ call_status: 'completed', disconnect_reason: 'provider_error', resumes: 3 });
  });

  it('is not resumed when the caller hung up, and its resumes are shown to its company only', async () => {
    const call = await answered();
    const { action } = await twilio.calleeHangsUp(t.url, call.id, 6);
    expect(await action.text()).toBe(HANGUP);
    expect(await read(call.id)).toMatchObject({ disconnect_reason: 'user_hangup', resumes: 0 });
    expect((await t.request('GET', `/v1/calls/${call.id}`, { token: b.key })).status).toBe(404);
    expect((await gql(t, 'query($id: ID!) { call(id: $id) { resumes } }', { id: call.id }, b.key)).data).toEqual({ call: null });
  });
});
