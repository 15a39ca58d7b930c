import type { Client } from 'graphql-ws';
import { Call } from '../../../src/entities';
import type { CallStatus } from '../../../src/entities/call.entity';
import { type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { gqlData, subscribe, wsClient } from './graphql-client';
import { insertCalls, insertExecutions } from './records';

let t: TestApp;
let a: Tenant;
let b: Tenant;
const clients: Client[] = [];

beforeAll(async () => {
  // No job workers: calls stay where setStatus puts them (test/calls covers real transitions).
  t = await startTestApp({ JOB_WORKERS: '0' });
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
});
afterAll(async () => {
  await Promise.all(clients.map(async (c) => c.dispose()));
  await t.close();
});

const connect = (token: string, app = t): Client => {
  const client = wsClient(app, token);
  clients.push(client);
  return client;
};

const CALL_CHANGED = `subscription($callId: ID, $campaignId: ID, $workspace: String) {
  callStatusChanged(callId: $callId, campaignId: $campaignId, workspace: $workspace) { id callStatus workspaceId aiAgent { id name } }
}`;

const makeCall = async (tenantOf: Tenant, from: string, workspace = 'default') =>
  (
    await gqlData(
      t,
      'mutation($input: MakeCallInput!) { makeCall(input: $input) { id } }',
      { input: { aiAgentId: tenantOf.agent.id, callFrom: from, callTo: '+14155550123', workspace } },
      tenantOf.key,
    )
  ).makeCall.id as string;

/** Moves a call by hand, as the lifecycle does: change it, then publish after commit. */
async function setStatus(call: Pick<Call, 'id'>, status: CallStatus, tenantOf: Tenant): Promise<void> {
  const em = t.app.orm.em.fork();
  const row = await em.findOneOrFail(Call, { id: call.id, company: tenantOf.companyId });
  row.callStatus = status;
  await em.flush();
  await t.app.events.publish('call.updated', { companyId: tenantOf.companyId, callId: row.id, campaignId: row.campaign?.id ?? null, workspace: row.workspaceId });
}

describe('callStatusChanged', () => {
  it('delivers the full current call to its own company only', async () => {
    const subA = await subscribe(connect(a.key), CALL_CHANGED);
    const subB = await subscribe(connect(b.key), CALL_CHANGED);
    const aCall = await makeCall(a, '+14155552671');
    expect(await subA.next()).toEqual({
      callStatusChanged: { id: aCall, callStatus: 'PSTN_QUEUED', workspaceId: 'default', aiAgent: { id: a.agent.id, name: 'A agent' } },
    });
    // B's own call comes through B's subscription first: A's event, published earlier on
    // the same bus, never reached it.
    const bCall = await makeCall(b, '+14155552672');
    expect((await subB.next()).callStatusChanged.id).toBe(bCall);
    await setStatus({ id: aCall }, 'ringing', a);
    expect((await subA.next()).callStatusChanged).toMatchObject({ id: aCall, callStatus: 'RINGING' });
    expect(subA.received).toHaveLength(2);
    expect(subB.received).toHaveLength(1);
    subA.close();
    subB.close();
  });

  it('filters by call, campaign and workspace', async () => {
    const [campaignCall, other] = await insertCalls(t, a, 2, { callStatus: 'ringing' });
    await t.app.orm.em.fork().nativeUpdate(Call, { id: other.id }, { campaign: null, workspaceId: 'sales' });
    const byCall = await subscribe(connect(a.key), CALL_CHANGED, { callId: campaignCall.id });
    const byCampaign = await subscribe(connect(a.key), CALL_CHANGED, { campaignId: a.campaign.id });
    const byWorkspace = await subscribe(connect(a.key), CALL_CHANGED, { workspace: 'sales' });
    await setStatus(other, 'in-progress', a);
    await setStatus(campaignCall, 'in-progress', a);
    expect((await byCall.next()).callStatusChanged.id).toBe(campaignCall.id);
    expect((await byCampaign.next()).callStatusChanged.id).toBe(campaignCall.id);
    expect((await byWorkspace.next()).callStatusChanged).toMatchObject({ id: other.id, workspaceId: 'sales', callStatus: 'IN_PROGRESS' });
    for (const s of [byCall, byCampaign, byWorkspace]) s.close();
  });
});

describe('webhookExecutionUpdated', () => {
  const EXECUTION = `subscription($webhookId: ID, $executionId: ID) {
    webhookExecutionUpdated(webhookId: $webhookId, executionId: $executionId) { id flowId status attemptNumber }
  }`;

  it('delivers the current execution, with its flow id, to its own company only', async () => {
    const [aExec] = await insertExecutions(t, a, 1);
    const [bExec] = await insertExecutions(t, b, 1);
    const subA = await subscribe(connect(a.key), EXECUTION, { webhookId: a.flow.id });
    const subB = await subscribe(connect(b.key), EXECUTION);
    await t.app.events.publish('webhook.execution.updated', { companyId: a.companyId, flowId: a.flow.id, executionId: aExec.id });
    expect(await subA.next()).toEqual({ webhookExecutionUpdated: { id: aExec.id, flowId: a.flow.id, status: 'SCHEDULED', attemptNumber: 1 } });
    await t.app.events.publish('webhook.execution.updated', { companyId: b.companyId, flowId: b.flow.id, executionId: bExec.id });
    expect((await subB.next()).webhookExecutionUpdated.id).toBe(bExec.id);
    subA.close();
    subB.close();
  });
});

describe.each([
  ['PostgreSQL LISTEN/NOTIFY', { JOB_WORKERS: '0' }, 'PgEventBus'],
  ['Redis pub/sub', { JOB_WORKERS: '0', REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' }, 'RedisEventBus'],
])('across replicas, over %s', (_name, env: Record<string, string>, bus) => {
  let first: TestApp;
  let second: TestApp;
  let tenantA: Tenant;

  beforeAll(async () => {
    first = await startTestApp(env);
    second = await startTestApp({ ...env, DATABASE_URL: first.app.orm.config.get('clientUrl') });
    tenantA = await tenant(first, 'A');
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('delivers to a client of replica A a call made through replica B', async () => {
    expect(first.app.events.constructor.name).toBe(bus);
    const sub = await subscribe(connect(tenantA.key, first), CALL_CHANGED);
    const made = await gqlData(
      second,
      'mutation($input: MakeCallInput!) { makeCall(input: $input) { id } }',
      { input: { aiAgentId: tenantA.agent.id, callFrom: '+14155552671', callTo: '+14155550123' } },
      tenantA.key,
    );
    expect(await sub.next()).toEqual({
      callStatusChanged: { id: made.makeCall.id, callStatus: 'PSTN_QUEUED', workspaceId: 'default', aiAgent: { id: tenantA.agent.id, name: 'A agent' } },
    });
    sub.close();
  });
});
