import { type Tenant, oneTenant } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { firstError, gql, gqlData } from './graphql-client';
import { insertCalls } from './records';

let t: TestApp;
let a: Tenant;
let callId: string;

beforeAll(async () => {
  ({ t, a } = await oneTenant());
  [{ id: callId }] = await insertCalls(t, a, 1);
  await insertCalls(t, a, 4);
});
afterAll(() => t.close());

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const PAGE = `query($after: String) { calls(first: 2, after: $after) {
  edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;

describe('PageInfo (Relay cursor connections)', () => {
  it('has startCursor and endCursor of the page ends, and hasPreviousPage once a page starts after a cursor', async () => {
    const first = (await gqlData(t, PAGE, {}, a.key)).calls;
    expect(first.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: first.edges[0].cursor,
      endCursor: first.edges[1].cursor,
    });
    const second = (await gqlData(t, PAGE, { after: first.pageInfo.endCursor }, a.key)).calls;
    expect(second.pageInfo).toMatchObject({ hasPreviousPage: true, startCursor: second.edges[0].cursor, endCursor: second.edges[1].cursor });
    expect(second.pageInfo.startCursor).not.toBe(first.pageInfo.startCursor);
  });

  it('has null cursors on an empty page', async () => {
    const data = await gqlData(t, '{ calls(workspace: "nowhere") { pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }', {}, a.key);
    expect(data.calls.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null });
  });
});

describe('lookups by id', () => {
  it('answer null for an unknown id, leaving their siblings and the response error-free', async () => {
    const res = await gql(
      t,
      `query($u: ID!, $c: ID!) { call(id: $u) { id } campaign(id: $u) { id } contact(id: $u) { id } aiAgent(id: $u) { id }
        webhook(id: $u) { id } node(id: $u) { id } known: campaign(id: $c) { id } }`,
      { u: UNKNOWN, c: a.campaign.id },
      a.key,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ call: null, campaign: null, contact: null, aiAgent: null, webhook: null, node: null, known: { id: a.campaign.id } });
  });

  it('still answer an error for a malformed id, on that field only', async () => {
    const res = await gql(t, 'query($c: ID!) { campaign(id: "not-a-uuid") { id } known: campaign(id: $c) { id } }', { c: a.campaign.id }, a.key);
    expect(firstError(res)).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(res.data).toEqual({ campaign: null, known: { id: a.campaign.id } });
  });
});

describe('node(id)', () => {
  it.each([
    ['Call', () => callId, 'callStatus'],
    ['Campaign', () => a.campaign.id, 'name'],
    ['Contact', () => a.contact.id, 'firstname'],
    ['AiAgent', () => a.agent.id, 'name'],
    ['WebhookFlow', () => a.flow.id, 'name'],
  ])('refetches a %s by the id every other field and REST use', async (type, id, field) => {
    const data = await gqlData(t, `query($id: ID!) { node(id: $id) { __typename id ... on ${type} { ${field} } } }`, { id: id() }, a.key);
    expect(data.node).toEqual({ __typename: type, id: id(), [field]: expect.anything() });
  });

  it('refetches the shared catalogues: an integration template (also by webhook(id)) and an agent template', async () => {
    const { integrationTemplates, aiAgentTemplates } = await gqlData(t, '{ integrationTemplates { id name } aiAgentTemplates { id name } }', {}, a.key);
    const [flow, agent] = [integrationTemplates[0], aiAgentTemplates[0]];
    const data = await gqlData(
      t,
      `query($f: ID!, $a: ID!) { flow: node(id: $f) { __typename id ... on WebhookFlow { name isTemplate } }
        webhook(id: $f) { id name isTemplate } agent: node(id: $a) { __typename id ... on AiAgent { name } } }`,
      { f: flow.id, a: agent.id },
      a.key,
    );
    expect(data).toEqual({
      flow: { __typename: 'WebhookFlow', id: flow.id, name: flow.name, isTemplate: true },
      webhook: { id: flow.id, name: flow.name, isTemplate: true },
      agent: { __typename: 'AiAgent', id: agent.id, name: agent.name },
    });
  });
});

describe('one vocabulary', () => {
  it('types closed sets as enums, dates as scalars, workspaces as workspaceId', async () => {
    await t.request('POST', `/compaign/v1/campaign/update/${a.campaign.id}`, {
      token: a.key,
      body: { started_at: '2026-12-01', number_of_call_attempts: [2], retry_delay: [5], retry_delay_unit: ['minutes'] },
    });
    const data = await gqlData(
      t,
      `query($c: ID!, $f: ID!, $k: ID!) {
        campaign(id: $c) { workspaceId startedAt retryDelayUnit }
        webhook(id: $f) { status flowDirection retryDelayUnit steps { webhookMethod } }
        call(id: $k) { callDirection } }`,
      { c: a.campaign.id, f: a.flow.id, k: callId },
      a.key,
    );
    expect(data.campaign).toEqual({ workspaceId: 'default', startedAt: '2026-12-01', retryDelayUnit: ['MINUTES'] });
    expect(data.webhook).toEqual({ status: 'RUNNING', flowDirection: 'OUTBOUND', retryDelayUnit: 'SECONDS', steps: [{ webhookMethod: 'POST' }] });
    expect(data.call).toEqual({ callDirection: 'OUTGOING' });

    const types = await gqlData(
      t,
      `{ campaign: __type(name: "Campaign") { fields { name type { name ofType { name } } } }
         flow: __type(name: "WebhookFlow") { fields { name type { name ofType { name } } } }
         run: __type(name: "WebhookStepRun") { fields { name type { name ofType { name } } } }
         node: __type(name: "Node") { possibleTypes { name } } }`,
      {},
      a.key,
    );
    const typeOf = (fields: { name: string; type: { name: string | null; ofType: { name: string } | null } }[], name: string) => {
      const field = fields.find((f) => f.name === name);
      return field && (field.type.name ?? field.type.ofType?.name);
    };
    expect(['workspace', 'workspaceId', 'startedAt', 'endedAt', 'ownerUserId'].map((f) => typeOf(types.campaign.fields, f))).toEqual([undefined, 'String', 'LocalDate', 'LocalDate', 'ID']);
    expect(typeOf(types.flow.fields, 'createdBy')).toBe('ID');
    expect(typeOf(types.run.fields, 'status')).toBe('StepRunStatus');
    expect(types.node.possibleTypes.map((p: { name: string }) => p.name).sort()).toEqual(['AiAgent', 'Call', 'Campaign', 'Contact', 'WebhookFlow']);
  });
});
