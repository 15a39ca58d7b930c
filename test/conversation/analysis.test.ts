import type { Topics } from '../../src/services/events';
import { FakeLlm } from '../support/fake-llm';
import { FROM, okData, type Tenant, tenant } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/harness';
import { waitFor } from '../support/wait';

let llm: FakeLlm;
let t: TestApp;
let a: Tenant;
let agentId: string;
const analyzed: Topics['call.analyzed'][] = [];

beforeAll(async () => {
  llm = await FakeLlm.start();
  t = await startTestApp({ SIM_RING_MS: '0', SIM_TALK_MS: '200', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model' });
  a = await tenant(t, 'A');
  t.app.events.subscribe('call.analyzed', (event) => void analyzed.push(event));
  const outcomes = {
    interested: { type: 'boolean', description: 'Whether the callee wants the offer' },
    plan: { type: 'string', description: 'The plan chosen', enum: ['gold', 'silver'] },
  };
  agentId = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Seller', prompt: 'Sell the Gold plan.', agent_post_call_outcomes: outcomes } })).id;
});
afterAll(async () => {
  await t.close();
  await llm.close();
});
beforeEach(() => {
  llm.requests.length = 0;
});

const fits = { summary: 'Ada agreed to Gold.', sentiment: 'positive', task_status: 'completed', task_feedback: 'She said yes.', outcomes: { interested: true, plan: 'gold' } };
const misfit = { ...fits, outcomes: { interested: true, plan: 'bronze' } };

async function endedCall(to = '+14155550123') {
  const call = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: agentId, call_from: FROM, call_to: to } }));
  return call.id as string;
}
const analysedCall = (id: string) =>
  waitFor('the analysis', async () => {
    const call = okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));
    return call.agent_task_status === '' ? undefined : call;
  });

describe('post-call analysis', () => {
  it("asks the model once for the agent's outcomes as strict JSON and lands the answer on the call", async () => {
    llm.fallback = { json: fits };
    const id = await endedCall();
    const call = await analysedCall(id);
    expect(call).toMatchObject({
      agent_post_call_outcomes: { interested: true, plan: 'gold' },
      analysis_sentiment: 'positive',
      agent_task_status: 'completed',
      agent_task_feedback: 'She said yes.',
      notes: 'Ada agreed to Gold.',
    });
    expect(llm.requests).toHaveLength(1);
    const { response_format: format, messages } = llm.requests[0]!;
    expect(format).toMatchObject({ type: 'json_schema', json_schema: { name: 'post_call_analysis', strict: true } });
    const schema = format.json_schema.schema;
    expect(schema.required).toEqual(['summary', 'sentiment', 'task_status', 'task_feedback', 'outcomes']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.outcomes).toEqual({
      type: 'object',
      properties: {
        interested: { type: 'boolean', description: 'Whether the callee wants the offer' },
        plan: { type: 'string', description: 'The plan chosen', enum: ['gold', 'silver'] },
      },
      // The agent's outcomes come back from jsonb, which orders keys its own way.
      required: expect.arrayContaining(['interested', 'plan']),
      additionalProperties: false,
    });
    expect(schema.properties.outcomes.required).toHaveLength(2);
    expect(messages[0].content).toContain('Sell the Gold plan.');
    expect(messages[1].content).toBe(call.transcript);
    await waitFor('call.analyzed', async () => (analyzed.some((e) => e.callId === id) ? true : undefined));
    expect(analyzed.find((e) => e.callId === id)).toEqual({ companyId: a.companyId, callId: id, campaignId: null, workspace: 'default' });
  });

  it('asks again when the answer does not fit, then records the failure with its reason', async () => {
    llm.reply({ json: misfit }, { garbage: true }).fallback = { json: fits };
    const retried = await analysedCall(await endedCall());
    expect(retried.agent_task_status).toBe('completed');
    expect(llm.requests).toHaveLength(3);

    llm.requests.length = 0;
    llm.fallback = { json: misfit };
    const failed = await analysedCall(await endedCall());
    expect(llm.requests).toHaveLength(3);
    expect(failed).toMatchObject({ agent_task_status: 'analysis_failed', analysis_sentiment: '', agent_post_call_outcomes: null });
    expect(failed.agent_task_feedback).toBe('The answer did not fit the schema: outcomes.plan: Must be one of gold, silver');
  });

  it('is not asked for a call without a word from the callee', async () => {
    const id = await endedCall('+14155550004');
    await waitFor('the voicemail call to end', async () => (okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key })).call_status === 'completed' ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 2600));
    expect(llm.requests).toHaveLength(0);
  });
});
