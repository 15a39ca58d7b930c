import { Call } from '../../../src/entities';
import { okData, type Tenant, oneTenant } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { firstError, gql, gqlData } from './graphql-client';
import { insertCalls, insertExecutions } from './records';

let t: TestApp;
let a: Tenant;

beforeAll(async () => ({ t, a } = await oneTenant()));
afterAll(() => t.close());

const TEMPLATE_AGENT = '6f1c0b5e-0a51-4c37-9a11-000000000001';

/** Walks a connection page by page with `first`, answering every node id in order. */
async function walk(field: string, args: string, first: number): Promise<{ ids: string[]; pages: number; total: number }> {
  const ids: string[] = [];
  let after: string | null = null;
  let pages = 0;
  let total = 0;
  for (;;) {
    const data: any = await gqlData(
      t,
      `query($first: Int!, $after: String) { ${field}(first: $first, after: $after${args}) {
        totalCount edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`,
      { first, after },
      a.key,
    );
    const conn = data[field];
    pages += 1;
    total = conn.totalCount;
    ids.push(...conn.edges.map((e: any) => e.node.id));
    if (conn.edges.length > 0) expect(conn.pageInfo.endCursor).toBe(conn.edges.at(-1).cursor);
    if (!conn.pageInfo.hasNextPage) return { ids, pages, total };
    after = conn.pageInfo.endCursor;
  }
}

describe('calls', () => {
  it('answers one call with camelCase fields and its relations as objects', async () => {
    const [call] = await insertCalls(t, a, 1, { callStatus: 'in-progress' });
    const data = await gqlData(
      t,
      `query($id: ID!) { call(id: $id) { id callStatus callTo callFrom aiAgentId campaignId contactId isTest cost priceUnit
        agentDynamicVariables { name value } createdAt aiAgent { id name } campaign { id name } contact { id firstname } } }`,
      { id: call.id },
      a.key,
    );
    expect(data.call).toMatchObject({
      id: call.id,
      callStatus: 'IN_PROGRESS',
      callTo: '+14155550199',
      aiAgentId: a.agent.id,
      campaignId: a.campaign.id,
      contactId: a.contact.id,
      isTest: false,
      cost: 0,
      priceUnit: 'USD',
      agentDynamicVariables: [],
      aiAgent: { id: a.agent.id, name: 'A agent' },
      campaign: { id: a.campaign.id, name: 'A campaign' },
      contact: { id: a.contact.id, firstname: 'Ada' },
    });
    expect(new Date(data.call.createdAt).toISOString()).toBe(data.call.createdAt);
  });

  it('pages through every call newest first, without gaps or repeats', async () => {
    const before = (await walk('calls', '', 100)).total;
    const inserted = await insertCalls(t, a, 5);
    const all = await walk('calls', '', 100);
    const paged = await walk('calls', '', 2);
    expect(all.ids.slice(0, 5)).toEqual(inserted.map((c) => c.id).reverse());
    expect(paged.ids).toEqual(all.ids);
    expect(new Set(paged.ids).size).toBe(before + 5);
    expect(paged.pages).toBe(Math.ceil((before + 5) / 2));
    expect(paged.total).toBe(before + 5);
  });

  it('filters by campaign, workspace and status', async () => {
    await insertCalls(t, a, 3, { campaign: null, contact: null, callStatus: 'busy', workspaceId: 'sales' });
    const sales = await walk('calls', ', workspace: "sales"', 2);
    expect(sales.ids).toHaveLength(3);
    const busy = await gqlData(t, '{ calls(status: BUSY) { totalCount edges { node { callStatus } } } }', {}, a.key);
    expect(busy.calls.totalCount).toBe(3);
    expect(busy.calls.edges.every((e: any) => e.node.callStatus === 'BUSY')).toBe(true);
    const ofCampaign = await gqlData(t, 'query($c: ID) { calls(campaignId: $c) { totalCount edges { node { campaignId } } } }', { c: a.campaign.id }, a.key);
    expect(ofCampaign.calls.edges.every((e: any) => e.node.campaignId === a.campaign.id)).toBe(true);
    expect(ofCampaign.calls.totalCount).toBeGreaterThan(0);
  });

  it("filters by contact, and answers a contact's own calls newest first on Contact.calls", async () => {
    const other = okData(await t.request('POST', '/v1/contacts', { token: a.key, body: { phone_number: '+14155550931' } }));
    const [older, newer] = await insertCalls(t, a, 2, { contact: other.id });
    await insertCalls(t, a, 1);
    const filtered = await gqlData(t, 'query($c: ID) { calls(contactId: $c) { totalCount edges { node { id contact { id } } } } }', { c: other.id }, a.key);
    expect(filtered.calls).toEqual({ totalCount: 2, edges: [newer, older].map((call) => ({ node: { id: call.id, contact: { id: other.id } } })) });
    const field = await gqlData(t, 'query($c: ID!) { contact(id: $c) { calls(first: 1) { totalCount pageInfo { hasNextPage } edges { node { id } } } } }', { c: other.id }, a.key);
    expect(field.contact.calls).toEqual({ totalCount: 2, pageInfo: { hasNextPage: true }, edges: [{ node: { id: newer.id } }] });
    const bad = await gql(t, '{ calls(contactId: "nope") { totalCount } }', {}, a.key);
    expect(firstError(bad)).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'contactId', message: 'Must be a UUID' }] }); // Deleted, the contact keeps its calls; the contact lists below count only the tenant's own.
    okData(await t.request('DELETE', `/v1/contacts/${other.id}`, { token: a.key }));
  });

  it('filters by creation time, from inclusive, before exclusive', async () => {
    const [first, second, third] = await insertCalls(t, a, 3, { campaign: null, contact: null, workspaceId: 'dated' });
    const ids = async (args: string) => (await gqlData(t, `{ calls(workspace: "dated"${args}) { totalCount edges { node { id } } } }`, {}, a.key)).calls.edges.map((e: any) => e.node.id);
    const at = (call: { createdAt: Date }) => call.createdAt.toISOString();
    expect(await ids(`, createdAfter: "${at(second)}"`)).toEqual([third.id, second.id]);
    expect(await ids(`, createdBefore: "${at(second)}"`)).toEqual([first.id]);
    expect(await ids(`, createdAfter: "${at(first)}", createdBefore: "${at(third)}"`)).toEqual([second.id, first.id]);
    const bad = await gql(t, '{ calls(createdAfter: "yesterday") { totalCount } }', {}, a.key);
    expect(firstError(bad)).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'createdAfter', message: 'Must be an ISO 8601 timestamp' }] });
  });

  it('reads only the columns a page selects, and answers them as the read of the whole call does', async () => {
    const [call] = await insertCalls(t, a, 1, { workspaceId: 'selected' });
    const turns = [
      { role: 'agent', text: 'Hello', at: '2026-01-02T03:04:05.000Z', latency_ms: 120, latency: { llm_first_token_ms: 80, first_text_ms: 120 } },
      { role: 'user', text: 'Hi', at: '2026-01-02T03:04:06.000Z' },
    ];
    await t.app.orm.em
      .fork()
      .nativeUpdate(
        Call,
        { id: call.id },
        { transcript: 'agent: Hello\nuser: Hi', transcriptObject: { turns }, cost: 0.5, costTelephony: 0.25, costLlm: 0.2, costRecording: 0.05, endedAt: new Date() },
      );
    const pageStatements = async (query: string, variables: Record<string, unknown> = {}) => {
      const ran: string[] = [];
      const stop = t.statements.listen((sql) => ran.push(sql));
      try {
        return { data: await gqlData(t, query, variables, a.key), ran: ran.filter((sql) => /FROM "calls" .*ORDER BY (calls\.)?created_at DESC/s.test(sql)) };
      } finally {
        stop();
      }
    };
    const lean = await pageStatements('{ calls(first: 1, workspace: "selected") { edges { cursor node { id status: callStatus aiAgent { id } } } } }');
    expect(lean.data.calls.edges).toEqual([{ cursor: expect.any(String), node: { id: call.id, status: 'COMPLETED', aiAgent: { id: a.agent.id } } }]);
    expect(lean.ran).toHaveLength(1);
    expect(lean.ran[0]).toContain('"ai_agent_id"');
    // The agent is read in the page's statement, its id only.
    expect(lean.ran[0]).toContain('LEFT JOIN "ai_agents"');
    expect(lean.ran[0]).not.toMatch(/transcript|metadata|agent_dynamic_variables|"prompt"|"name"/);
    const shown = `fragment Shown on Call { id transcript transcriptTurns { role text at latencyMs latency { llmFirstTokenMs firstTextMs voiceToVoiceMs } }
      cost costBreakdown { telephony llm recording total } createdAt endedAt startedAt ... on Node { id } contact { id firstname phoneNumber createdAt } aiAgent { id name createdAt ... on AiAgent { status } } }`;
    const full = await pageStatements(`query($id: ID!) { calls(first: 1, workspace: "selected") { edges { node { ...Shown } } } call(id: $id) { ...Shown } } ${shown}`, { id: call.id });
    expect(full.data.calls.edges[0].node).toEqual(full.data.call);
    expect(full.data.call).toMatchObject({ transcriptTurns: [{ text: 'Hello', latencyMs: 120 }, { text: 'Hi' }], costBreakdown: { total: 0.5, llm: 0.2 } });
    expect(full.ran[0]).toContain('"transcript_object"');
    expect(full.data.call.contact).toMatchObject({ id: a.contact.id, phoneNumber: expect.any(String) });
  });

  it('refuses a page over 100 and a bad cursor as input errors', async () => {
    const big = await gql(t, '{ calls(first: 101) { totalCount } }', {}, a.key);
    expect(firstError(big)).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'first', message: 'Must be between 1 and 100' }] });
    const cursor = await gql(t, '{ calls(after: "nonsense") { totalCount } }', {}, a.key);
    expect(firstError(cursor)).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'cursor', message: 'Invalid cursor' }] });
  });
});

describe('campaigns', () => {
  it('answers a campaign with its agent and its calls as a connection', async () => {
    const data = await gqlData(
      t,
      `query($id: ID!) { campaign(id: $id) { id name status workspaceId timeZone daysOfWeek numberOfCallAttempts allowNonLocalCalls
        aiAgent { id } calls(first: 2) { totalCount edges { node { id campaignId } } pageInfo { hasNextPage } } } }`,
      { id: a.campaign.id },
      a.key,
    );
    expect(data.campaign).toMatchObject({ id: a.campaign.id, name: 'A campaign', status: 'draft', workspaceId: 'default', aiAgent: { id: a.agent.id } });
    expect(data.campaign.calls.edges).toHaveLength(2);
    expect(data.campaign.calls.pageInfo.hasNextPage).toBe(true);
    expect(data.campaign.calls.edges.every((e: any) => e.node.campaignId === a.campaign.id)).toBe(true);
  });

  it('pages through campaigns, of every workspace or of one', async () => {
    for (let i = 0; i < 4; i++) {
      await t.request('POST', '/v1/campaigns', { token: a.key, body: { name: `Extra ${i}`, workspace: i % 2 ? 'sales' : 'default' } });
    }
    const all = await walk('campaigns', '', 2);
    expect(all.ids).toHaveLength(5);
    expect(all.total).toBe(5);
    const sales = await walk('campaigns', ', workspace: "sales"', 1);
    expect(sales.ids).toHaveLength(2);
    expect(sales.pages).toBe(2);
  });
});

describe('contacts', () => {
  it('pages through contacts with status and campaign filters, each with its campaign', async () => {
    await t.request('POST', '/v1/contacts', {
      token: a.key,
      body: [{ phone_number: '+14155550201', status: 'inactive' }, { phone_number: '+14155550202', campaign_id: a.campaign.id }, { phone_number: '+14155550203' }],
    });
    const all = await walk('contacts', '', 2);
    expect(all.ids).toHaveLength(4);
    expect((await walk('contacts', ', status: "inactive"', 2)).ids).toHaveLength(1);
    const data = await gqlData(t, 'query($c: ID) { contacts(campaignId: $c) { totalCount edges { node { phoneNumber campaign { id } } } } }', { c: a.campaign.id }, a.key);
    expect(data.contacts.totalCount).toBe(2);
    expect(data.contacts.edges.map((e: any) => e.node.campaign.id)).toEqual([a.campaign.id, a.campaign.id]);
    const one = await gqlData(t, 'query($id: ID!) { contact(id: $id) { id phoneNumber numberCountryCode } }', { id: a.contact.id }, a.key);
    expect(one.contact).toEqual({ id: a.contact.id, phoneNumber: '+14155550199', numberCountryCode: '1' });
  });

  it('searches first names, last names and phone numbers, in any case, wildcards taken literally', async () => {
    await t.request('POST', '/v1/contacts', {
      token: a.key,
      body: [
        { firstname: 'Grace', lastname: 'Hopper', phone_number: '+14155550301' },
        { firstname: 'Alan', lastname: 'Turing_', phone_number: '+14155550302' },
      ],
    });
    const search = async (text: string) => {
      const data = await gqlData(t, 'query($s: String) { contacts(search: $s) { totalCount edges { node { firstname } } } }', { s: text }, a.key);
      // The two contacts are created in one request, at the same instant: their order is the ids'.
      return { total: data.contacts.totalCount, names: data.contacts.edges.map((e: any) => e.node.firstname).sort() };
    };
    expect(await search('ADA')).toEqual({ total: 1, names: ['Ada'] });
    expect(await search('hopp')).toEqual({ total: 1, names: ['Grace'] });
    expect(await search('555030')).toEqual({ total: 2, names: ['Alan', 'Grace'] });
    expect(await search('ing_')).toEqual({ total: 1, names: ['Alan'] });
    expect(await search('g_a')).toEqual({ total: 0, names: [] });
    expect(await search('%')).toEqual({ total: 0, names: [] });
    expect(firstError(await gql(t, '{ contacts(search: "  ") { totalCount } }', {}, a.key))).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'search', message: 'Must not be empty' }] });
  });
});

describe('agents, numbers, webhooks and catalogues', () => {
  it('answers agents by workspace, by id and the template catalogue', async () => {
    const mine = await gqlData(t, '{ aiAgents { id name isTemplate workspaceId } }', {}, a.key);
    expect(mine.aiAgents).toEqual([{ id: a.agent.id, name: 'A agent', isTemplate: false, workspaceId: 'default' }]);
    expect((await gqlData(t, '{ aiAgents(workspace: "other") { id } }', {}, a.key)).aiAgents).toEqual([]);
    const templates = await gqlData(t, '{ aiAgentTemplates { id isTemplate } }', {}, a.key);
    expect(templates.aiAgentTemplates.length).toBeGreaterThan(0);
    expect(templates.aiAgentTemplates.every((x: any) => x.isTemplate)).toBe(true);
    const template = await gqlData(t, 'query($id: ID!) { aiAgent(id: $id) { id isTemplate } }', { id: TEMPLATE_AGENT }, a.key);
    expect(template.aiAgent).toEqual({ id: TEMPLATE_AGENT, isTemplate: true });
  });

  it('answers the phone numbers', async () => {
    const data = await gqlData(t, '{ phoneNumbers { id phoneNumber countryCode label } }', {}, a.key);
    expect(data.phoneNumbers).toEqual([{ id: a.number.id, phoneNumber: '+14155552671', countryCode: '1', label: 'main' }]);
  });

  it('answers flows with their steps and executions as a connection', async () => {
    await insertExecutions(t, a, 3);
    const query = `query($id: ID!, $after: String) { webhook(id: $id) { id name status secret steps { stepNumber webhookUrl webhookMethod }
      executions(first: 2, after: $after) { totalCount edges { node { id flowId status attemptNumber } } pageInfo { hasNextPage endCursor } } } }`;
    const first = await gqlData(t, query, { id: a.flow.id }, a.key);
    expect(first.webhook).toMatchObject({ id: a.flow.id, name: 'A flow', status: 'RUNNING', secret: null });
    expect(first.webhook.steps).toEqual([{ stepNumber: 1, webhookUrl: 'https://example.com/hook', webhookMethod: 'POST' }]);
    expect(first.webhook.executions.totalCount).toBe(3);
    expect(first.webhook.executions.edges[0].node).toMatchObject({ flowId: a.flow.id, status: 'SCHEDULED', attemptNumber: 1 });
    const second = await gqlData(t, query, { id: a.flow.id, after: first.webhook.executions.pageInfo.endCursor }, a.key);
    expect(second.webhook.executions.edges).toHaveLength(1);
    expect(second.webhook.executions.pageInfo.hasNextPage).toBe(false);
    const list = await gqlData(t, '{ webhooks { id steps { stepNumber } executions(first: 1) { totalCount } } }', {}, a.key);
    expect(list.webhooks).toEqual([{ id: a.flow.id, steps: [{ stepNumber: 1 }], executions: { totalCount: 3 } }]);
  });

  it('answers the integration templates with their steps', async () => {
    const data = await gqlData(t, '{ integrationTemplates { id isTemplate steps { stepNumber } } }', {}, a.key);
    expect(data.integrationTemplates.length).toBeGreaterThan(0);
    expect(data.integrationTemplates.every((f: any) => f.isTemplate && f.steps.length > 0)).toBe(true);
  });
});
