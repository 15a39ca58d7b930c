import { TERMINAL_STATUSES } from '../../../src/entities/call.entity';
import { FLOW_ENV, Receiver } from '../flows/support';
import { gql } from '../graphql/graphql-client';
import { FROM, okData } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import { expectSnapshot, Normalizer, selection } from './support';

/**
 * The bytes users rely on, recorded: the OpenAPI document, and the answers of the REST and
 * GraphQL operations for one fixed set of records of every aggregate. A change of any
 * field, name, order or message fails here; regenerate deliberately with
 * `UPDATE_SNAPSHOTS=1 npx jest test/api/snapshots` and review the diff (README, Development).
 */
let t: TestApp;
let receiver: Receiver;
let key: string;
const ids: Record<string, string> = {};
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const normalizer = new Normalizer([
  [/http:\/\/127\.0\.0\.1:\d+/g, 'http://<receiver>'],
  [/whsec_[A-Za-z0-9+/=_-]+/g, '<secret>'],
  [/sk_[A-Za-z0-9_-]+/g, '<api key>'],
]);

beforeAll(async () => {
  receiver = await Receiver.start();
  receiver.on('/hook', (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"id":"r-1"}'));
  t = await startTestApp({ ...FLOW_ENV, SIM_RING_MS: '20', SIM_TALK_MS: '1000', PUBLIC_BASE_URL: 'https://switchboard.example' });
  const company = await t.company('Snapshot Co');
  key = company.apiKey;
  normalizer.name(company.companyId, 'company');
  normalizer.name(UNKNOWN, 'unknown id');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

/** Requests an operation and records its status and body under `label`. */
const recorded: Record<string, unknown> = {};
async function rest(label: string, method: string, path: string, body?: unknown, token: string | null = key, created?: string) {
  const res = await t.request(method, path, { token, body });
  if (created) {
    const data = okData(res);
    ids[created] = (Array.isArray(data) ? data[0] : data).id;
    normalizer.name(ids[created], created);
  }
  recorded[`${label}: ${method} ${normalizer.apply(path)}`] = { status: res.status, body: normalizer.apply(res.body) };
  return res;
}

/** Creates through REST and names the new record's id `<label>` in the snapshot. */
const create = (label: string, path: string, body: unknown) => rest(`create ${label}`, 'POST', path, body, key, label);

it('GET /openapi.json is the committed document', async () => {
  const res = await t.request('GET', '/openapi.json');
  expect(res.status).toBe(200);
  expectSnapshot('openapi.json', res.body);
});

it('REST: every documented read of one record of each aggregate, and writes and errors', async () => {
  await create('phone number', '/v1/phone-numbers', { phone_number: FROM, label: 'main' });
  await create('agent', '/v1/ai-agent', { name: 'Snapshot agent', prompt: 'Hello {{firstname}}', responsiveness: 70, voice_speed: 40 });
  await create('flow', '/v1/webhooks', {
    name: 'Snapshot flow',
    steps: [
      { step_number: 1, webhook_url: `${receiver.url}/hook`, webhook_method: 'POST', webhook_headers: { 'x-a': 'b' }, webhook_body: { n: '{{n}}' } },
      { step_number: 2, webhook_url: `${receiver.url}/hook`, webhook_method: 'GET', depends_on_step: 1, webhook_url_params: { id: '{{rid}}' } },
    ],
    variables: [{ name: 'rid', location: 'body.id', stepId: 1 }],
    predefinedVariables: [{ name: 'p', value: 'q' }],
  });
  await create('campaign', '/v1/campaigns', {
    name: 'Snapshot campaign',
    ai_agent_id: ids.agent,
    outbound_phone_number_id: ids['phone number'],
    contacts_list_tags: [['vip']],
    days_of_week: [1, 2, 3],
    time_zone: 'Europe/Paris',
  });
  await rest('update campaign', 'POST', `/compaign/v1/campaign/update/${ids.campaign}`, {
    started_at: '2026-01-05',
    ended_at: '2026-02-01',
    webhook_id: ids.flow,
    retry_delay: [1],
    retry_delay_unit: ['hours'],
    number_of_call_attempts: [2],
    agent_variables_contact_metadata_mapping: { first: 'firstname' },
  });
  await create('contact', '/v1/contacts', { firstname: 'Ada', lastname: 'Lovelace', phone_number: '+14155550199', campaign_id: ids.campaign, tag_name: 'vip', metadata: { plan: 'gold' } });
  await rest('update contact', 'PATCH', `/v1/contacts/${ids.contact}`, { lastname: 'King', category_name: 'pioneers' });
  await rest('update contact with an unknown field', 'PATCH', `/v1/contacts/${ids.contact}`, { email: 'ada@example.com' });
  await rest('add do-not-call numbers', 'POST', '/v1/do-not-call', { numbers: ['+14155550166'] });

  await create('call', '/v1/calls/make-call', { ai_agent_id: ids.agent, call_from: FROM, call_to: '+14155550100', dynamic_variables: [{ name: 'x', value: 'y' }] });
  await create('busy call', '/v1/calls/make-call', { ai_agent_id: ids.agent, call_from: FROM, call_to: '+14155550001' });
  for (const id of [ids.call, ids['busy call']]) {
    await waitFor('the simulated call to end', async () => TERMINAL_STATUSES.includes(okData(await t.request('GET', `/v1/calls/${id}`, { token: key })).call_status) || undefined);
  }
  await create('execution', `/v1/webhooks/${ids.flow}/trigger`, { variables: { n: 1 } });
  await waitFor('the execution to succeed', async () => okData(await t.request('GET', `/v1/webhooks/${ids.flow}/executions/${ids.execution}`, { token: key })).status === 'success' || undefined);

  await rest('list phone numbers', 'GET', '/v1/phone-numbers');
  await rest('list agent templates', 'GET', '/v1/ai-agent/templates');
  await rest('list agents', 'GET', '/v1/ai-agent');
  await rest('get agent', 'GET', `/v1/ai-agent/${ids.agent}`);
  await rest('publish agent', 'POST', `/v1/ai-agent/${ids.agent}/publish`, { note: 'First release' });
  await rest('list agent versions', 'GET', `/v1/ai-agent/${ids.agent}/versions`);
  await rest('get agent version', 'GET', `/v1/ai-agent/${ids.agent}/versions/1`);
  await rest('list campaigns', 'GET', '/v1/campaigns/list');
  await rest('list campaigns of a workspace', 'GET', '/v1/campaigns/by-workspace/default');
  await rest('get campaign', 'GET', `/v1/campaigns/by-id/${ids.campaign}`);
  await rest('campaign stats', 'GET', `/v1/campaigns/by-id/${ids.campaign}/stats`);
  await rest('list contacts (legacy)', 'GET', '/compaign/v1/contact');
  await rest('get contact', 'GET', `/v1/contacts/${ids.contact}`);
  await rest('list calls', 'GET', '/v1/calls?limit=5');
  await rest('get call', 'GET', `/v1/calls/${ids.call}`);
  await rest('get busy call', 'GET', `/v1/calls/${ids['busy call']}`);
  await rest('list do-not-call numbers', 'GET', '/v1/do-not-call');
  await rest('list integration templates', 'GET', '/v1/integrations/templates');
  await rest('list webhooks', 'GET', '/v1/webhooks');
  await rest('get webhook', 'GET', `/v1/webhooks/${ids.flow}`);
  await rest('list executions', 'GET', `/v1/webhooks/${ids.flow}/executions`);
  await rest('get execution', 'GET', `/v1/webhooks/${ids.flow}/executions/${ids.execution}`);
  await rest('liveness', 'GET', '/healthz', undefined, null);

  await rest('not found', 'GET', `/v1/calls/${UNKNOWN}`);
  await rest('validation error', 'POST', '/v1/ai-agent', { name: '', responsiveness: 101 });
  await rest('campaign validation error', 'POST', '/v1/campaigns', { name: 'x', days_of_week: [1, 1], retry_delay_unit: ['weeks'], time_zone: 'Mars/Base' });
  await rest('make-call from a number not owned (quirk)', 'POST', '/v1/calls/make-call', { ai_agent_id: ids.agent, call_from: '+14155550100', call_to: '+14155550101' });
  await rest('update of an unknown campaign (quirk: 200)', 'POST', `/compaign/v1/campaign/update/${UNKNOWN}`, { name: 'x' });
  await rest('no credentials', 'GET', '/v1/calls', undefined, null);
  await rest('rotate secret', 'POST', `/v1/webhooks/${ids.flow}/rotate-secret`);
  await rest('remove do-not-call number', 'DELETE', '/v1/do-not-call/+14155550166');
  await create('spare contact', '/v1/contacts', { phone_number: '+14155550177' });
  await rest('delete contact', 'DELETE', `/v1/contacts/${ids['spare contact']}`);

  expectSnapshot('rest.json', recorded);
}, 60_000);

it('GraphQL: the same records through the queries (after the REST test made them)', async () => {
  const queries: Record<string, [string, Record<string, unknown>]> = {
    phoneNumbers: [`{ phoneNumbers ${selection('PhoneNumber')} }`, {}],
    aiAgent: [`query($id: ID!) { aiAgent(id: $id) ${selection('AiAgent')} }`, { id: ids.agent }],
    aiAgents: [`{ aiAgents ${selection('AiAgent', true, ['versions'])} }`, {}],
    aiAgentTemplates: [`{ aiAgentTemplates ${selection('AiAgent', true, ['versions'])} }`, {}],
    campaign: [`query($id: ID!) { campaign(id: $id) ${selection('Campaign')} }`, { id: ids.campaign }],
    campaigns: [`{ campaigns(first: 5) ${selection('CampaignConnection')} }`, {}],
    contacts: [`{ contacts(first: 5) ${selection('ContactConnection')} }`, {}],
    call: [`query($id: ID!) { call(id: $id) ${selection('Call')} }`, { id: ids.call }],
    calls: [`{ calls(first: 5) ${selection('CallConnection')} }`, {}],
    doNotCallNumbers: [`{ doNotCallNumbers ${selection('DoNotCallNumberConnection')} }`, {}],
    webhook: [`query($id: ID!) { webhook(id: $id) ${selection('WebhookFlow')} }`, { id: ids.flow }],
    webhooks: [`{ webhooks ${selection('WebhookFlow', true, ['executions'])} }`, {}],
    integrationTemplates: [`{ integrationTemplates ${selection('WebhookFlow', true, ['executions'])} }`, {}],
    notFound: [`query($id: ID!) { call(id: $id) { id } }`, { id: UNKNOWN }],
    badInput: [`mutation { createAiAgent(input: { name: "", responsiveness: 101 }) { id } }`, {}],
  };
  const answers: Record<string, unknown> = {};
  for (const [name, [query, variables]] of Object.entries(queries)) {
    const res = await gql(t, query, variables, key);
    answers[name] = normalizer.apply({ status: res.status, data: res.data, errors: res.errors });
  }
  expectSnapshot('graphql.json', answers);
});
