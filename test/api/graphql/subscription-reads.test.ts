import type { Client } from 'graphql-ws';
import pg from 'pg';
import { twoTenants, type Tenant } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { queriesOf } from '../../support/queries';
import { waitFor } from '../../support/wait';
import { subscribe, type Subscription, wsClient } from './graphql-client';
import { insertCalls, insertExecutions } from './records';

let t: TestApp;
let a: Tenant;
let b: Tenant;
const clients: Client[] = [];

beforeAll(async () => {
  // No job workers, no sweeps: the only statements run while an event is delivered are its reads.
  ({ t, a, b } = await twoTenants({ JOB_WORKERS: '0', CALL_SWEEP_MS: '3600000' }));
});
afterAll(async () => {
  await Promise.all(clients.map(async (c) => c.dispose()));
  await t.close();
});

const SUBSCRIBERS = 12;

async function subscribers<T>(tenant: Tenant, count: number, query: string): Promise<Subscription<T>[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const client = wsClient(t, tenant.key);
      clients.push(client);
      return subscribe<T>(client, query);
    }),
  );
}

describe('one event read once per company, whatever the number of subscribers', () => {
  it('callStatusChanged: N subscribers of a company cost one read of the call (and one per relation)', async () => {
    const query = 'subscription { callStatusChanged { id callStatus aiAgent { name } } }';
    const ofA = await subscribers<any>(a, SUBSCRIBERS, query);
    const ofB = await subscribers<any>(b, 3, query);
    const [aCall] = await insertCalls(t, a, 1, { callStatus: 'ringing' });
    const [bCall] = await insertCalls(t, b, 1, { callStatus: 'in-progress' });

    const reads = await queriesOf(t, async () => {
      await t.app.events.publish('call.updated', { companyId: a.companyId, callId: aCall.id, campaignId: a.campaign.id, workspace: 'default' });
      for (const sub of ofA) expect(await sub.next()).toEqual({ callStatusChanged: { id: aCall.id, callStatus: 'RINGING', aiAgent: { name: 'A agent' } } });
    });
    expect(reads).toBe(2); // the call, then its agent

    // B's subscribers never saw A's event: their first delivery is B's own call, read for B.
    await t.app.events.publish('call.updated', { companyId: b.companyId, callId: bCall.id, campaignId: b.campaign.id, workspace: 'default' });
    for (const sub of ofB) expect(await sub.next()).toEqual({ callStatusChanged: { id: bCall.id, callStatus: 'IN_PROGRESS', aiAgent: { name: 'B agent' } } });
    for (const sub of [...ofA, ...ofB]) sub.close();
  });

  it('each event reads current state: a second event of the same call is read again', async () => {
    const [call] = await insertCalls(t, a, 1, { callStatus: 'ringing' });
    const subs = await subscribers<any>(a, 3, 'subscription { callStatusChanged { id callStatus } }');
    const event = { companyId: a.companyId, callId: call.id, campaignId: a.campaign.id, workspace: 'default' };
    await t.app.events.publish('call.updated', event);
    for (const sub of subs) expect((await sub.next()).callStatusChanged.callStatus).toBe('RINGING');
    await t.app.orm.em.fork().nativeUpdate('Call', { id: call.id }, { callStatus: 'completed' });
    await t.app.events.publish('call.updated', event);
    for (const sub of subs) expect((await sub.next()).callStatusChanged.callStatus).toBe('COMPLETED');
    for (const sub of subs) sub.close();
  });

  it('a subscriber behind the stream gets each event with the state of its own transition', async () => {
    const [call] = await insertCalls(t, a, 1, { callStatus: 'ringing' });
    const [sub] = await subscribers<any>(a, 1, 'subscription { callStatusChanged { callStatus aiAgent { name } } }');
    const event = { companyId: a.companyId, callId: call.id, campaignId: a.campaign.id, workspace: 'default' };
    let callReads = 0;
    const stopListening = t.statements.listen((sql) => {
      // A read of a call's view (its columns aliased as the view's fields).
      if (/ AS "callStatus"/.test(sql)) callReads += 1;
    });
    // With the agents' table locked, the subscriber stalls on its first event's `aiAgent`,
    // while two more transitions are stored and announced.
    const locker = new pg.Client({ connectionString: t.databaseUrl });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE ai_agents IN ACCESS EXCLUSIVE MODE');
      const transitions: [string | null, number][] = [
        [null, 1],
        ['in-progress', 2],
        ['completed', 3],
      ];
      for (const [status, reads] of transitions) {
        if (status) await t.app.orm.em.fork().nativeUpdate('Call', { id: call.id }, { callStatus: status });
        await t.app.events.publish('call.updated', event);
        await waitFor(`the read of event ${reads}`, async () => (callReads >= reads ? true : undefined));
      }
      await locker.query('COMMIT');
    } finally {
      stopListening();
      await locker.end();
    }
    const delivered = [await sub.next(), await sub.next(), await sub.next()].map((d) => d.callStatusChanged.callStatus);
    expect(delivered).toEqual(['RINGING', 'IN_PROGRESS', 'COMPLETED']);
    sub.close();
  });

  it("callStatusChanged: the events of a company's calls that arrive together share their reads", async () => {
    const calls = await insertCalls(t, a, 5, { callStatus: 'ringing' });
    const [sub] = await subscribers<any>(a, 1, 'subscription { callStatusChanged { id callStatus } }');
    let callReads = 0;
    const stopListening = t.statements.listen((sql) => {
      if (/ AS "callStatus"/.test(sql)) callReads += 1;
    });
    try {
      await Promise.all(calls.map(async (call) => t.app.events.publish('call.updated', { companyId: a.companyId, callId: call.id, campaignId: a.campaign.id, workspace: 'default' })));
      const delivered = [];
      for (const _ of calls) delivered.push((await sub.next()).callStatusChanged);
      expect(delivered).toEqual(expect.arrayContaining(calls.map((call) => ({ id: call.id, callStatus: 'RINGING' }))));
    } finally {
      stopListening();
    }
    // The first event's read goes at once; the four that came while it ran, in one more.
    expect(callReads).toBe(2);
    sub.close();
  });

  it('webhookExecutionUpdated: N subscribers of a company cost one read of the execution', async () => {
    const [execution] = await insertExecutions(t, a, 1);
    const subs = await subscribers<any>(a, SUBSCRIBERS, 'subscription { webhookExecutionUpdated { id status } }');
    const reads = await queriesOf(t, async () => {
      await t.app.events.publish('webhook.execution.updated', { companyId: a.companyId, flowId: a.flow.id, executionId: execution.id });
      for (const sub of subs) expect(await sub.next()).toEqual({ webhookExecutionUpdated: { id: execution.id, status: 'SCHEDULED' } });
    });
    expect(reads).toBe(1);
    for (const sub of subs) sub.close();
  });
});
