import type { Topics } from '../../../src/services/platform/events';
import { FLOW_ENV, flowSettled, Receiver } from '../flows/support';
import { FakeLlm } from '../../support/fake-llm';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

let llm: FakeLlm;
let receiver: Receiver;
let t: TestApp;
let a: Tenant;
let agentId: string;
const analyzed: Topics['call.analyzed'][] = [];

beforeAll(async () => {
  llm = await FakeLlm.start();
  receiver = await Receiver.start();
  t = await startTestApp({ ...FLOW_ENV, SIM_RING_MS: '0', SIM_TALK_MS: '200', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_ANALYSIS_DELAY_MS: '0' });
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
  await receiver.close();
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
    const { response_format: format, messages } = llm.requests[0];
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

  it('stores the NUL characters of an answer, which PostgreSQL refuses, as U+FFFD', async () => {
    llm.fallback = { json: { ...fits, summary: 'Ada\u0000 agreed.', task_feedback: 'Yes\u0000.' } };
    const call = await analysedCall(await endedCall());
    expect(call).toMatchObject({ agent_task_status: 'completed', notes: 'Ada\uFFFD agreed.', agent_task_feedback: 'Yes\uFFFD.' });
  });

  it('triggers the flows subscribed to call.analyzed once the analysis is stored, with the analysed call', async () => {
    llm.fallback = { json: fits };
    const step = {
      step_number: 1,
      webhook_url: `${receiver.url}/analyzed`,
      webhook_method: 'POST',
      webhook_body: { event: '{{event}}', id: '{{call.id}}', plan: '{{call.agent_post_call_outcomes.plan}}', notes: '{{call.notes}}' },
    };
    okData(await t.request('POST', '/v1/webhooks', { token: a.key, body: { name: 'analyzed', events: ['call.analyzed'], steps: [step] } }));
    const id = await endedCall();
    await analysedCall(id);
    const [delivery] = await waitFor('the flow to report the analysis', async () => (receiver.at('/analyzed').length > 0 ? receiver.at('/analyzed') : undefined));
    expect(JSON.parse(delivery.body)).toEqual({ event: 'call.analyzed', id, plan: 'gold', notes: 'Ada agreed to Gold.' });
  });

  it("triggers a campaign's flow that reads the outcomes once the analysis is stored, with the outcomes", async () => {
    llm.fallback = { json: fits };
    const step = { step_number: 1, webhook_url: `${receiver.url}/campaign`, webhook_method: 'POST', webhook_body: { plan: '{{plan}}', who: '{{who}}' } };
    const flow = okData(await t.request('POST', '/v1/webhooks', { token: a.key, body: { name: 'outcomes', steps: [step] } }));
    okData(await t.request('POST', '/v1/contacts', { token: a.key, body: { firstname: 'Ada', phone_number: '+14155550177' } }));
    const campaign = okData(
      await t.request('POST', '/v1/campaigns', {
        token: a.key,
        body: {
          name: 'Outcomes',
          ai_agent_id: agentId,
          outbound_phone_number_id: a.number.id,
          time_zone: 'UTC',
          days_of_week: [1, 2, 3, 4, 5, 6, 7],
          call_time_of_day_from: '00:00:00',
          call_time_of_day_to: '00:00:00',
          webhook_id: flow.id,
          webhook_mapping_variables: { plan: 'plan', who: 'firstname' },
          webhook_mapping_variables_sources: { plan: 'agent_post_call_outcomes', who: 'contact' },
        },
      }),
    );
    const activated = await t.request('POST', `/compaign/v1/campaign/update/${campaign.id}`, { token: a.key, body: { status: 'active' } });
    expect(activated.body).toMatchObject({ status: 'ok' });
    // The campaign calls every contact of the company (empty filters): the fixture's and Ada.
    const calls = await waitFor('every campaign call analysed', async () => {
      const items = okData(await t.request('GET', `/v1/calls?campaign_id=${campaign.id}`, { token: a.key })).items as any[];
      return items.length > 1 && items.every((c) => c.agent_task_status === 'completed') ? items : undefined;
    });
    const deliveries = await waitFor('the campaign flow, once per call', async () => (receiver.at('/campaign').length >= calls.length ? receiver.at('/campaign') : undefined));
    expect(deliveries.map((d) => JSON.parse(d.body))).toContainEqual({ plan: 'gold', who: 'Ada' });
    expect(deliveries.every((d) => JSON.parse(d.body).plan === 'gold')).toBe(true);
    await flowSettled(t, a.companyId, flow.id);
    expect(receiver.at('/campaign')).toHaveLength(calls.length);
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

  it("leaves a model answering 429 to the job's retries, minutes apart, and lands the answer once it recovers", async () => {
    const analysing = (r: Record<string, any>) => r.response_format !== undefined;
    llm.fallback = (r) => (analysing(r) ? { status: 429, headers: { 'retry-after': '0' } } : {});
    const id = await endedCall();
    const sql = (query: string) => t.app.orm.em.fork().execute(query, [id]);
    const job = await waitFor('the analysis to wait for its retry', async () => {
      const [row] = await sql(
        `select id, state, retry_count, retry_limit, retry_delay, retry_backoff, start_after > now() + interval '5 seconds' as later from pgboss.job where name = 'call.analyze' and singleton_key = ?`,
      );
      return row?.state === 'retry' ? row : undefined;
    });
    expect(job).toMatchObject({ retry_limit: 5, retry_delay: 15, retry_backoff: true, later: true });
    // One request and its one quick retry, not three answers in a burst.
    expect(llm.requests.filter(analysing)).toHaveLength(2);
    expect(okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key })).agent_task_status).toBe('');

    // Its retry comes due (as minutes later) with the model back.
    llm.fallback = { json: fits };
    await sql(`update pgboss.job set start_after = now() where name = 'call.analyze' and singleton_key = ?`);
    expect(await analysedCall(id)).toMatchObject({ agent_task_status: 'completed', agent_post_call_outcomes: { interested: true, plan: 'gold' } });
  });

  it('is not asked for a call without a word from the callee', async () => {
    const id = await endedCall('+14155550004');
    await waitFor('the voicemail call to end', async () => (okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key })).call_status === 'completed' ? true : undefined));
    // Its analysis job runs (after its delay) and finishes without asking the model.
    await waitFor('the analysis job to finish', async () => {
      const [job] = await t.app.orm.em.fork().execute(`select state from pgboss.job where name = 'call.analyze' and singleton_key = ?`, [id]);
      return job?.state === 'completed' ? true : undefined;
    });
    expect(llm.requests).toHaveLength(0);
  });
});
