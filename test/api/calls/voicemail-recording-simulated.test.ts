import { type Tenant, FROM, okData, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import { gqlData } from '../graphql/graphql-client';

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await startTestApp({ SIM_RING_MS: '50', SIM_TALK_MS: '1000' });
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
});
afterAll(() => t.close());

const agentWith = async (fields: Record<string, unknown>) => okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Sim agent', ...fields } }));
const ended = async (agentId: string, to: string) => {
  const made = okData(
    await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: agentId, call_from: FROM, call_to: to, dynamic_variables: [{ name: 'firstname', value: 'Ada' }] } }),
  );
  return waitFor('the call to end', async () => {
    const c = okData(await t.request('GET', `/v1/calls/${made.id}`, { token: a.key }));
    return c.call_status === 'completed' ? c : undefined;
  });
};
const audio = (id: string, key: string, headers: Record<string, string> = {}) => fetch(`${t.url}/v1/calls/${id}/recording`, { headers: { authorization: `Bearer ${key}`, ...headers } });

describe('the simulated provider on answering machines and recordings', () => {
  it('validates the new agent fields and shows them on both surfaces', async () => {
    const bad = await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'X', voicemail_action: 'shout', call_recording: 'stereo' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/voicemail_action/);
    expect(JSON.stringify(bad.body)).toMatch(/call_recording/);
    const agent = await agentWith({ voicemail_action: 'leave_message', voicemail_message: 'Call us back.', call_recording: 'dual', opening_disclosure: 'This call is recorded.' });
    expect(agent).toMatchObject({ voicemail_action: 'leave_message', voicemail_message: 'Call us back.', call_recording: 'dual', opening_disclosure: 'This call is recorded.' });
    expect(okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Defaults' } }))).toMatchObject({
      voicemail_action: 'hangup',
      voicemail_message: '',
      call_recording: 'off',
      opening_disclosure: '',
    });
    const res = await gqlData(t, `query ($id: ID!) { aiAgent(id: $id) { voicemailAction voicemailMessage callRecording openingDisclosure } }`, { id: agent.id }, a.key);
    expect(res.aiAgent).toEqual({ voicemailAction: 'LEAVE_MESSAGE', voicemailMessage: 'Call us back.', callRecording: 'DUAL', openingDisclosure: 'This call is recorded.' });
  });

  it('reaches voicemail on numbers ending 0004: answered_by machine, and the message as the one agent turn under leave_message', async () => {
    const leaving = await agentWith({ voicemail_action: 'leave_message', voicemail_message: 'Hi {{firstname}}, please call Acme back.' });
    const left = await ended(leaving.id, '+14155550004');
    expect(left).toMatchObject({ answered_by: 'machine', disconnect_reason: 'voicemail_reached' });
    expect(left.transcript_object.turns.map((turn: { role: string; text: string }) => [turn.role, turn.text])).toEqual([['agent', 'Hi Ada, please call Acme back.']]);

    const hanging = await ended(a.agent.id, '+14155550004');
    expect(hanging).toMatchObject({ answered_by: 'machine', disconnect_reason: 'voicemail_reached', transcript: null });
    const person = await ended(a.agent.id, '+14155550123');
    expect(person).toMatchObject({ answered_by: 'human', disconnect_reason: 'agent_hangup' });
  });

  it('records as the agent says: a WAV as long as the call, served to the company only, ranges included', async () => {
    const recording = await agentWith({ call_recording: 'mono' });
    const call = await ended(recording.id, '+14155550123');
    const url = await waitFor('the recording kept', async () => (okData(await t.request('GET', `/v1/calls/${call.id}`, { token: a.key })).record_url as string | null) ?? undefined);
    expect(url).toMatch(new RegExp(`/v1/calls/${call.id}/recording$`));
    const whole = await audio(call.id, a.key);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/wav');
    const wav = Buffer.from(await whole.arrayBuffer());
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.subarray(8, 12).toString('ascii')).toBe('WAVE');
    expect(wav.length).toBe(44 + call.call_duration * 16_000);
    const tail = await audio(call.id, a.key, { range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes ${wav.length - 10}-${wav.length - 1}/${wav.length}`);
    expect((await audio(call.id, b.key)).status).toBe(404);
    const unrecorded = await ended(a.agent.id, '+14155550123');
    expect(unrecorded.record_url).toBeNull();
  });
});
