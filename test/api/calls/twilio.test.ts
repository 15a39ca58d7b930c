import twilio from 'twilio';
import { fakeTwilio, TWILIO_SID as SID, TWILIO_TOKEN as TOKEN, TWILIO_PUBLIC as PUBLIC, twilioProviderEnv } from '../../support/fake-twilio';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

let fake: Awaited<ReturnType<typeof fakeTwilio>>;
let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  fake = await fakeTwilio();
  t = await startTestApp(twilioProviderEnv(fake));
  a = await tenant(t, 'A');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** Posts a status callback as Twilio would, signed with `token` for the public URL. */
async function callback(callId: string, params: Record<string, string>, token = TOKEN) {
  const path = `/v1/telephony/twilio/status?call_id=${callId}`;
  const signature = twilio.getExpectedTwilioSignature(token, `${PUBLIC}${path}`, params);
  return t.request('POST', path, {
    raw: new URLSearchParams(params).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
  });
}

async function placed() {
  const call = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550123' } }));
  return waitFor('the call to be created at Twilio', async () => {
    const c = okData(await t.request('GET', `/v1/calls/${call.id}`, { token: a.key }));
    return c.call_sid ? c : undefined;
  });
}

const read = async (id: string) => okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));

describe('the Twilio-compatible provider', () => {
  it('creates the call through the Calls API with a status callback on our route', async () => {
    const call = await placed();
    expect(call.call_provider).toBe('twilio');
    const create = fake.received.find((r) => r.form.get('To') === '+14155550123' && r.path.endsWith('/Calls.json'))!;
    expect(create.path).toBe(`/2010-04-01/Accounts/${SID}/Calls.json`);
    expect(create.auth).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(create.form.get('From')).toBe(FROM);
    expect(create.form.get('StatusCallback')).toBe(`${PUBLIC}/v1/telephony/twilio/status?call_id=${call.id}`);
    expect(create.form.getAll('StatusCallbackEvent')).toEqual(['initiated', 'ringing', 'answered', 'completed']);
    expect(call.call_sid).toMatch(/^CA\d{32}$/);
  });

  it('applies signed callbacks in order and ignores duplicates and stale ones', async () => {
    const call = await placed();
    const base = { CallSid: call.call_sid, AccountSid: SID };
    expect((await callback(call.id, { ...base, CallStatus: 'initiated' })).status).toBe(200);
    expect((await read(call.id)).call_status).toBe('pstn-queued');
    await callback(call.id, { ...base, CallStatus: 'ringing' });
    expect((await read(call.id)).call_status).toBe('ringing');
    await callback(call.id, { ...base, CallStatus: 'in-progress' });
    await callback(call.id, { ...base, CallStatus: 'completed', CallDuration: '42' });
    const done = await read(call.id);
    expect(done).toMatchObject({ call_status: 'completed', call_duration: 42, cost: 0.035 });
    await callback(call.id, { ...base, CallStatus: 'completed', CallDuration: '99' });
    await callback(call.id, { ...base, CallStatus: 'ringing' });
    expect(await read(call.id)).toEqual(done);
  });

  it('refuses a forged signature with 403 and changes nothing', async () => {
    const call = await placed();
    const forged = await callback(call.id, { CallSid: call.call_sid, CallStatus: 'busy' }, 'not-the-token');
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({ status: 'error', message: 'Invalid Twilio signature', data: '' });
    const unsigned = await t.request('POST', `/v1/telephony/twilio/status?call_id=${call.id}`, {
      raw: `CallSid=${call.call_sid}&CallStatus=busy`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(unsigned.status).toBe(403);
    expect((await read(call.id)).call_status).toBe('pstn-queued');
  });

  it("refuses a signed callback naming another call's sid", async () => {
    const one = await placed();
    const two = await placed();
    const res = await callback(one.id, { CallSid: two.call_sid, CallStatus: 'busy' });
    expect(res.status).toBe(404);
    expect((await read(one.id)).call_status).toBe('pstn-queued');
  });

  it('cancels a ringing call at Twilio', async () => {
    const call = await placed();
    await callback(call.id, { CallSid: call.call_sid, CallStatus: 'ringing' });
    const canceled = okData(await t.request('POST', `/v1/calls/${call.id}/cancel`, { token: a.key }));
    expect(canceled.call_status).toBe('canceled');
    const cancel = fake.received.find((r) => r.path.endsWith(`/Calls/${call.call_sid}.json`))!;
    expect(cancel.form.get('Status')).toBe('canceled');
  });
});
