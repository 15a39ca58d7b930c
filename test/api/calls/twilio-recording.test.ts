import { silentWav } from '../../../src/services/telephony/wav';
import { ManualClock } from '../../support/clock';
import { type FakeTwilio, fakeTwilio, TWILIO_PUBLIC as PUBLIC, TWILIO_SID as SID, TWILIO_TOKEN as TOKEN } from '../../support/fake-twilio';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

let fake: FakeTwilio;
let t: TestApp;
let a: Tenant;
let b: Tenant;
// Starts at the real time: work the service schedules from its clock (a call placed again by the
// sweep, a job's start) must come due as it would; only the retention test moves it on.
const clock = new ManualClock(new Date());

beforeAll(async () => {
  fake = await fakeTwilio();
  t = await startTestApp(
    { TELEPHONY_PROVIDER: 'twilio', TWILIO_API_BASE_URL: fake.url, TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, PUBLIC_BASE_URL: PUBLIC, RECORDING_RETENTION_DAYS: '30' },
    { clock },
  );
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const read = async (id: string) => okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));
const audio = (id: string, key: string, headers: Record<string, string> = {}) => fetch(`${t.url}/v1/calls/${id}/recording`, { headers: { authorization: `Bearer ${key}`, ...headers } });

async function placed(recording: string) {
  const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: `Recorder ${recording}`, call_recording: recording } }));
  const made = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: agent.id, call_from: FROM, call_to: '+14155550123' } }));
  return waitFor('the call to reach Twilio', async () => {
    const c = await read(made.id);
    return c.call_sid ? (c as { id: string; call_sid: string }) : undefined;
  });
}

describe('call recordings on Twilio', () => {
  it('asks Twilio to record as the agent says, with a signed recording callback on our route', async () => {
    const call = await placed('dual');
    const create = fake.created(call.id);
    expect(create.form.get('Record')).toBe('true');
    expect(create.form.get('RecordingChannels')).toBe('dual');
    expect(create.form.get('RecordingStatusCallback')).toBe(`${PUBLIC}/v1/telephony/twilio/recording?call_id=${call.id}`);
    expect(create.form.get('RecordingStatusCallbackEvent')).toBe('completed');
    expect(fake.created((await placed('off')).id).form.get('Record')).toBeNull();
  });

  it("serves the completed recording to the call's company only, fetched with the platform's credentials, ranges included", async () => {
    const call = await placed('mono');
    const media = silentWav(3);
    const { sid, res } = await fake.completeRecording(t.url, call.id, media, 3);
    expect(res.status).toBe(200);
    expect((await read(call.id)).record_url).toBe(`${PUBLIC}/v1/calls/${call.id}/recording`);

    const whole = await audio(call.id, a.key);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(media)).toBe(true);
    const fetched = fake.received.filter((r) => r.path === `/2010-04-01/Accounts/${SID}/Recordings/${sid}.wav`);
    expect(fetched.at(-1)!.auth).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);

    const part = await audio(call.id, a.key, { range: 'bytes=0-3' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-3/${media.length}`);
    expect(Buffer.from(await part.arrayBuffer()).toString('ascii')).toBe('RIFF');
    expect((await audio(call.id, a.key, { range: `bytes=${media.length}-` })).status).toBe(416);

    const foreign = await audio(call.id, b.key);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ status: 'error' });
    expect((await fetch(`${t.url}/v1/calls/${call.id}/recording`)).status).toBe(401);
    const none = await placed('off');
    expect((await audio(none.id, a.key)).status).toBe(404);
  });

  it('deletes recordings past RECORDING_RETENTION_DAYS at Twilio and clears record_url', async () => {
    const call = await placed('mono');
    const { sid } = await fake.completeRecording(t.url, call.id, silentWav(1), 1);
    await t.app.services.recordings.sweep();
    expect(fake.recordings.has(sid)).toBe(true);
    clock.advance(31 * 86_400_000);
    await t.app.services.recordings.sweep();
    await waitFor('the recording deleted', async () => ((await read(call.id)).record_url === null ? true : undefined));
    expect(fake.recordings.has(sid)).toBe(false);
    expect(fake.received.some((r) => r.method === 'DELETE' && r.path === `/2010-04-01/Accounts/${SID}/Recordings/${sid}.json`)).toBe(true);
    expect((await audio(call.id, a.key)).status).toBe(404);
  });
});
