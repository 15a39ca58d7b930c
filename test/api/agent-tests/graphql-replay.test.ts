import type { Client } from 'graphql-ws';
import { FakeLlm } from '../../support/fake-llm';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import { firstError, gql, gqlData, subscribe, wsClient } from '../graphql/graphql-client';
import { finishedRun, scriptModel } from './support';

let llm: FakeLlm;
let t: TestApp;
let a: Tenant;
let b: Tenant;
let ws: Client;

beforeAll(async () => {
  llm = await FakeLlm.start();
  // A long talk time: the real call of the replay ends by its conversation (two callee turns).
  t = await startTestApp({ SIM_RING_MS: '0', SIM_TALK_MS: '600000', SIM_CALLEE_TURNS: '2', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_TIMEOUT_MS: '2000' });
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
  ws = wsClient(t, a.key);
});
afterAll(async () => {
  await ws.dispose();
  await t.close();
  await llm.close();
});

const RUN_FIELDS =
  'id agentId status passed total done scenarios { name status passed endedBy criteria { criterion passed reason } transcript toolCalls { name } latencies { answersMs } replay { callId divergedAt turns { original { role text } replayed { role text } same } } }';

describe('agent tests over GraphQL', () => {
  it('creates a scenario, runs it, and follows the run to its end over the subscription', async () => {
    scriptModel(llm, {
      agent: (lastUser) => (lastUser.includes('pressed 2') ? { text: 'Transferring you to billing.', toolCalls: [{ name: 'end_call', arguments: {} }] } : { text: 'Hi, press 2 for billing.' }),
    });
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Router', prompt: 'You route calls.' } }));
    const { createAgentScenario: scenario } = await gqlData(
      t,
      'mutation($agentId: ID!, $input: CreateAgentScenarioInput!) { createAgentScenario(agentId: $agentId, input: $input) { id agentId name callerTurns { say dtmf silenceMs } callerPersona { prompt } criteria } }',
      {
        agentId: agent.id,
        input: {
          name: 'Billing',
          callerTurns: [{ say: 'Billing please.' }, { silenceMs: 1500 }, { dtmf: '2' }],
          criteria: [
            { type: 'ended_by', value: 'agent' },
            { type: 'transcript_contains', text: 'billing' },
            { type: 'tool_called', name: 'end_call' },
          ],
        },
      },
      a.key,
    );
    expect(scenario).toMatchObject({
      agentId: agent.id,
      name: 'Billing',
      callerPersona: null,
      callerTurns: [{ say: 'Billing please.', dtmf: null, silenceMs: null }, { silenceMs: 1500 }, { dtmf: '2' }],
    });
    expect(scenario.criteria[0]).toEqual({ type: 'ended_by', value: 'agent' });

    const events = await subscribe(ws, `subscription($agentId: ID) { agentTestRunUpdated(agentId: $agentId) { ${RUN_FIELDS} } }`, { agentId: agent.id });
    const { runAgentTests: started } = await gqlData(t, `mutation($agentId: ID!) { runAgentTests(agentId: $agentId) { ${RUN_FIELDS} } }`, { agentId: agent.id }, a.key);
    expect(started).toMatchObject({ status: 'queued', total: 1, done: 0, passed: null });
    const statuses: string[] = [];
    let last: any;
    do {
      last = (await events.next()).agentTestRunUpdated;
      statuses.push(last.status);
    } while (last.status !== 'passed' && last.status !== 'failed');
    events.close();
    expect(statuses[0]).toBe('queued');
    expect(statuses).toContain('running');
    expect(last).toMatchObject({ id: started.id, status: 'passed', passed: true, done: 1 });
    expect(last.scenarios[0]).toMatchObject({ name: 'Billing', status: 'passed', endedBy: 'agent', toolCalls: [{ name: 'end_call' }] });
    expect(last.scenarios[0].transcript.map((turn: any) => turn.text)).toEqual([
      'Hi, press 2 for billing.',
      'Billing please.',
      'Hi, press 2 for billing.',
      '[pressed 2]',
      'Transferring you to billing.',
    ]);

    const read = await gqlData(t, `query($id: ID!) { agentTestRun(id: $id) { ${RUN_FIELDS} } }`, { id: started.id }, a.key);
    expect(read.agentTestRun).toEqual(last);
    expect((await gql(t, 'query($id: ID!) { agentTestRun(id: $id) { id } }', { id: started.id }, b.key)).data).toEqual({ agentTestRun: null });
  });

  it("names the fields of bad input as GraphQL names them (REST names its own), and refuses another company's agent", async () => {
    const CREATE = 'mutation($agentId: ID!, $input: CreateAgentScenarioInput!) { createAgentScenario(agentId: $agentId, input: $input) { id } }';
    const fieldsOf = (res: any): string[] =>
      firstError(res)!
        .fields.map((f: any) => f.field)
        .sort();
    const input = { name: 'Bad', callerTurns: [{ silenceMs: 0 }, { dtmf: '1', interruptAfterMs: 5 }], criteria: [{ type: 'max_turns', value: 'many' }] };
    const bad = await gql(t, CREATE, { agentId: a.agent.id, input }, a.key);
    expect(firstError(bad)).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(fieldsOf(bad)).toEqual(['callerTurns[0].silenceMs', 'callerTurns[1].interruptAfterMs', 'criteria[0].value']);
    const both = await gql(t, CREATE, { agentId: a.agent.id, input: { name: 'Both', callerTurns: [{ say: 'Hi' }], callerPersona: { prompt: 'Someone', maxTurns: 2 } } }, a.key);
    expect(firstError(both)!.fields).toEqual([{ field: 'callerPersona', message: 'Give callerTurns or callerPersona, not both' }]);
    const twoActs = await gql(t, CREATE, { agentId: a.agent.id, input: { name: 'Two', callerTurns: [{ say: 'Hi', silenceMs: 500 }] } }, a.key);
    expect(firstError(twoActs)!.fields).toEqual([{ field: 'callerTurns[0]', message: 'Give exactly one of say, dtmf or silenceMs' }]);
    // The same input to REST: its errors name REST's fields.
    const rest = await t.request('POST', `/v1/ai-agent/${a.agent.id}/scenarios`, {
      token: a.key,
      body: { name: 'Bad', caller_turns: [{ silence_ms: 0 }, { dtmf: '1', interrupt_after_ms: 5 }], criteria: [{ type: 'max_turns', value: 'many' }] },
    });
    expect(rest.body.data.map((f: any) => f.field).sort()).toEqual(['caller_turns[0].silence_ms', 'caller_turns[1].interrupt_after_ms', 'criteria[0].value']);
    // The fields its messages name too, at any depth; client data in a message is left as sent.
    const restBoth = await t.request('POST', `/v1/ai-agent/${a.agent.id}/scenarios`, {
      token: a.key,
      body: { name: 'Both', caller_turns: [{ say: 'Hi' }], caller_persona: { prompt: 'Someone', max_turns: 2 } },
    });
    expect(restBoth.body.data).toEqual([{ field: 'caller_persona', message: 'Give caller_turns or caller_persona, not both' }]);
    const restTwoActs = await t.request('POST', `/v1/ai-agent/${a.agent.id}/scenarios`, { token: a.key, body: { name: 'Two', caller_turns: [{ say: 'Hi', silence_ms: 500 }] } });
    expect(restTwoActs.body.data).toEqual([{ field: 'caller_turns[0]', message: 'Give exactly one of say, dtmf or silence_ms' }]);

    const unknown = await gql(
      t,
      'mutation($agentId: ID!, $input: RunAgentTestsInput) { runAgentTests(agentId: $agentId, input: $input) { id } }',
      { agentId: a.agent.id, input: { scenarioIds: [a.agent.id] } },
      a.key,
    );
    expect(firstError(unknown)).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'scenarioIds[0]', message: 'Must name a scenario of this agent' }] });
    const foreign = await gql(t, 'mutation($agentId: ID!) { runAgentTests(agentId: $agentId) { id } }', { agentId: a.agent.id }, b.key);
    expect(firstError(foreign)).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('replaying a real call', () => {
  it("says the call's caller side again to the agent as it is now, and shows where the two transcripts part", async () => {
    scriptModel(llm, {
      caller: (n) => `Caller line ${n}.`,
      agent: (lastUser, request) => {
        const v2 = String(request.messages[0].content).includes('Version two');
        if (lastUser === 'Caller line 2.' && v2) return { text: 'A different answer.' };
        return { text: lastUser.startsWith('Caller line') ? `You said: ${lastUser}` : 'Hello, this is Ava.' };
      },
    });
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Replayed', prompt: 'Version one.' } }));
    const made = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: agent.id, call_from: FROM, call_to: '+14155550123' } }));
    const call = await waitFor('the simulated call to end', async () => {
      const c = okData(await t.request('GET', `/v1/calls/${made.id}`, { token: a.key }));
      return c.call_status === 'completed' ? c : undefined;
    });
    const original = call.transcript_object.turns.map((turn: any) => turn.text);
    expect(original).toEqual(['Hello, this is Ava.', 'Caller line 1.', 'You said: Caller line 1.', 'Caller line 2.', 'You said: Caller line 2.']);

    okData(await t.request('PATCH', `/v1/ai-agent/${agent.id}`, { token: a.key, body: { prompt: 'Version two.' } }));
    const started = okData(await t.request('POST', `/v1/calls/${call.id}/replay`, { token: a.key, body: {} }));
    expect(started).toMatchObject({ replay_of: call.id, ai_agent_id: agent.id, version: null, total: 1 });
    const run = await finishedRun(t, a.key, started.id);
    const [replay] = run.scenarios;
    expect(replay).toMatchObject({ scenario_id: null, status: 'passed', ended_by: 'caller' });
    expect(replay.replay.call_id).toBe(call.id);
    expect(replay.replay.diverged_at).toBe(4);
    expect(replay.replay.turns[4]).toEqual({ original: { role: 'agent', text: 'You said: Caller line 2.' }, replayed: { role: 'agent', text: 'A different answer.' }, same: false });
    expect(replay.replay.turns.slice(0, 4).every((turn: any) => turn.same)).toBe(true);

    // The replay is not a call: the call list still holds the one real call.
    expect(okData(await t.request('GET', '/v1/calls', { token: a.key })).items.map((c: any) => c.id)).toEqual([call.id]);
    expect((await t.request('POST', `/v1/calls/${call.id}/replay`, { token: b.key, body: {} })).status).toBe(404);
    const version = await t.request('POST', `/v1/calls/${call.id}/replay`, { token: a.key, body: { version: 1 } });
    expect(version.body.data).toEqual([{ field: 'version', message: expect.any(String) }]);
  });
});
