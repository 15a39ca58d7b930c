import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { firstError, gql, gqlData } from './graphql-client';

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await startTestApp();
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
});
afterAll(() => t.close());

const PUBLISH = `mutation($id: ID!, $input: PublishAiAgentInput) { publishAiAgent(id: $id, input: $input) { agentId version note publishedAt prompt } }`;
const VERSIONS = `query($id: ID!, $after: String) { aiAgent(id: $id) { publishedVersion { version prompt }
  versions(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { version note prompt } } } } }`;

describe('agent versions over GraphQL', () => {
  it('publishes, rolls back and pages the versions newest first, with the latest as publishedVersion', async () => {
    const agent = await gqlData(t, 'mutation { createAiAgent(input: { name: "G", prompt: "one" }) { id publishedVersion { version } } }', {}, a.key).then((d) => d.createAiAgent);
    expect(agent.publishedVersion).toBeNull();
    const first = (await gqlData(t, PUBLISH, { id: agent.id, input: { note: 'launch' } }, a.key)).publishAiAgent;
    expect(first).toEqual({ agentId: agent.id, version: 1, note: 'launch', publishedAt: expect.any(String), prompt: 'one' });
    await gqlData(t, 'mutation($id: ID!) { updateAiAgent(id: $id, input: { prompt: "two" }) { id } }', { id: agent.id }, a.key);
    expect((await gqlData(t, PUBLISH, { id: agent.id }, a.key)).publishAiAgent).toMatchObject({ version: 2, note: null, prompt: 'two' });
    expect((await gqlData(t, PUBLISH, { id: agent.id, input: { fromVersion: 1 } }, a.key)).publishAiAgent).toMatchObject({ version: 3, prompt: 'one' });

    const page = (await gqlData(t, VERSIONS, { id: agent.id }, a.key)).aiAgent;
    expect(page.publishedVersion).toEqual({ version: 3, prompt: 'one' });
    expect(page.versions.totalCount).toBe(3);
    expect(page.versions.edges.map((e: any) => e.node.version)).toEqual([3, 2]);
    const next = (await gqlData(t, VERSIONS, { id: agent.id, after: page.versions.pageInfo.endCursor }, a.key)).aiAgent;
    expect(next.versions.edges.map((e: any) => e.node)).toEqual([{ version: 1, note: 'launch', prompt: 'one' }]);
    expect(next.versions.pageInfo.hasNextPage).toBe(false);
  });

  it("names the field of a version that does not exist, and hides other companies' agents", async () => {
    const missing = await gql(t, PUBLISH, { id: a.agent.id, input: { fromVersion: 4 } }, a.key);
    expect(firstError(missing)).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'fromVersion', message: 'No such version of this agent' }] });
    expect(firstError(await gql(t, PUBLISH, { id: a.agent.id }, b.key))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('shows the version a call runs and a campaign pins', async () => {
    const { version } = (await gqlData(t, PUBLISH, { id: a.agent.id }, a.key)).publishAiAgent;
    const call = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550123' } }));
    expect((await gqlData(t, 'query($id: ID!) { call(id: $id) { aiAgentVersion } }', { id: call.id }, a.key)).call).toEqual({ aiAgentVersion: version });
    const campaign = await gqlData(
      t,
      'mutation($id: ID!, $v: Int!) { updateCampaign(id: $id, input: { aiAgentVersions: [{ version: $v, weight: 3 }] }) { aiAgentVersion aiAgentVersions { version weight } } }',
      { id: a.campaign.id, v: version },
      a.key,
    );
    expect(campaign.updateCampaign).toEqual({ aiAgentVersion: null, aiAgentVersions: [{ version, weight: 3 }] });
    const bad = await gql(t, 'mutation($id: ID!) { updateCampaign(id: $id, input: { aiAgentVersion: 99 }) { id } }', { id: a.campaign.id }, a.key);
    expect(firstError(bad)).toMatchObject({ code: 'BAD_USER_INPUT', fields: [{ field: 'aiAgentVersion', message: "No such version of the campaign's agent" }] });
  });
});
