import { FakeLlm, type RecordedRequest } from '../../support/fake-llm';
import { okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { finishedRun, isCaller, scriptModel } from './support';

let llm: FakeLlm;
let t: TestApp;
let a: Tenant;
let b: Tenant;
let agentId: string;

beforeAll(async () => {
  llm = await FakeLlm.start();
  t = await startTestApp({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_TIMEOUT_MS: '2000', AGENT_TEST_CONCURRENCY: '2' });
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
  agentId = okData(
    await t.request('POST', '/v1/ai-agent', {
      token: a.key,
      body: { name: 'Booker', prompt: 'You are Ava. You book appointments for {{firstname}}.', who_talks_first: 'agent', agent_post_call_outcomes: { booked: 'boolean' } },
    }),
  ).id;
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

const post = (path: string, body: unknown, key = a.key) => t.request('POST', path, { token: key, body });

/** The agent greets, books Friday when asked, and ends the call once the caller confirms with a key; after a tool's result, it says nothing more. */
const booker = (lastUser: string, request: RecordedRequest) => {
  if (request.messages.at(-1).role === 'tool') return { text: '' };
  if (lastUser.includes('pressed 1')) return { text: 'You are booked for Friday. Goodbye!', toolCalls: [{ name: 'end_call', arguments: {} }] };
  if (lastUser.toLowerCase().includes('appointment')) return { text: 'Friday at ten works. Press 1 to confirm.', toolCalls: [{ name: 'book', arguments: { day: 'Friday', hour: 10 } }] };
  return { text: 'Hello Ada, this is Ava. How can I help?' };
};

const scripted = {
  caller_turns: [{ say: 'I would like an appointment.' }, { silence_ms: 2000 }, { dtmf: '1' }],
  dynamic_variables: [{ name: 'firstname', value: 'Ada' }],
};

describe('agent test scenarios', () => {
  it('are created, listed, read, changed and deleted per agent, and refused with field errors', async () => {
    const created = okData(await post(`/v1/ai-agent/${agentId}/scenarios`, { name: 'Temporary', ...scripted, criteria: [{ type: 'ended_by', value: 'agent' }] }));
    expect(created).toMatchObject({ ai_agent_id: agentId, name: 'Temporary', caller_turns: scripted.caller_turns, caller_persona: null, criteria: [{ type: 'ended_by', value: 'agent' }] });
    const changed = okData(await t.request('PATCH', `/v1/agent-scenarios/${created.id}`, { token: a.key, body: { caller_persona: { prompt: 'A busy person.' } } }));
    expect(changed).toMatchObject({ caller_turns: null, caller_persona: { prompt: 'A busy person.', max_turns: 6 } });
    expect(okData(await t.request('GET', `/v1/ai-agent/${agentId}/scenarios`, { token: a.key })).map((s: any) => s.id)).toContain(created.id);
    expect((await t.request('GET', `/v1/agent-scenarios/${created.id}`, { token: b.key })).status).toBe(404);
    expect(okData(await t.request('DELETE', `/v1/agent-scenarios/${created.id}`, { token: a.key }))).toBe('Scenario deleted');
    expect((await t.request('GET', `/v1/agent-scenarios/${created.id}`, { token: a.key })).status).toBe(404);

    const bad = await post(`/v1/ai-agent/${agentId}/scenarios`, {
      name: '',
      caller_turns: [{ say: 'Hi', dtmf: '1' }, { dtmf: 'x' }],
      caller_persona: { prompt: 'Someone' },
      criteria: [{ type: 'ended_by', value: 'nobody' }, { type: 'weather' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.map((f: any) => f.field).sort()).toEqual(['caller_turns[0]', 'caller_turns[1].dtmf', 'criteria[0].value', 'criteria[1].type', 'name'].sort());
    expect((await post(`/v1/ai-agent/${agentId}/scenarios`, { name: 'x', ...scripted }, b.key)).status).toBe(404);
  });
});

describe('a test run', () => {
  it('runs scripted scenarios as simulated calls: one passes, one fails naming its criterion; no call is made', async () => {
    scriptModel(llm, { agent: booker, outcomes: { booked: true } });
    const passing = okData(
      await post(`/v1/ai-agent/${agentId}/scenarios`, {
        name: 'Books Friday',
        ...scripted,
        criteria: [
          { type: 'tool_called', name: 'book', arguments: { day: 'Friday' } },
          { type: 'ended_by', value: 'agent' },
          { type: 'transcript_contains', text: 'booked for friday' },
          { type: 'transcript_not_contains', text: 'sorry' },
          { type: 'outcome', key: 'booked', value: true },
          { type: 'max_turns', value: 4 },
          { type: 'max_latency_ms', value: 10_000 },
        ],
      }),
    );
    const failing = okData(
      await post(`/v1/ai-agent/${agentId}/scenarios`, {
        name: 'Offers a refund',
        ...scripted,
        criteria: [
          { type: 'ended_by', value: 'agent' },
          { type: 'tool_called', name: 'refund' },
        ],
      }),
    );
    const started = okData(await post(`/v1/ai-agent/${agentId}/test-runs`, { scenario_ids: [passing.id, failing.id] }));
    expect(started).toMatchObject({ ai_agent_id: agentId, version: null, replay_of: null, total: 2, passed: null });

    const run = await finishedRun(t, a.key, started.id);
    expect(run).toMatchObject({ status: 'failed', passed: false, total: 2, done: 2 });
    const [good, bad] = run.scenarios;
    expect(good).toMatchObject({ scenario_id: passing.id, name: 'Books Friday', status: 'passed', passed: true, ended_by: 'agent', end_reason: 'agent_hangup', error: null });
    expect(good.criteria.every((c: any) => c.passed)).toBe(true);
    expect(good.criteria[0].reason).toBe('book was called with {"day":"Friday","hour":10}');
    expect(good.transcript.map((turn: any) => [turn.role, turn.text])).toEqual([
      ['agent', 'Hello Ada, this is Ava. How can I help?'],
      ['user', 'I would like an appointment.'],
      ['agent', 'Friday at ten works. Press 1 to confirm.'],
      ['user', '[pressed 1]'],
      ['agent', 'You are booked for Friday. Goodbye!'],
    ]);
    expect(good.transcript[3].dtmf).toBe('1');
    expect(good.tool_calls).toEqual([
      { name: 'book', arguments: { day: 'Friday', hour: 10 } },
      { name: 'end_call', arguments: {} },
    ]);
    expect(good.latencies.answers_ms).toHaveLength(2);
    expect(good.latencies.max_ms).toBeGreaterThanOrEqual(0);

    expect(bad).toMatchObject({ name: 'Offers a refund', status: 'failed', passed: false });
    expect(bad.criteria.filter((c: any) => !c.passed)).toEqual([{ criterion: { type: 'tool_called', name: 'refund' }, passed: false, reason: 'refund was not called (called: book, end_call)' }]);

    expect(okData(await t.request('GET', '/v1/calls', { token: a.key })).items).toHaveLength(0);
    expect((await t.request('GET', `/v1/agent-test-runs/${started.id}`, { token: b.key })).status).toBe(404);
  });

  it('plays a persona with the model, and grades a judge rubric with its reason', async () => {
    scriptModel(llm, { agent: () => ({ text: 'How can I help?' }), caller: (n) => `Caller line ${n}.`, judge: { passed: false, reason: 'The agent never offered a time.' } });
    const persona = okData(
      await post(`/v1/ai-agent/${agentId}/scenarios`, {
        name: 'Impatient caller',
        caller_persona: { prompt: 'You are Bob, in a hurry, wanting a haircut.', max_turns: 2 },
        criteria: [
          { type: 'ended_by', value: 'caller' },
          { type: 'judge', rubric: 'The agent offers a time.' },
        ],
      }),
    );
    const started = okData(await post(`/v1/ai-agent/${agentId}/test-runs`, { scenario_ids: [persona.id] }));
    const run = await finishedRun(t, a.key, started.id);
    const [result] = run.scenarios;
    expect(result.transcript.filter((turn: any) => turn.role === 'user').map((turn: any) => turn.text)).toEqual(['Caller line 1.', 'Caller line 2.']);
    expect(result.criteria).toEqual([
      { criterion: { type: 'ended_by', value: 'caller' }, passed: true, reason: 'The caller ended the call (user_hangup)' },
      { criterion: { type: 'judge', rubric: 'The agent offers a time.' }, passed: false, reason: 'The agent never offered a time.' },
    ]);
    expect(result).toMatchObject({ status: 'failed', passed: false });
    const callerPrompt = llm.requests.find((r) => isCaller(r))!.messages[0].content;
    expect(callerPrompt).toContain('You are Bob, in a hurry, wanting a haircut.');
  });

  it("speaks over the agent where the script says, and keeps silences on the call's clock: a reminder, then the hang-up for silence", async () => {
    const renewal = 'Hello, I am calling about your renewal next month.';
    scriptModel(llm, { agent: (lastUser) => ({ text: lastUser.startsWith('[The caller has said nothing') ? 'Are you still there?' : renewal }) });
    const quiet = okData(await post('/v1/ai-agent', { name: 'Patient', prompt: 'You renew.', reminder_frequency_from: 2, reminder_frequency_to: 2, max_silence_duration: 8 }));
    const scenario = okData(
      await post(`/v1/ai-agent/${quiet.id}/scenarios`, {
        name: 'Goes quiet',
        caller_turns: [{ say: 'Sorry?', interrupt_after_ms: 1500 }, { silence_ms: 60_000 }],
        criteria: [{ type: 'ended_by', value: 'agent' }],
      }),
    );
    const started = Date.now();
    const run = await finishedRun(t, a.key, okData(await post(`/v1/ai-agent/${quiet.id}/test-runs`, { scenario_ids: [scenario.id] })).id);
    expect(Date.now() - started).toBeLessThan(20_000);
    const [result] = run.scenarios;
    expect(result).toMatchObject({ status: 'passed', end_reason: 'max_silence', ended_by: 'agent' });
    expect(result.transcript.map((turn: any) => [turn.role, turn.text, turn.interrupted ?? false])).toEqual([
      ['agent', 'Hello, I am', true],
      ['user', 'Sorry?', false],
      ['agent', renewal, false],
      // Reminders 2 s after the agent's voice stops (its words take about 2 s), until 8 s of silence in a row.
      ['agent', 'Are you still there?', false],
      ['agent', 'Are you still there?', false],
    ]);
  });

  it('refuses a version while the agent has none, unknown scenarios, and an agent without scenarios', async () => {
    const version = await post(`/v1/ai-agent/${agentId}/test-runs`, { version: 2 });
    expect(version.status).toBe(400);
    expect(version.body.data).toEqual([{ field: 'version', message: expect.any(String) }]);
    const unknown = await post(`/v1/ai-agent/${agentId}/test-runs`, { scenario_ids: ['0b8f5a3e-6c1d-4f2a-9e7b-3d4c5a6b7c8d'] });
    expect(unknown.body.data).toEqual([{ field: 'scenario_ids[0]', message: 'Must name a scenario of this agent' }]);
    const empty = await post(`/v1/ai-agent/${b.agent.id}/test-runs`, {}, b.key);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('no scenarios');
    expect((await post(`/v1/ai-agent/${agentId}/test-runs`, {}, b.key)).status).toBe(404);
  });
});

describe('a test run of a published version', () => {
  it("runs the version's settings, not the draft edited since", async () => {
    scriptModel(llm, { agent: booker });
    const id = okData(await post('/v1/ai-agent', { name: 'Versioned', prompt: 'You are Ava, version one.', who_talks_first: 'agent' })).id as string;
    expect(okData(await post(`/v1/ai-agent/${id}/publish`, { note: 'first' }))).toMatchObject({ version: 1, prompt: 'You are Ava, version one.' });
    okData(await t.request('PATCH', `/v1/ai-agent/${id}`, { token: a.key, body: { prompt: 'You are Ava, the draft.' } }));
    const scenario = okData(await post(`/v1/ai-agent/${id}/scenarios`, { name: 'Greets', caller_turns: [{ say: 'Hello?' }], criteria: [{ type: 'transcript_contains', text: 'Ava' }] }));
    const seen = llm.requests.length;

    const started = okData(await post(`/v1/ai-agent/${id}/test-runs`, { version: 1, scenario_ids: [scenario.id] }));
    expect(started).toMatchObject({ version: 1, total: 1 });
    expect(await finishedRun(t, a.key, started.id)).toMatchObject({ status: 'passed', version: 1 });
    const prompts = llm.requests
      .slice(seen)
      .filter((r) => !isCaller(r) && !r.response_format)
      .map((r) => String(r.messages[0].content));
    expect(prompts.length).toBeGreaterThan(0);
    expect(prompts.every((p) => p.includes('version one') && !p.includes('the draft'))).toBe(true);
  });
});
