import { startTestApp, type TestApp } from '../../support/harness';
import { gql, subscribe, wsClient } from '../graphql/graphql-client';
import { FLOW_ENV, flowApi, Receiver } from './support';

let t: TestApp;
let rx: Receiver;

beforeAll(async () => {
  t = await startTestApp(FLOW_ENV);
  rx = await Receiver.start();
});
afterAll(async () => {
  await t.close();
  await rx.close();
});

const TRIGGER = 'mutation($id: ID!, $variables: JSONObject) { triggerWebhook(id: $id, variables: $variables) { id flowId status attemptNumber } }';
const UPDATED = 'subscription($webhookId: ID) { webhookExecutionUpdated(webhookId: $webhookId) { id flowId status } }';

describe('flows over GraphQL', () => {
  it("triggerWebhook starts an execution whose every status reaches its own company's subscribers only", async () => {
    const a = await t.company('A');
    const b = await t.company('B');
    const flow = await flowApi(t, a.apiKey).create({ steps: [{ step_number: 1, webhook_url: `${rx.url}/gql`, webhook_body: { who: '{{name}}' } }] });
    const clientA = wsClient(t, a.apiKey);
    const clientB = wsClient(t, b.apiKey);
    const subA = await subscribe(clientA, UPDATED, { webhookId: flow.id });
    const subB = await subscribe(clientB, UPDATED, {});

    const res = await gql(t, TRIGGER, { id: flow.id, variables: { name: 'Ada' } }, a.apiKey);
    expect(res.errors).toBeUndefined();
    const execution = res.data.triggerWebhook;
    expect(execution).toMatchObject({ flowId: flow.id, status: 'IN_PROGRESS', attemptNumber: 1 });

    const seen: string[] = [];
    while (seen[seen.length - 1] !== 'SUCCESS') {
      const { webhookExecutionUpdated: e } = await subA.next();
      expect(e).toMatchObject({ id: execution.id, flowId: flow.id });
      seen.push(e.status);
    }
    expect(seen).toContain('SUCCESS');
    expect(JSON.parse(rx.at('/gql')[0].body)).toEqual({ who: 'Ada' });
    expect(subB.received).toEqual([]);

    const log = await gql(
      t,
      'query($id: ID!) { webhook(id: $id) { executions(first: 5) { edges { node { id stepLog { attemptNumber stepNumber status tries request response } } } } } }',
      { id: flow.id },
      a.apiKey,
    );
    expect(log.errors).toBeUndefined();
    const [run] = log.data.webhook.executions.edges[0].node.stepLog;
    expect(run).toMatchObject({ attemptNumber: 1, stepNumber: 1, status: 'SUCCESS', tries: 1 });
    expect(run.request).toMatchObject({ method: 'POST' });
    expect(run.response).toMatchObject({ status: 200 });

    const foreign = await gql(t, TRIGGER, { id: flow.id }, b.apiKey);
    expect(foreign.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    subA.close();
    subB.close();
    await clientA.dispose();
    await clientB.dispose();
  });
});
