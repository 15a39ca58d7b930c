import { okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { queriesOf } from '../../support/queries';
import { gqlData } from './graphql-client';
import { insertCalls, insertExecutions } from './records';

let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  // No job workers, hence no periodic sweeps: they would share the ORM's query log with the requests counted.
  t = await startTestApp({ JOB_WORKERS: '0' });
  a = await tenant(t, 'A');
});
afterAll(() => t.close());

let made = 0;

/** Adds `n` campaigns, each with its own agent, a contact and two calls, and `n` flows with two executions. */
async function grow(n: number): Promise<void> {
  for (const i of Array.from({ length: n }, () => made++)) {
    const post = async (path: string, body: unknown) => okData(await t.request('POST', path, { token: a.key, body }));
    const agent = await post('/v1/ai-agent', { name: `Agent ${i}` });
    await post(`/v1/ai-agent/${agent.id}/publish`, {});
    await post(`/v1/ai-agent/${agent.id}/publish`, {});
    const campaign = await post('/v1/campaigns', { name: `Campaign ${i}`, ai_agent_id: agent.id });
    const contact = await post('/v1/contacts', { phone_number: `+1415555${String(1000 + i)}`, campaign_id: campaign.id });
    await insertCalls(t, { ...a, agent, campaign, contact }, 2);
    const flow = await post('/v1/webhooks', { name: `Flow ${i}`, steps: [{ step_number: 1, webhook_url: 'https://example.com' }] });
    await insertExecutions(t, a, 2, flow.id);
  }
}

const QUERIES = {
  'campaigns with their agent and calls, and each call with its agent, campaign and contact': `{
    campaigns(first: 100) { totalCount edges { node { id aiAgent { name }
      calls(first: 10) { totalCount edges { node { id aiAgent { name } campaign { name } contact { firstname } } } } } } }
  }`,
  'calls with their agent, campaign and contact': `{
    calls(first: 100) { totalCount edges { node { id aiAgent { name } campaign { name aiAgent { name } } contact { firstname campaign { name } } } } }
  }`,
  'agents with their versions and published version': '{ aiAgents { id versions(first: 5) { totalCount edges { node { version prompt } } } publishedVersion { version } } }',
  'contacts with their campaign': '{ contacts(first: 100) { edges { node { id campaign { name } } } } }',
  'contacts with their calls': '{ contacts(first: 100) { edges { node { id calls(first: 5) { totalCount edges { node { id callStatus } } } } } } }',
  'flows with their steps and executions': '{ webhooks { id steps { stepNumber } executions(first: 5) { totalCount edges { node { id flowId } } } } }',
};

describe('a list of N records costs the same number of SQL queries whatever N', () => {
  const small: Record<string, { queries: number; size: number }> = {};

  beforeAll(async () => {
    await grow(2);
    await gqlData(t, '{ phoneNumbers { id } }', {}, a.key); // authenticates once: the key is then cached
    for (const [name, query] of Object.entries(QUERIES)) {
      let data: unknown;
      const queries = await queriesOf(t, async () => {
        data = await gqlData(t, query, {}, a.key);
      });
      small[name] = { queries, size: JSON.stringify(data).length };
    }
    await grow(8);
    // Authenticates again: growing may outlast the key's trust (AUTH_TRUST_S), whose renewal would count.
    await gqlData(t, '{ phoneNumbers { id } }', {}, a.key);
  });

  it.each(Object.entries(QUERIES))('%s', async (name, query) => {
    let data: any;
    const large = await queriesOf(t, async () => {
      data = await gqlData(t, query, {}, a.key);
    });
    expect(JSON.stringify(data).length).toBeGreaterThan(3 * small[name].size);
    expect(large).toBe(small[name].queries);
    expect(large).toBeLessThanOrEqual(8);
  });
});
