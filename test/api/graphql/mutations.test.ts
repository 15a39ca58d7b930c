import { FROM, type Tenant, oneTenant } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { firstError, gql, gqlData } from './graphql-client';
import { camelName } from '../../../src/services/shared/naming';

let t: TestApp;
let a: Tenant;

beforeAll(async () => ({ t, a } = await oneTenant()));
afterAll(() => t.close());

/** The field list REST answers for the same body: GraphQL must name the same fields, in its own names (`inGraphQL`), with the same messages. */
async function restFields(method: string, path: string, body: unknown): Promise<{ field: string; message: string }[]> {
  const res = await t.request(method, path, { token: a.key, body });
  expect(res.status).toBe(400);
  return res.body.data;
}

/** REST's field list as GraphQL names the same fields: `dynamic_variables[0].name` is `dynamicVariables[0].name`. */
/** REST's errors as GraphQL names the same fields: in `field`, and in the message where it names one (`reminder_frequency_to`). */
const inGraphQL = (fields: { field: string; message: string }[]) =>
  fields.map(({ field, message }) => ({ field: camelName(field), message: message.replace(/\b[a-z]+(?:_[a-z0-9]+)+\b/g, (name) => camelName(name)) }));

const MAKE_CALL = 'mutation($input: MakeCallInput!) { makeCall(input: $input) { id callStatus callFrom callTo workspaceId isTest agentDynamicVariables { name value } aiAgent { id } } }';

describe('makeCall', () => {
  const valid = () => ({ aiAgentId: a.agent.id, callFrom: '(415) 555-2671', callTo: '415.555.0123' });

  it('places a queued test call', async () => {
    const data = await gqlData(t, MAKE_CALL, { input: { ...valid(), dynamicVariables: [{ name: 'firstname', value: 'Ada' }], workspace: 'sales' } }, a.key);
    expect(data.makeCall).toMatchObject({
      callStatus: 'PSTN_QUEUED',
      callFrom: FROM,
      callTo: '+14155550123',
      workspaceId: 'sales',
      isTest: true,
      agentDynamicVariables: [{ name: 'firstname', value: 'Ada' }],
      aiAgent: { id: a.agent.id },
    });
  });

  it.each([
    ['a variable name with spaces', { dynamicVariables: [{ name: 'first name', value: 'x' }] }, { dynamic_variables: [{ name: 'first name', value: 'x' }] }],
    ['an invalid call_to', { callTo: '12345' }, { call_to: '12345' }],
    ['a non-UUID agent id', { aiAgentId: 'agent-1' }, { ai_agent_id: 'agent-1' }],
    ['an empty workspace', { workspace: '' }, { workspace: '' }],
  ])('refuses %s with the same fields and messages as REST', async (_name, patch, restPatch) => {
    const res = await gql(t, MAKE_CALL, { input: { ...valid(), ...patch } }, a.key);
    const rest = await restFields('POST', '/v1/calls/make-call', { ai_agent_id: a.agent.id, call_from: FROM, call_to: '+14155550123', ...restPatch });
    expect(res.data).toBeNull();
    expect(res.errors![0].message).toBe('Validation failed');
    expect(firstError(res)).toEqual({ code: 'BAD_USER_INPUT', fields: inGraphQL(rest) });
  });

  it('answers NOT_FOUND for an unknown agent and names call_from when the number is not owned', async () => {
    const unknown = await gql(t, MAKE_CALL, { input: { ...valid(), aiAgentId: '00000000-0000-4000-8000-000000000000' } }, a.key);
    expect(firstError(unknown)).toEqual({ code: 'NOT_FOUND' });
    const notOwned = await gql(t, MAKE_CALL, { input: { ...valid(), callFrom: '+14155552672' } }, a.key);
    expect(firstError(notOwned)).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'callFrom', message: 'callFrom is not a phone number of this company' }],
    });
  });
});

describe('campaigns', () => {
  const FIELDS = 'id name status workspaceId aiAgentId aiAgent { id } numberOfCallAttempts retryDelay retryDelayUnit contactsListTags timeZone';

  it('creates, updates partially, clears with null and deletes', async () => {
    const created = await gqlData(
      t,
      `mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { ${FIELDS} } }`,
      { input: { name: 'Spring', workspace: 'sales', aiAgentId: a.agent.id, numberOfCallAttempts: [2], retryDelay: [5], retryDelayUnit: ['MINUTES'] } },
      a.key,
    );
    expect(created.createCampaign).toMatchObject({ name: 'Spring', status: 'draft', workspaceId: 'sales', aiAgent: { id: a.agent.id } });
    const id = created.createCampaign.id;
    const updated = await gqlData(
      t,
      `mutation($id: ID!, $input: UpdateCampaignInput!) { updateCampaign(id: $id, input: $input) { ${FIELDS} } }`,
      { id, input: { status: 'paused', aiAgentId: null, contactsListTags: ['vip', 'new'], timeZone: 'Europe/Paris' } },
      a.key,
    );
    expect(updated.updateCampaign).toMatchObject({
      name: 'Spring',
      status: 'paused',
      aiAgentId: null,
      aiAgent: null,
      numberOfCallAttempts: [2],
      contactsListTags: ['vip', 'new'],
      timeZone: 'Europe/Paris',
    });
    expect(await gqlData(t, 'mutation($id: ID!) { deleteCampaign(id: $id) }', { id }, a.key)).toEqual({ deleteCampaign: id });
    expect(await gqlData(t, 'query($id: ID!) { campaign(id: $id) { id } }', { id }, a.key)).toEqual({ campaign: null });
  });

  it('refuses bad input with the same fields and messages as REST', async () => {
    const res = await gql(
      t,
      'mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { id } }',
      { input: { name: ' ', timeZone: 'Mars/Olympus', daysOfWeek: [1, 8], numberOfCallAttempts: [1, 2] } },
      a.key,
    );
    const rest = await restFields('POST', '/v1/campaigns', {
      name: ' ',
      time_zone: 'Mars/Olympus',
      days_of_week: [1, 8],
      number_of_call_attempts: [1, 2],
    });
    expect(firstError(res)).toEqual({ code: 'BAD_USER_INPUT', fields: inGraphQL(rest) });
  });

  it('takes retry units as the RetryDelayUnit enum the campaign answers with', async () => {
    const input = { name: 'Units', numberOfCallAttempts: [1], retryDelay: [2], retryDelayUnit: ['HOURS'] };
    const created = await gqlData(t, 'mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { retryDelayUnit } }', { input }, a.key);
    expect(created.createCampaign).toEqual({ retryDelayUnit: ['HOURS'] });
    const res = await gql(t, 'mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { id } }', { input: { ...input, retryDelayUnit: ['hours'] } }, a.key);
    expect(res.errors![0].message).toContain('Value "hours" does not exist in "RetryDelayUnit" enum');
  });

  it('refuses dates PostgreSQL cannot store (no year 0) as bad input, like REST', async () => {
    const input = { startedAt: '0000-01-01', endedAt: '0000-12-31' };
    const res = await gql(t, 'mutation($id: ID!, $input: UpdateCampaignInput!) { updateCampaign(id: $id, input: $input) { id } }', { id: a.campaign.id, input }, a.key);
    const rest = await restFields('POST', '/v1/campaigns', { name: 'x', started_at: input.startedAt, ended_at: input.endedAt });
    expect(rest).toEqual([
      { field: 'started_at', message: 'Must be a date between 0001-01-01 and 9999-12-31' },
      { field: 'ended_at', message: 'Must be a date between 0001-01-01 and 9999-12-31' },
    ]);
    expect(firstError(res)).toEqual({ code: 'BAD_USER_INPUT', fields: inGraphQL(rest) });
  });

  it('refuses a `__proto__` key in variables with the field named', async () => {
    const input = JSON.parse('{"name": "Proto", "contactsListSourceMetadata": {"__proto__": {"admin": true}}}') as Record<string, unknown>;
    const res = await gql(t, 'mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { id } }', { input }, a.key);
    expect(firstError(res)).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'input.contactsListSourceMetadata.__proto__', message: 'Not allowed as a key (it would set an object prototype)' }] });
  });

  it('answers NOT_FOUND when updating a campaign that does not exist', async () => {
    const res = await gql(t, 'mutation { updateCampaign(id: "00000000-0000-4000-8000-000000000000", input: { name: "x" }) { id } }', {}, a.key);
    expect(firstError(res)).toEqual({ code: 'NOT_FOUND' });
  });
});

describe('contacts', () => {
  const FIELDS = 'id phoneNumber numberCountryCode firstname metadata campaignId status';

  it('creates one, imports many, updates and deletes', async () => {
    const created = await gqlData(
      t,
      `mutation($input: CreateContactInput!) { createContact(input: $input) { ${FIELDS} } }`,
      { input: { phoneNumber: '+44 20 7946 0958', firstname: 'Grace', metadata: { planName: 'gold', nested_key: { camelCase: 1 } }, campaignId: a.campaign.id } },
      a.key,
    );
    expect(created.createContact).toMatchObject({
      phoneNumber: '+442079460958',
      numberCountryCode: '44',
      metadata: { planName: 'gold', nested_key: { camelCase: 1 } },
      campaignId: a.campaign.id,
    });
    const imported = await gqlData(
      t,
      `mutation($input: [CreateContactInput!]!) { importContacts(input: $input) { ${FIELDS} } }`,
      { input: [{ phoneNumber: '+14155550301' }, { phoneNumber: '+14155550302', status: 'inactive' }] },
      a.key,
    );
    expect(imported.importContacts.map((c: any) => c.phoneNumber)).toEqual(['+14155550301', '+14155550302']);
    const id = created.createContact.id;
    const updated = await gqlData(t, `mutation($id: ID!) { updateContact(id: $id, input: { lastname: "Hopper", campaignId: null }) { ${FIELDS} lastname } }`, { id }, a.key);
    expect(updated.updateContact).toMatchObject({ lastname: 'Hopper', firstname: 'Grace', campaignId: null });
    expect(await gqlData(t, 'mutation($id: ID!) { deleteContact(id: $id) }', { id }, a.key)).toEqual({ deleteContact: id });
    expect(await gqlData(t, 'query($id: ID!) { contact(id: $id) { id } }', { id }, a.key)).toEqual({ contact: null });
  });

  it('refuses an import with a bad row, naming the row like REST', async () => {
    const res = await gql(
      t,
      'mutation($input: [CreateContactInput!]!) { importContacts(input: $input) { id } }',
      { input: [{ phoneNumber: '+14155550401' }, { phoneNumber: 'nope', campaignId: 'x' }] },
      a.key,
    );
    const rest = await restFields('POST', '/v1/contacts', [{ phone_number: '+14155550401' }, { phone_number: 'nope', campaign_id: 'x' }]);
    expect(firstError(res)).toEqual({ code: 'BAD_USER_INPUT', fields: inGraphQL(rest) });
    expect((rest as unknown[]).length).toBe(2);
  });
});

describe('agents', () => {
  it('creates, updates and deletes an agent', async () => {
    const created = await gqlData(
      t,
      'mutation { createAiAgent(input: { name: "Closer", responsiveness: 80, agentFlow: { start: "hello" }, workspace: "sales" }) { id name responsiveness agentFlow workspaceId } }',
      {},
      a.key,
    );
    expect(created.createAiAgent).toMatchObject({ name: 'Closer', responsiveness: 80, agentFlow: { start: 'hello' }, workspaceId: 'sales' });
    const id = created.createAiAgent.id;
    const updated = await gqlData(t, 'mutation($id: ID!) { updateAiAgent(id: $id, input: { voiceSpeed: 10 }) { name voiceSpeed } }', { id }, a.key);
    expect(updated.updateAiAgent).toEqual({ name: 'Closer', voiceSpeed: 10 });
    expect(await gqlData(t, 'mutation($id: ID!) { deleteAiAgent(id: $id) }', { id }, a.key)).toEqual({ deleteAiAgent: id });
    expect((await gqlData(t, '{ aiAgents(workspace: "sales") { id } }', {}, a.key)).aiAgents).toEqual([]);
  });

  it('refuses out-of-range settings with the same fields as REST', async () => {
    const res = await gql(t, 'mutation { createAiAgent(input: { name: "", responsiveness: 101, reminderFrequencyFrom: 10, reminderFrequencyTo: 5 }) { id } }', {}, a.key);
    const rest = await restFields('POST', '/v1/ai-agent', { name: '', responsiveness: 101, reminder_frequency_from: 10, reminder_frequency_to: 5 });
    expect(firstError(res)).toEqual({ code: 'BAD_USER_INPUT', fields: inGraphQL(rest) });
  });
});

describe('phone numbers', () => {
  it('adds, relabels and removes a number; a duplicate is a CONFLICT', async () => {
    const created = await gqlData(t, 'mutation { createPhoneNumber(input: { phoneNumber: "(415) 555-0777", label: "support" }) { id phoneNumber label } }', {}, a.key);
    expect(created.createPhoneNumber).toMatchObject({ phoneNumber: '+14155550777', label: 'support' });
    const duplicate = await gql(t, 'mutation { createPhoneNumber(input: { phoneNumber: "+14155550777" }) { id } }', {}, a.key);
    expect(firstError(duplicate)).toEqual({ code: 'CONFLICT' });
    const id = created.createPhoneNumber.id;
    const updated = await gqlData(t, 'mutation($id: ID!) { updatePhoneNumber(id: $id, input: { label: "sales" }) { phoneNumber label } }', { id }, a.key);
    expect(updated.updatePhoneNumber).toEqual({ phoneNumber: '+14155550777', label: 'sales' });
    expect(await gqlData(t, 'mutation($id: ID!) { deletePhoneNumber(id: $id) }', { id }, a.key)).toEqual({ deletePhoneNumber: id });
    const bad = await gql(t, 'mutation { createPhoneNumber(input: { phoneNumber: "call me" }) { id } }', {}, a.key);
    expect(firstError(bad)).toEqual({ code: 'BAD_USER_INPUT', fields: inGraphQL(await restFields('POST', '/v1/phone-numbers', { phone_number: 'call me' })) });
  });
});

describe('webhooks', () => {
  const FLOW = `id name status secret retryDelayUnit predefinedVariables { name value } variables { name location stepId dataType customValue }
    steps { stepNumber webhookUrl webhookMethod webhookHeaders webhookBody dependsOnStep }`;
  const input = {
    name: 'CRM sync',
    retryDelayUnit: 'MINUTES',
    predefinedVariables: [{ name: 'region', value: 'eu' }],
    variables: [{ name: 'crmId', location: 'body.id', stepId: 1, dataType: 'string', customValue: 'none' }],
    steps: [
      { stepNumber: 1, webhookUrl: 'https://crm.example.com/contacts', webhookMethod: 'post', webhookHeaders: { 'X-Api-Key': 'k' }, webhookBody: { callId: '{{call_id}}' } },
      { stepNumber: 2, webhookUrl: 'https://crm.example.com/notes/{{crmId}}', dependsOnStep: 1 },
    ],
  };

  it('creates a flow (showing its secret once), updates and deletes it', async () => {
    const created = await gqlData(t, `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { ${FLOW} } }`, { input }, a.key);
    const flow = created.createWebhook;
    expect(flow.secret).toMatch(/^whsec_/);
    expect(flow).toMatchObject({
      name: 'CRM sync',
      status: 'RUNNING',
      predefinedVariables: [{ name: 'region', value: 'eu' }],
      variables: [{ name: 'crmId', location: 'body.id', stepId: 1, dataType: 'string', customValue: 'none' }],
      steps: [
        { stepNumber: 1, webhookMethod: 'POST', webhookHeaders: { 'X-Api-Key': 'k' }, webhookBody: { callId: '{{call_id}}' }, dependsOnStep: null },
        { stepNumber: 2, webhookMethod: 'POST', dependsOnStep: 1 },
      ],
    });
    const read = await gqlData(t, 'query($id: ID!) { webhook(id: $id) { secret } }', { id: flow.id }, a.key);
    expect(read.webhook.secret).toBeNull();
    const updated = await gqlData(
      t,
      `mutation($id: ID!) { updateWebhook(id: $id, input: { status: "stopped", variables: [], steps: [{ stepNumber: 1, webhookUrl: "https://x.example.com" }] }) { ${FLOW} } }`,
      { id: flow.id },
      a.key,
    );
    expect(updated.updateWebhook).toMatchObject({ status: 'STOPPED', variables: [], steps: [{ stepNumber: 1, webhookUrl: 'https://x.example.com' }] });
    expect(await gqlData(t, 'mutation($id: ID!) { deleteWebhook(id: $id) }', { id: flow.id }, a.key)).toEqual({ deleteWebhook: flow.id });
    expect(await gqlData(t, 'query($id: ID!) { webhook(id: $id) { id } }', { id: flow.id }, a.key)).toEqual({ webhook: null });
  });

  it('copies an integration template into a running flow of the company, its secret shown once', async () => {
    const USE = 'mutation($id: ID!, $name: String) { useIntegrationTemplate(id: $id, name: $name) { id name status isTemplate secret steps { webhookUrl } } }';
    const [template] = (await gqlData(t, '{ integrationTemplates { id name steps { webhookUrl } } }', {}, a.key)).integrationTemplates;
    const copy = (await gqlData(t, USE, { id: template.id, name: 'Team alerts' }, a.key)).useIntegrationTemplate;
    expect(copy).toMatchObject({ name: 'Team alerts', status: 'RUNNING', isTemplate: false, secret: expect.stringMatching(/^whsec_/), steps: template.steps });
    expect(copy.id).not.toBe(template.id);
    expect((await gqlData(t, '{ webhooks { id } }', {}, a.key)).webhooks.map((f: any) => f.id)).toContain(copy.id);
    expect(firstError(await gql(t, USE, { id: copy.id }, a.key))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses bad steps and variables with the same fields as REST', async () => {
    const bad = {
      ...input,
      variables: [{ name: 'crmId', location: 'body.id', stepId: 9 }],
      steps: [{ stepNumber: 1, webhookUrl: 'ftp://x', dependsOnStep: 1 }],
    };
    const res = await gql(t, 'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { id } }', { input: bad }, a.key);
    const rest = await restFields('POST', '/v1/webhooks', {
      name: 'CRM sync',
      retry_delay_unit: 'minutes',
      predefinedVariables: input.predefinedVariables,
      variables: bad.variables,
      steps: [{ step_number: 1, webhook_url: 'ftp://x', depends_on_step: 1 }],
    });
    expect(firstError(res)).toEqual({ code: 'BAD_USER_INPUT', fields: inGraphQL(rest) });
    expect(rest).toEqual(
      expect.arrayContaining([
        { field: 'steps[0].webhook_url', message: 'Must be an http or https URL' },
        { field: 'variables[0].stepId', message: 'Must name a step of this flow' },
      ]),
    );
  });
});
