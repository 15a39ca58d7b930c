import { jobCaller } from '../../../src/services/platform/jobs/job-catalogue';
import { FROM, okData, tenant, type Tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import { gql, gqlData } from '../graphql/graphql-client';
import { FLOW_ENV, flowSettled, Receiver } from './support';

const CALL_ENV = { ...FLOW_ENV, SIM_RING_MS: '30', SIM_TALK_MS: '400' };

/** The flow step that posts what an event carries to `path` of the receiver. */
const reportTo = (receiver: Receiver, path: string) => [
  {
    step_number: 1,
    webhook_url: `${receiver.url}${path}`,
    webhook_method: 'POST',
    webhook_body: { event: '{{event}}', occurred_at: '{{occurred_at}}', id: '{{call.id}}', status: '{{call.call_status}}', campaign: '{{campaign}}', call: '{{call}}' },
  },
];

const makeCall = (t: TestApp, a: Tenant, to: string) => t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: a.number.phone_number, call_to: to } });

const bodies = (receiver: Receiver, path: string) => receiver.at(path).map((r) => JSON.parse(r.body));

describe('a flow subscribed to call.ended', () => {
  let receiver: Receiver;
  let t: TestApp;
  let replica: TestApp;

  beforeAll(async () => {
    receiver = await Receiver.start();
    t = await startTestApp(CALL_ENV);
    replica = await startTestApp({ ...CALL_ENV, DATABASE_URL: t.databaseUrl });
  });
  afterAll(async () => {
    await replica.close();
    await t.close();
    await receiver.close();
  });

  it('receives every ended call of its company exactly once, with two replicas and one restarted mid-way', async () => {
    const a = await tenant(t, 'A');
    const b = await tenant(t, 'B', '+14155552672');
    const flow = okData(await t.request('POST', '/v1/webhooks', { token: a.key, body: { name: 'ended', events: ['call.ended'], steps: reportTo(receiver, '/a') } }));
    expect(flow).toMatchObject({ events: ['call.ended'], event_filters: {} });
    const bFlow = okData(await t.request('POST', '/v1/webhooks', { token: b.key, body: { name: 'ended', events: ['call.ended'], steps: reportTo(receiver, '/b') } }));
    // Subscribed to another event: must not hear of ended calls.
    const otherFlow = okData(await t.request('POST', '/v1/webhooks', { token: a.key, body: { name: 'done', events: ['campaign.completed'], steps: reportTo(receiver, '/other') } }));

    const callees = ['+14155550101', '+14155550001', '+14155550002', '+14155550003', '+14155550102', '+14155550004'];
    const made = await Promise.all(callees.map((to, i) => makeCall(i % 2 ? replica : t, a, to)));
    const ids = made.map((r) => okData(r).id as string);
    const bCall = okData(await makeCall(t, b, '+14155550103')).id as string;

    // Some calls are still ringing or talking when the first replica goes down and comes back.
    await waitFor('a first ended call to be reported', async () => (receiver.at('/a').length > 0 ? true : undefined), 20_000);
    await t.restart();

    const reported = await waitFor('every ended call to be reported', async () => (receiver.at('/a').length >= ids.length ? bodies(receiver, '/a') : undefined), 30_000);
    await waitFor("B's ended call to be reported", async () => (receiver.at('/b').length > 0 ? true : undefined), 30_000);
    for (const settled of [flow, otherFlow]) await flowSettled(t, a.companyId, settled.id);
    await flowSettled(t, b.companyId, bFlow.id);
    expect(bodies(receiver, '/a')).toHaveLength(ids.length);
    expect(reported.map((r) => r.id).sort()).toEqual([...ids].sort());
    for (const body of reported) {
      const call = okData(await t.request('GET', `/v1/calls/${body.id}`, { token: a.key }));
      expect(body).toMatchObject({ event: 'call.ended', status: call.call_status, campaign: '' });
      expect(['completed', 'busy', 'no-answer', 'failed']).toContain(body.status);
      expect(body.call).toEqual(call);
      expect(new Date(body.occurred_at).toISOString()).toBe(call.ended_at);
    }
    expect(bodies(receiver, '/b').map((r) => r.id)).toEqual([bCall]);
    expect(receiver.at('/other')).toHaveLength(0);

    // The same event recorded again, and delivered by both replicas at once: still one execution per call.
    const em = t.app.orm.em.fork();
    await em.transactional((tx) => t.app.services.flowEvents.record(tx, 'call.ended', { id: ids[0], companyId: a.companyId }, new Date()));
    await Promise.all([t, replica, t, replica].map((app) => app.app.services.flowEvents.deliver(jobCaller(app.app.orm, a.companyId))));
    const [row] = await em.execute('select count(*)::int as n from webhook_executions where company_id = ? and flow_id = ?', [a.companyId, flow.id]);
    expect(row.n).toBe(ids.length);
  }, 90_000);
});

describe('event filters', () => {
  let receiver: Receiver;
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;

  beforeAll(async () => {
    receiver = await Receiver.start();
    t = await startTestApp(CALL_ENV);
    a = await tenant(t, 'A');
    b = await tenant(t, 'B', '+14155552672');
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('trigger call.started only for the records they name (and running flows), with the call as it was when it started', async () => {
    const other = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Other agent', prompt: 'Hi' } }));
    const create = (path: string, event_filters: Record<string, unknown>) =>
      t.request('POST', '/v1/webhooks', { token: a.key, body: { name: path, events: ['call.started'], event_filters, steps: reportTo(receiver, path) } });
    const flows = [
      okData(await create('/agent', { ai_agent_id: a.agent.id })),
      okData(await create('/other-agent', { ai_agent_id: other.id })),
      okData(await create('/sales', { workspace: 'sales' })),
    ];
    const stopped = okData(await create('/stopped', {}));
    okData(await t.request('PATCH', `/v1/webhooks/${stopped.id}`, { token: a.key, body: { status: 'stopped' } }));
    const id = okData(await makeCall(t, a, '+14155550111')).id;

    const [started] = await waitFor('call.started to be reported', async () => (receiver.at('/agent').length > 0 ? bodies(receiver, '/agent') : undefined));
    expect(started).toMatchObject({ event: 'call.started', id, status: 'in-progress' });
    await waitFor('the call to end', async () => {
      const call = okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));
      return call.call_status === 'completed' ? call : undefined;
    });
    for (const flow of [...flows, stopped]) await flowSettled(t, a.companyId, flow.id);
    expect(receiver.at('/agent')).toHaveLength(1);
    expect(receiver.at('/other-agent')).toHaveLength(0);
    expect(receiver.at('/sales')).toHaveLength(0);
    expect(receiver.at('/stopped')).toHaveLength(0);
  }, 30_000);

  it('send the event itself, {type, timestamp, data} as JSON, from a step without a body (a manual trigger sends none)', async () => {
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Default body', prompt: 'Hi' } }));
    const steps = [{ step_number: 1, webhook_url: `${receiver.url}/bare`, webhook_method: 'POST' }];
    const flow = okData(await t.request('POST', '/v1/webhooks', { token: a.key, body: { name: 'bare', events: ['call.ended'], event_filters: { ai_agent_id: agent.id }, steps } }));
    const id = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: agent.id, call_from: a.number.phone_number, call_to: '+14155550113' } })).id;
    const [sent] = await waitFor('call.ended to be reported', async () => (receiver.at('/bare').length > 0 ? receiver.at('/bare') : undefined), 20_000);
    const call = okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));
    expect(sent.headers['content-type']).toBe('application/json');
    expect(JSON.parse(sent.body)).toEqual({ type: 'call.ended', timestamp: call.ended_at, data: call });

    okData(await t.request('POST', `/v1/webhooks/${flow.id}/trigger`, { token: a.key, body: { variables: { note: 'manual' } } }));
    const manual = await waitFor('the manual trigger to arrive', async () => receiver.at('/bare')[1]);
    expect(manual.body).toBe('');
  }, 30_000);

  it('call.analyzed: recorded in the transaction that stores the analysis, delivered once it commits, never if it rolls back', async () => {
    const flow = okData(await t.request('POST', '/v1/webhooks', { token: a.key, body: { name: 'analyzed', events: ['call.analyzed'], steps: reportTo(receiver, '/analyzed') } }));
    const id = okData(await makeCall(t, a, '+14155550112')).id;
    const { flowEvents } = t.app.services;
    const em = t.app.orm.em.fork();
    await expect(
      em.transactional(async (tx) => {
        await flowEvents.record(tx, 'call.analyzed', { id, companyId: a.companyId }, new Date());
        throw new Error('analysis not stored');
      }),
    ).rejects.toThrow('analysis not stored');
    await em.transactional(async (tx) => {
      await tx.execute(`update calls set analysis_sentiment = 'positive' where id = ?`, [id]);
      await flowEvents.record(tx, 'call.analyzed', { id, companyId: a.companyId }, new Date());
    });
    await flowEvents.queue(a.companyId);
    const [analyzed] = await waitFor('call.analyzed to be reported', async () => (receiver.at('/analyzed').length > 0 ? bodies(receiver, '/analyzed') : undefined));
    expect(analyzed).toMatchObject({ event: 'call.analyzed', id });
    expect(analyzed.call.analysis_sentiment).toBe('positive');
    await flowSettled(t, a.companyId, flow.id);
    expect(receiver.at('/analyzed')).toHaveLength(1);
  });

  it("refuse unknown events and filters naming another company's records, naming the field", async () => {
    const post = (body: Record<string, unknown>) => t.request('POST', '/v1/webhooks', { token: a.key, body: { name: 'bad', ...body } });
    const fields = (res: { status: number; body: any }) => {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', message: 'Validation failed' });
      return res.body.data.map((f: { field: string }) => f.field);
    };
    expect(fields(await post({ events: ['call.ended', 'call.exploded'] }))).toEqual(['events[1]']);
    expect(fields(await post({ events: ['call.ended'], event_filters: { ai_agent_id: b.agent.id } }))).toEqual(['event_filters.ai_agent_id']);
    expect(fields(await post({ events: ['call.ended'], event_filters: { campaign_id: b.campaign.id } }))).toEqual(['event_filters.campaign_id']);
    expect(fields(await post({ event_filters: { color: 'red' } }))).toEqual(['event_filters.color']);
    const own = okData(await post({ events: ['call.ended'] }));
    const update = await t.request('PATCH', `/v1/webhooks/${own.id}`, { token: a.key, body: { event_filters: { campaign_id: b.campaign.id } } });
    expect(fields(update)).toEqual(['event_filters.campaign_id']);
    const updated = okData(await t.request('PATCH', `/v1/webhooks/${own.id}`, { token: a.key, body: { events: ['call.analyzed'], event_filters: { campaign_id: a.campaign.id } } }));
    expect(updated).toMatchObject({ events: ['call.analyzed'], event_filters: { campaign_id: a.campaign.id } });
  });

  it('are set and read over GraphQL too, with the same rules', async () => {
    const mutation = `mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { id events eventFilters { workspace aiAgentId campaignId } } }`;
    const created = await gqlData(t, mutation, { input: { name: 'gql', events: ['call.ended'], eventFilters: { aiAgentId: a.agent.id } } }, a.key);
    expect(created.createWebhook).toMatchObject({ events: ['call.ended'], eventFilters: { workspace: null, aiAgentId: a.agent.id, campaignId: null } });
    const foreign = await gql(t, mutation, { input: { name: 'gql', events: ['call.ended'], eventFilters: { aiAgentId: b.agent.id } } }, a.key);
    expect(foreign.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'eventFilters.aiAgentId' }] });
    // Validated as it arrives, in camelCase: the nested field is named as REST names it.
    const malformed = await gql(t, mutation, { input: { name: 'gql', eventFilters: { campaignId: 'x' } } }, a.key);
    expect(malformed.errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'eventFilters.campaignId', message: 'Must be a UUID' }] });
  });
});

describe('a flow subscribed to campaign.completed', () => {
  it('receives the campaign once, completed, when the dialer completes it', async () => {
    const receiver = await Receiver.start();
    const t = await startTestApp({ ...FLOW_ENV, SIM_RING_MS: '5', SIM_TALK_MS: '5', CAMPAIGN_SWEEP_MS: '100' });
    try {
      const a = await tenant(t, 'A', FROM);
      const flow = okData(
        await t.request('POST', '/v1/webhooks', {
          token: a.key,
          body: {
            name: 'done',
            events: ['campaign.completed'],
            event_filters: { campaign_id: a.campaign.id },
            steps: [
              {
                step_number: 1,
                webhook_url: `${receiver.url}/done`,
                webhook_method: 'POST',
                webhook_body: { event: '{{event}}', id: '{{campaign.id}}', status: '{{campaign.status}}', progress: '{{campaign.call_progress}}', campaign: '{{campaign}}' },
              },
            ],
          },
        }),
      );
      const window = { call_time_of_day_from: '00:00:00', call_time_of_day_to: '23:59:59', days_of_week: [1, 2, 3, 4, 5, 6, 7], time_zone: 'UTC', status: 'active' };
      const res = await t.request('POST', `/compaign/v1/campaign/update/${a.campaign.id}`, { token: a.key, body: window });
      expect(res.body).toMatchObject({ status: 'ok' });
      const [done] = await waitFor('campaign.completed to be reported', async () => (receiver.at('/done').length > 0 ? bodies(receiver, '/done') : undefined), 20_000);
      const { campaign, ...fields } = done;
      expect(fields).toEqual({ event: 'campaign.completed', id: a.campaign.id, status: 'completed', progress: 100 });
      const read = okData(await t.request('GET', `/v1/campaigns/by-id/${a.campaign.id}`, { token: a.key }));
      expect(campaign).toEqual({ ...read, updated_at: campaign.updated_at });
      await flowSettled(t, a.companyId, flow.id);
      expect(receiver.at('/done')).toHaveLength(1);
    } finally {
      await t.close();
      await receiver.close();
    }
  }, 40_000);
});
