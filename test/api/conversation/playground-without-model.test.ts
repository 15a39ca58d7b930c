import { NO_MODEL } from '../../../src/services/conversation/playground.service';
import { firstError, gql } from '../graphql/graphql-client';
import { type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';

let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  t = await startTestApp();
  a = await tenant(t, 'A');
});
afterAll(() => t.close());

describe('the agent playground without a language model', () => {
  it('says how to configure one, pointing at docs/agents.md, on REST and GraphQL', async () => {
    expect(NO_MODEL).toContain('LLM_MODEL');
    expect(NO_MODEL).toContain('docs/agents.md');
    const res = await t.request('POST', `/v1/ai-agent/${a.agent.id}/test-chat`, { token: a.key, body: { messages: [{ role: 'user', content: 'Hi' }] } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: NO_MODEL, data: '' });
    const answer = await gql(t, 'mutation ($id: ID!) { testAgentTurn(id: $id, input: {messages: [{role: "user", content: "Hi"}]}) { reply } }', { id: a.agent.id }, a.key);
    expect(answer.errors?.[0]?.message).toBe(NO_MODEL);
    expect(firstError(answer)).toMatchObject({ code: 'FAILED_PRECONDITION' });
  });
});
