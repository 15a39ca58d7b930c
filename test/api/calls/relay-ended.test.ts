import twilio from 'twilio';
import { createLogger } from '../../../src/logger';
import { relayEnded, type RelayTarget } from '../../support/fake-relay';
import { fakeTwilio, TWILIO_SID as SID, TWILIO_TOKEN as TOKEN, TWILIO_PUBLIC as PUBLIC } from '../../support/fake-twilio';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

let fake: Awaited<ReturnType<typeof fakeTwilio>>;
let t: TestApp;
let a: Tenant;
let target: RelayTarget;
/** Every line the service logs at warn and above. */
const warnings: string[] = [];

/** The one number tenant A's agent may transfer to. */
const DESK = '+14155550100';

beforeAll(async () => {
  fake = await fakeTwilio();
  t = await startTestApp(
    { TELEPHONY_PROVIDER: 'twilio', TWILIO_API_BASE_URL: fake.url, TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, PUBLIC_BASE_URL: PUBLIC },
    { logger: createLogger('warn', { destination: { write: (line: string) => warnings.push(line) } }) },
  );
  a = await tenant(t, 'A');
  okData(await t.request('PATCH', `/v1/ai-agent/${a.agent.id}`, { token: a.key, body: { agent_flow: { transfer_numbers: [DESK] } } }));
  target = { url: t.url, publicBaseUrl: PUBLIC, authToken: TOKEN };
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const read = async (id: string) => okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));

/** A call placed at the fake Twilio and answered (status callbacks as Twilio sends them). */
async function answered() {
  const made = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550123' } }));
  const call = await waitFor('the call to reach Twilio', async () => {
    const c = await read(made.id);
    return c.call_sid ? c : undefined;
  });
  await status(call, 'in-progress');
  return call;
}

async function status(call: { id: string; call_sid: string }, CallStatus: string, extra: Record<string, string> = {}) {
  const path = `/v1/telephony/twilio/status?call_id=${call.id}`;
  const params = { CallSid: call.call_sid, AccountSid: SID, CallStatus, ...extra };
  const res = await t.request('POST', path, {
    raw: new URLSearchParams(params).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(TOKEN, `${PUBLIC}${path}`, params) },
  });
  expect(res.status).toBe(200);
}

/** The action callback's parameters when the relay session ends, as Twilio posts them. */
const ended = (call: { call_sid: string }, handoff?: unknown) => ({
  AccountSid: SID,
  CallSid: call.call_sid,
  CallStatus: 'in-progress',
  SessionId: 'VX00000000000000000000000000000001',
  SessionStatus: handoff ? 'completed' : 'failed',
  SessionDuration: '12',
  ...(handoff === undefined ? {} : { HandoffData: typeof handoff === 'string' ? handoff : JSON.stringify(handoff) }),
});

const HANGUP = '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>';

describe('the relay action callback', () => {
  it('dials the transfer number and records call_transfer once the call completes', async () => {
    const call = await answered();
    const res = await relayEnded(target, call.id, ended(call, { reason: 'call_transfer', transfer_to: DESK }));
    expect(res).toEqual({
      status: 200,
      type: 'text/xml; charset=utf-8',
      text: `<?xml version="1.0" encoding="UTF-8"?><Response><Dial action="${PUBLIC}/v1/telephony/twilio/dial-ended?call_id=${call.id}">${DESK}</Dial></Response>`,
    });
    expect((await read(call.id)).transfer).toMatchObject({ to: DESK, mode: 'cold', status: 'dialing' });
    expect((await read(call.id)).call_status).toBe('in-progress');
    await status(call, 'completed', { CallDuration: '30' });
    expect(await read(call.id)).toMatchObject({ call_status: 'completed', disconnect_reason: 'call_transfer' });
  });

  it("hangs up, and logs a warning, a transfer to a number the call's agent does not allow", async () => {
    const call = await answered();
    const res = await relayEnded(target, call.id, ended(call, { reason: 'call_transfer', transfer_to: '+19005550123' }));
    expect(res).toEqual({ status: 200, type: 'text/xml; charset=utf-8', text: HANGUP });
    const warning = warnings.map((line) => JSON.parse(line)).find((w) => w.callId === call.id);
    expect(warning).toMatchObject({ level: 40, transferTo: '+19005550123', msg: expect.stringContaining('does not allow') });
    await status(call, 'completed', { CallDuration: '4' });
    expect(await read(call.id)).toMatchObject({ call_status: 'completed', disconnect_reason: 'completed' });
  });

  it("records the reason when Twilio's completed status came first", async () => {
    const call = await answered();
    await status(call, 'completed', { CallDuration: '20' });
    expect((await read(call.id)).disconnect_reason).toBe('completed');
    expect((await relayEnded(target, call.id, ended(call, { reason: 'agent_hangup' }))).text).toBe(HANGUP);
    expect(await read(call.id)).toMatchObject({ call_status: 'completed', disconnect_reason: 'agent_hangup' });
  });

  it('keeps the reason recorded while live when the call completes (llm_error)', async () => {
    const call = await answered();
    expect((await relayEnded(target, call.id, ended(call, { reason: 'llm_error' }))).text).toBe(HANGUP);
    await status(call, 'completed', { CallDuration: '5' });
    expect(await read(call.id)).toMatchObject({ call_status: 'completed', disconnect_reason: 'llm_error' });
  });

  it('hangs up a session that ended without our handoff while the callee was on the line (a dropped relay), and says so', async () => {
    const call = await answered();
    expect((await relayEnded(target, call.id, ended(call))).text).toBe(HANGUP);
    expect((await relayEnded(target, call.id, ended(call, '{"reason":"teleported"'))).text).toBe(HANGUP);
    expect((await relayEnded(target, call.id, ended(call, { reason: 'call_transfer', transfer_to: 'not a number' }))).text).toBe(HANGUP);
    await status(call, 'completed', { CallDuration: '7' });
    expect(await read(call.id)).toMatchObject({ call_status: 'completed', disconnect_reason: 'relay_dropped' });
  });

  it('records user_hangup for a session without our handoff that ended because the callee hung up, whichever callback comes first', async () => {
    const statusFirst = await answered();
    await status(statusFirst, 'completed', { CallDuration: '4' });
    expect((await read(statusFirst.id)).disconnect_reason).toBe('completed');
    expect((await relayEnded(target, statusFirst.id, { ...ended(statusFirst), CallStatus: 'completed', SessionStatus: 'ended' })).text).toBe(HANGUP);
    expect(await read(statusFirst.id)).toMatchObject({ call_status: 'completed', disconnect_reason: 'user_hangup' });

    const actionFirst = await answered();
    expect((await relayEnded(target, actionFirst.id, { ...ended(actionFirst), CallStatus: 'completed', SessionStatus: 'ended' })).text).toBe(HANGUP);
    await status(actionFirst, 'completed', { CallDuration: '6' });
    expect(await read(actionFirst.id)).toMatchObject({ call_status: 'completed', disconnect_reason: 'user_hangup', call_duration: 6 });
  });

  it("keeps the reason of an end of ours when the session's callback says the call completed", async () => {
    const call = await answered();
    okData(await t.request('POST', `/v1/calls/${call.id}/cancel`, { token: a.key }));
    await relayEnded(target, call.id, { ...ended(call), CallStatus: 'completed', SessionStatus: 'ended' });
    expect((await read(call.id)).disconnect_reason).toBe('canceled');
  });

  it('does not overwrite a specific reason of a completed call', async () => {
    const call = await answered();
    await status(call, 'completed', { CallDuration: '9', AnsweredBy: 'machine_end_beep' });
    await relayEnded(target, call.id, ended(call, { reason: 'max_silence' }));
    expect((await read(call.id)).disconnect_reason).toBe('voicemail_reached');
  });

  it("refuses forged callbacks and another call's sid, and changes nothing", async () => {
    const call = await answered();
    const other = await answered();
    const forged = await relayEnded(target, call.id, ended(call, { reason: 'agent_hangup' }), 'not-the-token');
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.text)).toEqual({ status: 'error', message: 'Invalid Twilio signature', data: '' });
    expect((await relayEnded(target, call.id, ended(other, { reason: 'agent_hangup' }))).status).toBe(404);
    await status(call, 'completed', { CallDuration: '3' });
    expect((await read(call.id)).disconnect_reason).toBe('completed');
  });
});
