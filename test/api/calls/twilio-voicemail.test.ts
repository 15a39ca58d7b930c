import twilio from 'twilio';
import { CALL_SCREENING_RULE } from '../../../src/services/conversation/agent-settings';
import { FakeLlm } from '../../support/fake-llm';
import { FakeRelay, relayEnded, type RelayTarget, sessionTokenIn } from '../../support/fake-relay';
import { type FakeTwilio, TWILIO_PUBLIC as PUBLIC, TWILIO_SID as SID, TWILIO_TOKEN as TOKEN } from '../../support/fake-twilio';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { twilioConversations } from '../conversation/support';
import { waitFor } from '../../support/wait';

let env: Awaited<ReturnType<typeof twilioConversations>>;
let fake: FakeTwilio;
let llm: FakeLlm;
let t: TestApp;
let a: Tenant;
let target: RelayTarget;

beforeAll(async () => {
  env = await twilioConversations();
  ({ twilio: fake, llm, t, target } = env);
  a = await tenant(t, 'A');
});
afterAll(() => env.close());

const read = async (id: string) => okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));
const agentWith = async (fields: Record<string, unknown>) =>
  okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Voicemail agent', prompt: 'Call {{firstname}}.', ...fields } }));

/** Posts a status callback as Twilio would, signed for the public URL. */
async function status(call: { id: string; call_sid: string }, params: Record<string, string>) {
  const path = `/v1/telephony/twilio/status?call_id=${call.id}`;
  const form = { CallSid: call.call_sid, AccountSid: SID, ...params };
  await t.request('POST', path, {
    raw: new URLSearchParams(form).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(TOKEN, `${PUBLIC}${path}`, form) },
  });
}

/** A call of `agentId` placed at the fake Twilio, answered, its relay connected and its greeting read. */
async function answered(agentId: string, greeting = 'Hello, this is Acme.') {
  const made = okData(
    await t.request('POST', '/v1/calls/make-call', {
      token: a.key,
      body: { ai_agent_id: agentId, call_from: FROM, call_to: '+14155550123', dynamic_variables: [{ name: 'firstname', value: 'Ada' }] },
    }),
  );
  const call = (await waitFor('the call to reach Twilio', async () => {
    const c = await read(made.id);
    return c.call_sid ? c : undefined;
  })) as { id: string; call_sid: string };
  await status(call, { CallStatus: 'in-progress' });
  llm.reply({ text: greeting });
  // As Twilio opens it: the relay URL of the call's TwiML, with its session token.
  const relay = await FakeRelay.connect(target, TOKEN, sessionTokenIn(fake.created(call.id).form.get('Twiml')!));
  relay.setup(call.id, call.call_sid);
  return { call, relay };
}

const hangups = (call: { call_sid: string }) => fake.received.filter((r) => r.path.endsWith(`/Calls/${call.call_sid}.json`) && r.form.get('Status') === 'completed');

describe('answering machines on Twilio', () => {
  it('creates calls with asynchronous DetectMessageEnd detection and a signed AMD callback on our route', async () => {
    const { call, relay } = await answered(a.agent.id);
    const create = fake.created(call.id);
    expect(create.form.get('MachineDetection')).toBe('DetectMessageEnd');
    expect(create.form.get('AsyncAmd')).toBe('true');
    expect(create.form.get('AsyncAmdStatusCallback')).toBe(`${PUBLIC}/v1/telephony/twilio/amd?call_id=${call.id}`);
    expect(create.form.get('Record')).toBeNull();
    await relay.turn();
    relay.close();
  });

  it('hangs up at once on a machine under hangup (the default), and the call ends voicemail_reached', async () => {
    const { call, relay } = await answered(a.agent.id);
    expect((await relay.turn()).text).toBe('Hello, this is Acme.');
    expect((await fake.amd(t.url, call.id, 'machine_end_beep')).status).toBe(200);
    expect(hangups(call)).toHaveLength(1);
    expect((await read(call.id)).answered_by).toBe('machine');
    await status(call, { CallStatus: 'completed', CallDuration: '9', AnsweredBy: 'machine_end_beep' });
    expect(await read(call.id)).toMatchObject({ call_status: 'completed', answered_by: 'machine', disconnect_reason: 'voicemail_reached' });
    relay.close();
  });

  it('waits through the greeting, then leaves the message, not interruptible, and ends the session once spoken', async () => {
    const agent = await agentWith({ voicemail_action: 'leave_message', voicemail_message: 'Hi {{firstname}}, this is Acme. Please call us back.' });
    const { call, relay } = await answered(agent.id);
    expect((await relay.turn()).text).toBe('Hello, this is Acme.');
    expect((await fake.amd(t.url, call.id, 'machine_start')).status).toBe(200);
    // The greeting's words may reach the session before the verdict does (Twilio's AMD is
    // asynchronous, and so is the bus that brings it): a turn they started is cut before the
    // model's answer (a model taking 3 s here), so the message is the next thing heard, and
    // nothing is asked of the model once it is left.
    llm.fallback = { text: 'Sorry, who is this?', firstTokenDelayMs: 3000 };
    relay.prompt("Hi, you've reached Ada, leave a message after the tone.");
    expect((await fake.amd(t.url, call.id, 'machine_end_beep')).status).toBe(200);
    const message = await relay.next();
    llm.fallback = {};
    expect(message).toEqual({ type: 'text', token: 'Hi Ada, this is Acme. Please call us back.', last: true, interruptible: false, preemptible: false });
    const requests = llm.requests.length;
    const sentAt = relay.receivedAt.at(-1)!;
    const end = await relay.next();
    expect(end.type).toBe('end');
    expect(JSON.parse(end.handoffData as string)).toEqual({ reason: 'voicemail_reached' });
    // Sent once the message has had time to be spoken (about 15 characters a second).
    expect(relay.receivedAt.at(-1)! - sentAt).toBeGreaterThanOrEqual(2000);
    expect(llm.requests.length).toBe(requests);
    expect(hangups(call)).toHaveLength(0);
    const res = await relayEnded(target, call.id, { AccountSid: SID, CallSid: call.call_sid, CallStatus: 'in-progress', SessionStatus: 'completed', HandoffData: end.handoffData as string });
    expect(res.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>');
    await status(call, { CallStatus: 'completed', CallDuration: '14', AnsweredBy: 'machine_end_beep' });
    const done = await read(call.id);
    expect(done).toMatchObject({ answered_by: 'machine', disconnect_reason: 'voicemail_reached' });
    expect(done.transcript_object.turns.at(-1)).toMatchObject({ role: 'agent', text: 'Hi Ada, this is Acme. Please call us back.' });
  });

  it('carries on with a person, and records who answered', async () => {
    const { call, relay } = await answered(a.agent.id);
    await relay.turn();
    expect((await fake.amd(t.url, call.id, 'human')).status).toBe(200);
    llm.reply({ text: 'Great, thanks.' });
    relay.prompt('Yes, speaking.');
    expect((await relay.turn()).text).toBe('Great, thanks.');
    expect((await read(call.id)).answered_by).toBe('human');
    expect(hangups(call)).toHaveLength(0);
    expect(llm.conversationRequests().at(-1)!.messages[0].content).toContain(CALL_SCREENING_RULE);
    relay.close();
  });

  it('ends a fax at once, and talks on to a machine under continue', async () => {
    const fax = await answered(a.agent.id);
    await fax.relay.turn();
    await fake.amd(t.url, fax.call.id, 'fax');
    expect(hangups(fax.call)).toHaveLength(1);
    expect((await read(fax.call.id)).answered_by).toBe('fax');
    fax.relay.close();

    const agent = await agentWith({ voicemail_action: 'continue' });
    const talking = await answered(agent.id);
    await talking.relay.turn();
    await fake.amd(t.url, talking.call.id, 'machine_end_silence');
    llm.reply({ text: 'I will call back later.' });
    talking.relay.prompt('Please leave a message.');
    expect((await talking.relay.turn()).text).toBe('I will call back later.');
    expect(hangups(talking.call)).toHaveLength(0);
    expect((await read(talking.call.id)).answered_by).toBe('machine');
    talking.relay.close();
  });

  it('refuses a forged AMD callback with 403 and stores nothing', async () => {
    const { call, relay } = await answered(a.agent.id);
    await relay.turn();
    expect((await fake.amd(t.url, call.id, 'machine_end_beep', 'not-the-token')).status).toBe(403);
    expect((await read(call.id)).answered_by).toBeNull();
    expect(hangups(call)).toHaveLength(0);
    relay.close();
  });

  it('says the opening disclosure first, not interruptible, then the greeting', async () => {
    const agent = await agentWith({ opening_disclosure: 'This call is recorded.' });
    const { call, relay } = await answered(agent.id);
    expect(await relay.next()).toEqual({ type: 'text', token: 'This call is recorded.', last: true, interruptible: false, preemptible: false });
    expect((await relay.turn()).text).toBe('Hello, this is Acme.');
    expect(llm.conversationRequests().at(-1)!.messages[0].content).toContain('This call is recorded.');
    await waitFor('both turns stored', async () => ((await read(call.id)).transcript === 'Agent: This call is recorded.\nAgent: Hello, this is Acme.' ? true : undefined));
    relay.close();
  });
});
