import { APOLOGY } from '../../../src/services/conversation/engine';
import { TRANSFER_FAILED_LINE } from '../../../src/services/conversation/resumption';
import { CALLEE_PERSONA_INTRO, calleePersona } from '../../../src/services/conversation/simulated-callee';
import { FakeLlm, type RecordedRequest, type ScriptedReply } from '../../support/fake-llm';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import { campaignApi } from '../campaigns/support';
import { ManualClock } from '../../support/clock';

let llm: FakeLlm;
let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  llm = await FakeLlm.start();
  // A long talk time: the call ends by its conversation, not by the safety-net 'hangup' step.
  t = await startTestApp({
    SIM_RING_MS: '0',
    SIM_TALK_MS: '600000',
    LLM_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'fake-model',
    LLM_TIMEOUT_MS: '2000',
    SIM_CALLEE_TURNS: '3',
    CALL_PRICE_PER_MINUTE: '0',
    LLM_PRICE_INPUT_PER_MTOK: '1',
    LLM_PRICE_OUTPUT_PER_MTOK: '10',
  });
  a = await tenant(t, 'A');
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

const post = (path: string, body: unknown) => t.request('POST', path, { token: a.key, body }).then(okData);
const getCall = (id: string) => t.request('GET', `/v1/calls/${id}`, { token: a.key }).then(okData);

const isCallee = (request: RecordedRequest) => String(request.messages[0]?.content ?? '').startsWith(CALLEE_PERSONA_INTRO);
/** The requests of one call's conversation: its agent's system prompt names the callee. */
const ofCall = (firstname: string) => llm.requests.filter((r) => isCallee(r) || String(r.messages[0]?.content ?? '').includes(`The callee is ${firstname}.`));

/**
 * Scripts the fake: the callee persona says "Callee line n", the agent "Agent line n" (or what
 * `agent(n)` says); the post-call analysis gets an empty JSON object.
 */
function script(agent: (n: number) => ScriptedReply = (n) => ({ text: `Agent line ${n}.` })) {
  let agentTurns = 0;
  let calleeTurns = 0;
  llm.fallback = (request) => {
    if (request.response_format) return { json: {} };
    if (isCallee(request)) return { text: `Callee line ${++calleeTurns}.` };
    return agent(++agentTurns);
  };
}

async function simulatedCall(firstname: string, agentFields: Record<string, unknown> = {}) {
  const agent = await post('/v1/ai-agent', { name: 'Ava', prompt: 'You are Ava. The callee is {{firstname}}.', who_talks_first: 'agent', language: 'en-GB', ...agentFields });
  const call = await post('/v1/calls/make-call', { ai_agent_id: agent.id, call_from: FROM, call_to: '+14155550123', dynamic_variables: [{ name: 'firstname', value: firstname }] });
  return waitFor('the simulated conversation to end the call', async () => {
    const got = await getCall(call.id);
    return got.call_status === 'completed' ? got : undefined;
  });
}

const turnsOf = (call: any) => (call.transcript_object.turns as { role: string; text: string }[]).map((turn) => [turn.role, turn.text]);

describe('a simulated call with a language model', () => {
  it('talks with the simulated callee until its turns run out, and stores the real transcript', async () => {
    script();
    const call = await simulatedCall('Ada');
    expect(call.disconnect_reason).toBe('user_hangup');
    expect(turnsOf(call)).toEqual([
      ['agent', 'Agent line 1.'],
      ['user', 'Callee line 1.'],
      ['agent', 'Agent line 2.'],
      ['user', 'Callee line 2.'],
      ['agent', 'Agent line 3.'],
      ['user', 'Callee line 3.'],
      ['agent', 'Agent line 4.'],
    ]);
    expect(call.transcript).toContain('User: Callee line 1.');
    expect(call.transcript_language).toBe('en-GB');
    expect(call.latency).toEqual(expect.any(Number));

    const requests = ofCall('Ada');
    const agentRequests = requests.filter((r) => !isCallee(r));
    const calleeRequests = requests.filter(isCallee);
    expect(agentRequests).toHaveLength(4);
    expect(calleeRequests).toHaveLength(3);
    // The agent's prompt, placeholders filled; the callee is a generic person (make-call links no contact), in the agent's language.
    expect(agentRequests[0].messages[0].content).toContain('You are Ava. The callee is Ada.');
    const persona = calleeRequests[0].messages[0].content as string;
    expect(persona).toContain('You are an ordinary person');
    expect(persona).toContain('en-GB');
    expect(calleeRequests[0].tools).toBeUndefined();
    // The callee hears the agent's turns as the other party, and remembers its own.
    expect(calleeRequests[1].messages.slice(1)).toEqual([
      { role: 'user', content: 'Agent line 1.' },
      { role: 'assistant', content: 'Callee line 1.' },
      { role: 'user', content: 'Agent line 2.' },
    ]);
  });

  it("prices the tokens of the agent's model, not those of the simulated callee", async () => {
    const usage = { prompt_tokens: 1000, completion_tokens: 100 };
    llm.fallback = (request) => (isCallee(request) ? { text: 'Callee line.', usage: { prompt_tokens: 50_000, completion_tokens: 5000 } } : { text: 'Agent line.', usage });
    const call = await simulatedCall('Cy');
    // Four agent turns of 1,000 tokens read at 1 and 100 written at 10 a million.
    expect(call.cost_breakdown).toEqual({ telephony: 0, llm: 0.008, recording: 0, total: 0.008 });
    expect(call.cost).toBe(0.008);
  });

  it('ends when the agent ends the call', async () => {
    script((n) => (n === 2 ? { text: 'Goodbye!', toolCalls: [{ name: 'end_call', arguments: {} }] } : { text: `Agent line ${n}.` }));
    const call = await simulatedCall('Bea');
    expect(call.disconnect_reason).toBe('agent_hangup');
    expect(turnsOf(call)).toEqual([
      ['agent', 'Agent line 1.'],
      ['user', 'Callee line 1.'],
      ['agent', 'Goodbye!'],
    ]);
    expect(call.call_duration).toEqual(expect.any(Number));
  });

  it('ends the call with llm_error when the model fails mid-call', async () => {
    script((n) => (n === 1 ? { text: 'Agent line 1.' } : { status: 500 }));
    const call = await simulatedCall('Cy');
    expect(call.disconnect_reason).toBe('llm_error');
    expect(turnsOf(call)).toEqual([
      ['agent', 'Agent line 1.'],
      ['user', 'Callee line 1.'],
      ['agent', APOLOGY],
    ]);
  });

  describe('transfers, as the simulated provider mirrors them (numbers ending 0001 busy, 0002 no-answer, 0003 failed)', () => {
    /** The agent transfers to `to` at its second turn; a summary asked for is "Summary for the desk." */
    const transferringTo = (to: string) => {
      let agentTurns = 0;
      let calleeTurns = 0;
      llm.fallback = (request) => {
        if (request.response_format) return { json: {} };
        if (isCallee(request)) return { text: `Callee line ${++calleeTurns}.` };
        if (String(request.messages[0]?.content).startsWith('You prepare a phone transfer')) return { text: 'Summary for the desk.' };
        const n = ++agentTurns;
        return n === 2 ? { text: 'Putting you through.', toolCalls: [{ name: 'transfer_call', arguments: { number: to } }] } : { text: `Agent line ${n}.` };
      };
    };

    it('a warm transfer nobody answers brings the agent back, which tells the callee and talks on', async () => {
      transferringTo('+14155550002');
      const call = await simulatedCall('Eve', { transfer_mode: 'warm', agent_flow: { transfer_numbers: ['+14155550002'] } });
      expect(call).toMatchObject({ disconnect_reason: 'user_hangup', resumes: 0, transfer: { to: '+14155550002', mode: 'warm', status: 'no-answer' } });
      expect(turnsOf(call)).toEqual([
        ['agent', 'Agent line 1.'],
        ['user', 'Callee line 1.'],
        ['agent', 'Putting you through.'],
        ['agent', TRANSFER_FAILED_LINE],
        ['agent', 'Agent line 3.'],
        ['user', 'Callee line 2.'],
        ['agent', 'Agent line 4.'],
        ['user', 'Callee line 3.'],
        ['agent', 'Agent line 5.'],
      ]);
    });

    it('a warm transfer answered ends the call with call_transfer', async () => {
      transferringTo('+14155550100');
      const call = await simulatedCall('Fay', { transfer_mode: 'warm', agent_flow: { transfer_numbers: ['+14155550100'] } });
      expect(call).toMatchObject({ disconnect_reason: 'call_transfer', transfer: { to: '+14155550100', mode: 'warm', status: 'completed' } });
      expect(Date.parse(call.transfer.started_at)).toBeGreaterThan(0);
    });

    it('a cold transfer to a busy number ends the call with call_transfer, the agent not coming back', async () => {
      transferringTo('+14155550001');
      const call = await simulatedCall('Gus', { agent_flow: { transfer_numbers: ['+14155550001'] } });
      expect(call).toMatchObject({ disconnect_reason: 'call_transfer', transfer: { to: '+14155550001', mode: 'cold', status: 'busy' } });
      expect(turnsOf(call).at(-1)).toEqual(['agent', 'Putting you through.']);
    });
  });

  it('ends the call with llm_error when the callee persona fails', async () => {
    let agentTurns = 0;
    llm.fallback = (request) => (request.response_format ? { json: {} } : isCallee(request) ? { status: 500 } : { text: `Agent line ${++agentTurns}. The callee is Di.` });
    const call = await simulatedCall('Di');
    expect(call.disconnect_reason).toBe('llm_error');
    expect(turnsOf(call)).toEqual([['agent', 'Agent line 1. The callee is Di.']]);
  });
});

describe('the simulated callee persona', () => {
  it("is built from the contact's names and metadata, in the agent's language", () => {
    const persona = calleePersona({ firstname: 'Grace', lastname: 'Hopper', metadata: { company: 'Navy', plan: { tier: 'gold' } } }, 'fr-FR');
    expect(persona.startsWith(CALLEE_PERSONA_INTRO)).toBe(true);
    expect(persona).toContain('Your name is Grace Hopper.');
    expect(persona).toContain('- company: Navy');
    expect(persona).toContain('- plan: {"tier":"gold"}');
    expect(persona).toContain('fr-FR');
    expect(persona).not.toContain('ordinary person');
  });

  it('is a generic person without a contact', () => {
    expect(calleePersona(null, 'en-US')).toContain('You are an ordinary person');
    expect(calleePersona({ firstname: '', lastname: '', metadata: {} }, 'en-US')).toContain('You are an ordinary person');
  });
});

describe('a simulated conversation that outlives SIM_CALLEE_TIMEOUT_MS (or its worker)', () => {
  let slow: FakeLlm;
  let s: TestApp;
  let b: Tenant;

  beforeAll(async () => {
    slow = await FakeLlm.start();
    s = await startTestApp({
      SIM_RING_MS: '0',
      SIM_TALK_MS: '600000',
      LLM_BASE_URL: slow.baseUrl,
      LLM_MODEL: 'fake-model',
      LLM_TIMEOUT_MS: '5000',
      SIM_CALLEE_TURNS: '3',
      SIM_CALLEE_TIMEOUT_MS: '1000',
    });
    b = await tenant(s, 'B');
  });
  afterAll(async () => {
    await s.close();
    await slow.close();
  });

  it("is ended by the safety-net 'hangup' step, keeping the stored turns; the late conversation changes nothing", async () => {
    let agentTurns = 0;
    // The callee takes 2 s to answer: the safety net (1 s after the answer) ends the call first.
    slow.fallback = (request) => (request.response_format ? { json: {} } : isCallee(request) ? { text: 'Too late.', firstTokenDelayMs: 2000 } : { text: `Agent line ${++agentTurns}.` });
    const req = (method: 'GET' | 'POST', path: string, body?: unknown) => s.request(method, path, { token: b.key, body }).then(okData);
    const agent = await req('POST', '/v1/ai-agent', { name: 'Ava', prompt: 'You are Ava.', who_talks_first: 'agent', language: 'en-GB' });
    const made = await req('POST', '/v1/calls/make-call', { ai_agent_id: agent.id, call_from: FROM, call_to: '+14155550123' });
    const ended = await waitFor('the safety net to end the call', async () => {
      const got = await req('GET', `/v1/calls/${made.id}`);
      return got.call_status === 'completed' ? got : undefined;
    });
    expect(ended.disconnect_reason).toBe('agent_hangup');
    expect(turnsOf(ended)).toEqual([['agent', 'Agent line 1.']]);

    // The callee's late reply finds the call ended: it is not said, and the call stays as it was.
    await s.app.services.lifecycle.simulatedConversationsSettled();
    const after = await req('GET', `/v1/calls/${made.id}`);
    expect(after.disconnect_reason).toBe('agent_hangup');
    expect(turnsOf(after)).toEqual([['agent', 'Agent line 1.']]);
    expect(agentTurns).toBe(1);
  });
});

describe("a campaign's simulated call", () => {
  let c: FakeLlm;
  let s: TestApp;
  let d: Tenant;

  beforeAll(async () => {
    c = await FakeLlm.start();
    // Monday 2026-11-23, 10:00 in New York: inside the campaign's calling window.
    s = await startTestApp(
      { SIM_RING_MS: '0', SIM_TALK_MS: '600000', CAMPAIGN_SWEEP_MS: '100', LLM_BASE_URL: c.baseUrl, LLM_MODEL: 'fake-model', LLM_TIMEOUT_MS: '2000', SIM_CALLEE_TURNS: '1' },
      { clock: new ManualClock(new Date('2026-11-23T15:00:00Z')) },
    );
    d = await tenant(s, 'D');
  });
  afterAll(async () => {
    await s.close();
    await c.close();
  });

  it("talks with a callee built from the campaign contact's data", async () => {
    c.fallback = (request) => (request.response_format ? { json: {} } : isCallee(request) ? { text: 'Grace speaking.' } : { text: 'Hello from the agent.' });
    const api = campaignApi(s, d);
    await api.contacts(['+14155553210'], { firstname: 'Grace', lastname: 'Hopper', metadata: { plan: 'gold' }, tag_name: 'sim-callee' });
    const campaign = await api.campaign({ contacts_list_tags: [['sim-callee']], status: 'active' });
    const call = await waitFor('the campaign call to complete', async () => {
      const [got] = await api.calls(campaign.id);
      return got?.call_status === 'completed' ? got : undefined;
    });
    expect(call.disconnect_reason).toBe('user_hangup');
    expect(turnsOf(call)).toEqual([
      ['agent', 'Hello from the agent.'],
      ['user', 'Grace speaking.'],
      ['agent', 'Hello from the agent.'],
    ]);
    const persona = c.requests.find(isCallee)!.messages[0].content as string;
    expect(persona).toContain('Your name is Grace Hopper.');
    expect(persona).toContain('- plan: gold');
  });
});

describe('a simulated incoming call with a language model', () => {
  it('talks with a caller built from the matched contact on a simulated incoming call', async () => {
    script();
    const agent = await post('/v1/ai-agent', { name: 'Ava', prompt: 'You are Ava. The callee is Linus.', who_talks_first: 'agent' });
    okData(await t.request('PATCH', `/v1/phone-numbers/${a.number.id}`, { token: a.key, body: { inbound_agent_id: agent.id } }));
    await post('/v1/contacts', { firstname: 'Linus', lastname: 'Torvalds', phone_number: '+14155550188' });
    const call = await post('/v1/calls/simulate-inbound', { to: a.number.phone_number, from: '+14155550188' });
    const ended = await waitFor('the incoming conversation to end the call', async () => {
      const got = await getCall(call.id);
      return got.call_status === 'completed' ? got : undefined;
    });
    expect(ended.call_direction).toBe('incoming');
    expect(ended.disconnect_reason).toBe('user_hangup');
    expect(turnsOf(ended).filter(([role]) => role === 'user')).toEqual([
      ['user', 'Callee line 1.'],
      ['user', 'Callee line 2.'],
      ['user', 'Callee line 3.'],
    ]);
    const personas = llm.requests.filter(isCallee).map((r) => String(r.messages[0].content));
    expect(personas).toContainEqual(expect.stringContaining('Your name is Linus Torvalds.'));
  });
});
