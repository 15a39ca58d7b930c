import { z } from 'zod';
import { restShape } from '../../../src/rest/contract-shape';
import { TERMINAL_STATUSES } from '../../../src/entities/call.entity';
import { agentContract } from '../../../src/services/agents/agent.contract';
import { phoneNumberContract } from '../../../src/services/phone-numbers/phone-number.contract';
import { callContract } from '../../../src/services/calls/call.contract';
import { campaignContract } from '../../../src/services/campaigns/campaign.contract';
import { campaignStatsContract } from '../../../src/services/campaigns/campaign-stats.contract';
import { contactContract } from '../../../src/services/contacts/contact.contract';
import { doNotCallContract } from '../../../src/services/do-not-call/do-not-call.contract';
import { type Contract, objectDocs, surfaceFields } from '../../../src/services/shared/contract';
import { flowContract, stepContract } from '../../../src/services/flows/flow.contract';
import { executionContract, stepRunContract } from '../../../src/services/flows/flow-execution.contract';
import { camelName } from '../../../src/services/shared/naming';
import type { Caller } from '../../../src/services/shared/scope';
import { campaignApi, statsWhen } from '../campaigns/support';
import { FLOW_ENV, Receiver } from '../flows/support';
import { gqlData } from '../graphql/graphql-client';
import { FROM, oneTenant, okData, type Tenant } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { selection } from '../snapshots/support';
import { waitFor } from '../../support/wait';

/**
 * REST and GraphQL show the same data: each record fetched through both, every field of
 * its contract that both show compared, names mapped by the contract (`call_from` and
 * `callFrom`, renames included), enum values by GraphQL's naming (`in-progress` is
 * `IN_PROGRESS`).
 */
let t: TestApp;
let a: Tenant;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await Receiver.start();
  ({ t, a } = await oneTenant({ ...FLOW_ENV, SIM_RING_MS: '20', SIM_TALK_MS: '1000' }));
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const enumName = (value: unknown) => (typeof value === 'string' ? value.toUpperCase().replace(/-/g, '_') : value);

function isEnum(schema: z.ZodType): boolean {
  const inner = schema instanceof z.ZodNullable ? schema.unwrap() : schema;
  return inner instanceof z.ZodEnum || (inner instanceof z.ZodArray && inner.element instanceof z.ZodEnum);
}

/** A nested object's stored keys (`ai_agent_id`, as REST shows them) under GraphQL's names (`aiAgentId`). */
function nestedInGraphQLTerms(schema: z.ZodType, value: unknown): unknown {
  const inner = schema instanceof z.ZodArray ? schema.element : schema;
  if (!(inner instanceof z.ZodObject && objectDocs.has(inner))) return value;
  const renamed = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [camelName(k), v]));
  return Array.isArray(value) ? value.map(renamed) : renamed(value as Record<string, unknown>);
}

/** Each field both surfaces show: [GraphQL name, REST value in GraphQL's terms, GraphQL value]. */
function compared<S extends z.ZodRawShape>(contract: Contract<S>, rest: Record<string, unknown>, graphql: Record<string, unknown>) {
  const { names } = restShape(contract);
  return surfaceFields(contract, 'graphql')
    .filter(([key]) => names[key] !== undefined)
    .map(([key, schema]) => {
      const value = rest[names[key]];
      const inGraphQLTerms = isEnum(schema) && contract.graphql?.as?.[key] !== 'text' ? (Array.isArray(value) ? value.map(enumName) : enumName(value)) : nestedInGraphQLTerms(schema, value);
      return [key, inGraphQLTerms, graphql[key]];
    });
}

/**
 * Fetches the record through REST and GraphQL and compares them; also checks that the
 * service's view of it (read by `read`) is what its contract declares, so the view built
 * from the entity cannot carry a value of another type than REST and GraphQL document.
 */
async function expectSameData<S extends z.ZodRawShape>(contract: Contract<S>, restPath: string, query: string, id: string, read: (caller: Caller) => Promise<unknown>) {
  const rest = okData(await t.request('GET', restPath, { token: a.key }));
  const data = await gqlData(t, `query($id: ID!) { record: ${query}(id: $id) ${selection(contract.name)} }`, { id }, a.key);
  await expectSameRecord(contract, rest, data.record, read);
}

type Listed = Record<string, unknown>[];

/**
 * As `expectSameData`, for a record both surfaces show only in a list: the one with `id` in
 * each, the lists read from REST's `data` and GraphQL's `data.records` (its fields selected).
 */
async function expectSameListed<S extends z.ZodRawShape>(
  contract: Contract<S>,
  id: string,
  lists: { restPath: string; restItems: (data: any) => Listed; query: (fields: string) => string; graphqlItems: (records: any) => Listed },
  read: (caller: Caller) => Promise<unknown>,
) {
  const rest = lists.restItems(okData(await t.request('GET', lists.restPath, { token: a.key }))).find((r) => r.id === id);
  const data = await gqlData(t, `{ records: ${lists.query(selection(contract.name))} }`, {}, a.key);
  const graphql = lists.graphqlItems(data.records).find((r) => r.id === id);
  expect(rest && graphql).toBeDefined();
  await expectSameRecord(contract, rest!, graphql!, read);
}

async function expectSameRecord<S extends z.ZodRawShape>(contract: Contract<S>, rest: Record<string, unknown>, graphql: Record<string, unknown>, read: (caller: Caller) => Promise<unknown>) {
  const fields = compared(contract, rest, graphql);
  expect(fields.length).toBeGreaterThan(3);
  expect(fields.filter(([, restValue, graphqlValue]) => restValue === undefined || graphqlValue === undefined)).toEqual([]);
  expect(fields.map(([key, , graphql]) => [key, graphql])).toEqual(fields.map(([key, rest]) => [key, rest]));
  const view = await read({ scope: { companyId: a.companyId, userId: null }, em: t.app.orm.em.fork() });
  expect(contract.view.strict().parse(view)).toEqual(view);
}

it('Campaign, with every optional field set', async () => {
  const update = {
    notes: 'n',
    started_at: '2026-01-05',
    ended_at: '2026-02-01',
    webhook_id: a.flow.id,
    inbound_phone_number_id: a.number.id,
    retry_delay: [1, 2],
    retry_delay_unit: ['hours', 'days'],
    number_of_call_attempts: [2, 1],
    contacts_list_tags: [['vip'], 'new'],
    webhook_mapping_variables: { name: 'contact.firstname' },
  };
  expect((await t.request('POST', `/compaign/v1/campaign/update/${a.campaign.id}`, { token: a.key, body: update })).body.status).toBe('ok');
  await expectSameData(campaignContract, `/v1/campaigns/by-id/${a.campaign.id}`, 'campaign', a.campaign.id, (c) => t.app.services.campaigns.get(c, a.campaign.id));
});

it('CampaignStats, of an active campaign whose contact waits for its start date', async () => {
  const api = campaignApi(t, a);
  await api.contacts(['+14155550177'], { tag_name: 'parity' });
  const { id } = await api.campaign({ contacts_list_tags: ['parity'], status: 'active', started_at: '2099-01-05' });
  const rest = await statsWhen(api, id, 'the contact to be selected', (s) => s.contacts_selected === 1);
  expect(rest).toMatchObject({ queued: 1 });
  const data = await gqlData(t, `query($id: ID!) { campaign(id: $id) { stats ${selection(campaignStatsContract.name)} } }`, { id }, a.key);
  await expectSameRecord(campaignStatsContract, rest, data.campaign.stats, (c) => t.app.services.campaigns.stats(c, id));
});

it('Contact, with every optional field set', async () => {
  const update = { lastname: 'L', source_name: 's', tag_name: 't', category_name: 'c', notes: 'n', metadata: { plan: 'gold' }, status: 'inactive' };
  expect((await t.request('PATCH', `/v1/contacts/${a.contact.id}`, { token: a.key, body: update })).status).toBe(200);
  await expectSameData(contactContract, `/v1/contacts/${a.contact.id}`, 'contact', a.contact.id, (c) => t.app.services.contacts.get(c, a.contact.id));
});

it('Call, ended, with its transcript and dynamic variables', async () => {
  const made = okData(
    await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550100', dynamic_variables: [{ name: 'x', value: 'y' }] } }),
  );
  await waitFor('the call to end', async () => TERMINAL_STATUSES.includes(okData(await t.request('GET', `/v1/calls/${made.id}`, { token: a.key })).call_status) || undefined);
  await expectSameData(callContract, `/v1/calls/${made.id}`, 'call', made.id, (c) => t.app.services.calls.get(c, made.id));
});

it('AiAgent, with its flow, variables and outcomes set', async () => {
  const update = {
    description: 'd',
    status: 'paused',
    agent_type: 'sales',
    background_audio_status: 'office',
    agent_flow: { states: [{ name: 'intro' }] },
    agent_dynamic_variables: { plan: 'gold' },
    agent_post_call_outcomes: { booked: 'boolean' },
  };
  expect((await t.request('PATCH', `/v1/ai-agent/${a.agent.id}`, { token: a.key, body: update })).status).toBe(200);
  await expectSameData(agentContract, `/v1/ai-agent/${a.agent.id}`, 'aiAgent', a.agent.id, (c) => t.app.services.agents.get(c, a.agent.id));
});

it('PhoneNumber, labelled and answered by an agent', async () => {
  expect((await t.request('PATCH', `/v1/phone-numbers/${a.number.id}`, { token: a.key, body: { label: 'main', inbound_agent_id: a.agent.id } })).status).toBe(200);
  const read = async (c: Caller) => (await t.app.services.phoneNumbers.list(c)).find((n) => n.id === a.number.id);
  const lists = { restPath: '/v1/phone-numbers', restItems: (data: Listed) => data, query: (fields: string) => `phoneNumbers ${fields}`, graphqlItems: (records: Listed) => records };
  await expectSameListed(phoneNumberContract, a.number.id, lists, read);
});

it('DoNotCallNumber, listed with a reason', async () => {
  const [entry] = okData(await t.request('POST', '/v1/do-not-call', { token: a.key, body: { numbers: ['(415) 555-0199'], reason: 'asked' } }));
  const read = async (c: Caller) => (await t.app.services.doNotCall.list(c, {})).items.find((n) => n.id === entry.id);
  const lists = {
    restPath: '/v1/do-not-call',
    restItems: (data: { items: Listed }) => data.items,
    query: (fields: string) => `doNotCallNumbers { edges { node ${fields} } }`,
    graphqlItems: (records: { edges: { node: Listed[number] }[] }) => records.edges.map((e) => e.node),
  };
  await expectSameListed(doNotCallContract, entry.id, lists, read);
});

it('WebhookFlow and its steps, with every optional field set', async () => {
  const update = {
    logo: 'https://example.com/logo.png',
    retry_delay: 2,
    retry_delay_unit: 'minutes',
    max_retries: 1,
    flow_direction: 'inbound',
    flow_mapping: { source: 'crm' },
    tag_name: 't',
    category_name: 'c',
    predefinedVariables: [{ name: 'p', value: 'q' }],
    variables: [{ name: 'rid', location: 'body.id', stepId: 1, type: 'response', dataType: 'string', customValue: 'none' }],
    events: ['call.ended'],
    event_filters: { workspace: 'default', ai_agent_id: a.agent.id, campaign_id: a.campaign.id },
    steps: [
      {
        step_number: 1,
        webhook_url: `${receiver.url}/hook`,
        webhook_method: 'POST',
        webhook_headers: { 'x-a': 'b' },
        webhook_body: { n: '{{n}}' },
        success_condition: { '==': [{ var: 'status' }, 200] },
      },
      { step_number: 2, webhook_url: `${receiver.url}/hook`, webhook_method: 'GET', depends_on_step: 1, webhook_url_params: { id: '{{rid}}' } },
    ],
  };
  const id = a.flow.id;
  expect((await t.request('PATCH', `/v1/webhooks/${id}`, { token: a.key, body: update })).status).toBe(200);
  const read = (c: Caller) => t.app.services.webhooks.get(c, id);
  await expectSameData(flowContract, `/v1/webhooks/${id}`, 'webhook', id, read);

  const rest = okData(await t.request('GET', `/v1/webhooks/${id}`, { token: a.key }));
  const data = await gqlData(t, `query($id: ID!) { webhook(id: $id) { steps ${selection('WebhookStep')} } }`, { id }, a.key);
  for (const n of [0, 1]) {
    await expectSameRecord(stepContract, rest.steps[n], data.webhook.steps[n], async (c) => (await t.app.services.webhooks.get(c, id)).steps[n]);
  }
});

it('WebhookExecution and its step log, run to success', async () => {
  const flowId = a.flow.id;
  const execution = okData(await t.request('POST', `/v1/webhooks/${flowId}/trigger`, { token: a.key, body: { variables: { n: 1 } } }));
  const detailPath = `/v1/webhooks/${flowId}/executions/${execution.id}`;
  await waitFor('the execution to succeed', async () => okData(await t.request('GET', detailPath, { token: a.key })).status === 'success' || undefined);
  const detail = (c: Caller) => t.app.services.executions.get(c, flowId, execution.id);
  const lists = {
    restPath: detailPath,
    restItems: (data: Listed[number]) => [data],
    query: (fields: string) => `webhook(id: "${flowId}") { executions { edges { node ${fields} } } }`,
    graphqlItems: (records: { executions: { edges: { node: Listed[number] }[] } }) => records.executions.edges.map((e) => e.node),
  };
  await expectSameListed(executionContract, execution.id, lists, async (c) => (await detail(c)).execution);

  const rest = okData(await t.request('GET', detailPath, { token: a.key }));
  const data = await gqlData(t, `query($id: ID!) { webhook(id: $id) { executions { edges { node { id stepLog ${selection('WebhookStepRun')} } } } } }`, { id: flowId }, a.key);
  const node = data.webhook.executions.edges.find((e: { node: { id: string } }) => e.node.id === execution.id).node;
  expect(rest.steps).toHaveLength(2);
  for (const n of [0, 1]) {
    await expectSameRecord(stepRunContract, rest.steps[n], node.stepLog[n], async (c) => (await detail(c)).steps[n]);
  }
});
