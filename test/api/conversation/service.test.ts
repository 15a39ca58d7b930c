import { subscribe, wsClient } from '../graphql/graphql-client';
import { FakeLlm } from '../../support/fake-llm';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import { RecordingSink } from './support';

let llm: FakeLlm;
let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  llm = await FakeLlm.start();
  t = await startTestApp({ SIM_RING_MS: '0', SIM_TALK_MS: '600000', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_TIMEOUT_MS: '2000' });
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

const post = (who: Tenant, path: string, body: unknown) => t.request('POST', path, { token: who.key, body }).then(okData);
const getCall = (who: Tenant, id: string) => t.request('GET', `/v1/calls/${id}`, { token: who.key }).then(okData);

/** A live call of A's agent that talks `whoTalksFirst`, answered by the simulated callee. */
async function liveCall(whoTalksFirst: string) {
  const agent = await post(a, '/v1/ai-agent', { name: 'Ava', prompt: 'You are Ava. The callee is {{firstname}}.', who_talks_first: whoTalksFirst, language: 'en-GB' });
  const call = await post(a, '/v1/calls/make-call', { ai_agent_id: agent.id, call_from: FROM, call_to: '+14155550123', dynamic_variables: [{ name: 'firstname', value: 'Ada' }] });
  await waitFor('the call to be answered', async () => ((await getCall(a, call.id)).call_status === 'in-progress' ? true : undefined));
  return call.id as string;
}

describe('a live call with its agent', () => {
  it('stores each turn on the call as it happens and publishes it to subscribers', async () => {
    const callId = await liveCall('user');
    const client = wsClient(t, a.key);
    const sub = await subscribe(client, `subscription($id: ID!) { callStatusChanged(callId: $id) { transcript transcriptTurns { role text at latencyMs } latency transcriptLanguage } }`, {
      id: callId,
    });
    const sink = new RecordingSink();
    const conversation = (await t.app.services.conversations!.open(callId, sink))!;
    await conversation.start();

    llm.reply({ text: 'Hi Ada, this is Ava.', firstTokenDelayMs: 120 });
    await conversation.userSaid('Hello?', true);
    const seen = [(await sub.next()).callStatusChanged, (await sub.next()).callStatusChanged];
    expect(seen[0].transcript).toBe('User: Hello?');
    expect(seen[1].transcript).toBe('User: Hello?\nAgent: Hi Ada, this is Ava.');
    expect(seen[1].transcriptTurns).toEqual([
      { role: 'user', text: 'Hello?', at: expect.any(String), latencyMs: null },
      { role: 'agent', text: 'Hi Ada, this is Ava.', at: expect.any(String), latencyMs: expect.any(Number) },
    ]);
    expect(seen[1].transcriptTurns[1].latencyMs).toBeGreaterThanOrEqual(120);
    expect(seen[1].latency).toBe(seen[1].transcriptTurns[1].latencyMs);
    sub.close();
    await client.dispose();
    expect(llm.conversationRequests().at(-1)!.messages[0].content).toContain('You are Ava. The callee is Ada.');

    llm.reply({ text: 'Great, goodbye!', toolCalls: [{ name: 'end_call', arguments: {} }], firstTokenDelayMs: 60 });
    await conversation.userSaid('All good, thanks.', true);
    expect(sink.events.at(-1)).toEqual({ type: 'end', reason: 'agent_hangup' });
    await conversation.close('agent_hangup');

    const call = await getCall(a, callId);
    expect(call.transcript).toBe('User: Hello?\nAgent: Hi Ada, this is Ava.\nUser: All good, thanks.\nAgent: Great, goodbye!');
    expect(call.transcript_language).toBe('en-GB');
    const turns = call.transcript_object.turns;
    expect(turns.map((turn: any) => Object.keys(turn).sort())).toEqual([
      ['at', 'role', 'text'],
      ['at', 'latency', 'latency_ms', 'role', 'text'],
      ['at', 'role', 'text'],
      ['at', 'latency', 'latency_ms', 'role', 'text'],
    ]);
    expect(turns[1].latency).toEqual({ llm_first_token_ms: expect.any(Number), first_text_ms: turns[1].latency_ms });
    expect(turns[1].latency_ms).toBeGreaterThanOrEqual(120);
    expect(turns[3].latency_ms).toBeGreaterThanOrEqual(60);
    // The median of two latencies is their mean.
    expect(call.latency).toBe(Math.round((turns[1].latency_ms + turns[3].latency_ms) / 2));
    expect(Date.parse(turns[0].at)).toBeLessThanOrEqual(Date.parse(turns[1].at));
  });

  it('stores the NUL characters a model or a caller says, which PostgreSQL refuses, as U+FFFD', async () => {
    const callId = await liveCall('user');
    const conversation = (await t.app.services.conversations!.open(callId, new RecordingSink()))!;
    await conversation.start();

    llm.reply({ text: 'Hi\u0000there' });
    await conversation.userSaid('Hello\u0000?', true);
    const call = await waitFor('both turns stored', async () => {
      const stored = await getCall(a, callId);
      return stored.transcript_object?.turns?.length === 2 ? stored : undefined;
    });
    expect(call.transcript).toBe('User: Hello\uFFFD?\nAgent: Hi\uFFFDthere');
    expect(call.transcript_object.turns.map((turn: any) => turn.text)).toEqual(['Hello\uFFFD?', 'Hi\uFFFDthere']);
    await conversation.close('agent_hangup');
  });

  it('opens only live calls, whatever id it is given', async () => {
    const opener = t.app.services.conversations!;
    const sink = new RecordingSink();
    expect(await opener.open('not-a-uuid', sink)).toBeNull();
    expect(await opener.open('00000000-0000-4000-8000-000000000000', sink)).toBeNull();
    const callId = await liveCall('agent');
    await post(a, `/v1/calls/${callId}/cancel`, {}).catch(() => undefined);
    await waitFor('the call to end', async () => ((await getCall(a, callId)).call_status === 'completed' ? true : undefined));
    expect(await opener.open(callId, sink)).toBeNull();
  });

  it("reads the agent in the call's own company", async () => {
    const callId = await liveCall('agent');
    // Another company's call never shows this one's transcript.
    llm.reply({ text: 'Hello from A.' });
    const conversation = (await t.app.services.conversations!.open(callId, new RecordingSink()))!;
    await conversation.start();
    await conversation.close('user_hangup');
    expect((await getCall(a, callId)).transcript).toBe('Agent: Hello from A.');
    expect((await t.request('GET', `/v1/calls/${callId}`, { token: b.key })).status).toBe(404);
  });

  it("runs the agent the call's company reads: its own even deleted since, or a template; never another company's, a missing version or a deleted call", async () => {
    const opener = t.app.services.conversations!;
    const sql = (query: string, params: unknown[]) => t.app.orm.em.fork().execute(`/* test:check */ ${query}`, params);
    const callId = await liveCall('agent');
    const [{ ai_agent_id: own }] = await sql('select ai_agent_id from calls where id = ?', [callId]);
    const opens = async (greeting: string) => {
      llm.reply({ text: greeting });
      const conversation = await opener.open(callId, new RecordingSink());
      if (!conversation) return null;
      await conversation.start();
      await conversation.close('agent_hangup');
      return llm.conversationRequests().at(-1)!.messages[0].content as string;
    };

    await sql('update ai_agents set deleted_at = now() where id = ?', [own]);
    expect(await opens('Still Ava.')).toContain('You are Ava.');
    const [template] = await sql('select id, prompt from ai_agents where company_id is null and is_template order by name limit 1', []);
    await sql('update calls set ai_agent_id = ? where id = ?', [template.id, callId]);
    expect(await opens('A template.')).toContain(template.prompt.split('{{')[0]);

    const other = await post(b, '/v1/ai-agent', { name: 'Bob', prompt: 'You are Bob.' });
    await sql('update calls set ai_agent_id = ? where id = ?', [other.id, callId]);
    expect(await opener.open(callId, new RecordingSink())).toBeNull();
    await sql('update calls set ai_agent_id = ?, ai_agent_version = 99 where id = ?', [own, callId]);
    expect(await opener.open(callId, new RecordingSink())).toBeNull();
    await sql('update calls set ai_agent_version = null, deleted_at = now() where id = ?', [callId]);
    expect(await opener.open(callId, new RecordingSink())).toBeNull();
  });
});
