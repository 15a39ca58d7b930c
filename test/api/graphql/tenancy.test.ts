import { type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { firstError, gql, gqlData } from './graphql-client';
import { insertCalls, insertExecutions } from './records';

let t: TestApp;
let a: Tenant;
let b: Tenant;
let aCall: string;

beforeAll(async () => {
  t = await startTestApp();
  a = await tenant(t, 'A');
  b = await tenant(t, 'B', '+14155552672');
  aCall = (await insertCalls(t, a, 1))[0].id;
  await insertExecutions(t, a, 2);
});
afterAll(() => t.close());

describe("company B never reads company A's records", () => {
  it.each([
    ['call', 'query($id: ID!) { call(id: $id) { id } }', () => aCall],
    ['campaign', 'query($id: ID!) { campaign(id: $id) { id } }', () => a.campaign.id],
    ['contact', 'query($id: ID!) { contact(id: $id) { id } }', () => a.contact.id],
    ['aiAgent', 'query($id: ID!) { aiAgent(id: $id) { id } }', () => a.agent.id],
    ['webhook', 'query($id: ID!) { webhook(id: $id) { id } }', () => a.flow.id],
    ['node', 'query($id: ID!) { node(id: $id) { id } }', () => a.campaign.id],
  ])('%s(id) of A answers null to B, exactly as an unknown id does', async (name, query, id) => {
    const foreign = await gql(t, query, { id: id() }, b.key);
    const unknown = await gql(t, query, { id: '00000000-0000-4000-8000-000000000000' }, b.key);
    expect([foreign.status, foreign.data, foreign.errors]).toEqual([200, { [name]: null }, undefined]);
    expect([unknown.status, unknown.data, unknown.errors]).toEqual([foreign.status, foreign.data, foreign.errors]);
  });

  it('lists hold only B’s own records', async () => {
    const data = await gqlData(
      t,
      `query($c: ID, $contact: ID) {
        calls { totalCount edges { node { id } } }
        aCampaignCalls: calls(campaignId: $c) { totalCount }
        aContactCalls: calls(contactId: $contact) { totalCount edges { node { id } } }
        campaigns { totalCount edges { node { id } } }
        contacts { totalCount edges { node { id } } }
        aContacts: contacts(campaignId: $c) { totalCount }
        aiAgents { id }
        webhooks { id executions { totalCount } }
        phoneNumbers { id }
      }`,
      { c: a.campaign.id, contact: a.contact.id },
      b.key,
    );
    expect(data).toEqual({
      calls: { totalCount: 0, edges: [] },
      aCampaignCalls: { totalCount: 0 },
      aContactCalls: { totalCount: 0, edges: [] },
      campaigns: { totalCount: 1, edges: [{ node: { id: b.campaign.id } }] },
      contacts: { totalCount: 1, edges: [{ node: { id: b.contact.id } }] },
      aContacts: { totalCount: 0 },
      aiAgents: [{ id: b.agent.id }],
      webhooks: [{ id: b.flow.id, executions: { totalCount: 0 } }],
      phoneNumbers: [{ id: b.number.id }],
    });
  });
});

describe("company B never changes company A's records", () => {
  it.each([
    ['updateCampaign', 'mutation($id: ID!) { updateCampaign(id: $id, input: { name: "x" }) { id } }', () => a.campaign.id],
    ['deleteCampaign', 'mutation($id: ID!) { deleteCampaign(id: $id) }', () => a.campaign.id],
    ['updateContact', 'mutation($id: ID!) { updateContact(id: $id, input: { firstname: "x" }) { id } }', () => a.contact.id],
    ['deleteContact', 'mutation($id: ID!) { deleteContact(id: $id) }', () => a.contact.id],
    ['updateAiAgent', 'mutation($id: ID!) { updateAiAgent(id: $id, input: { name: "x" }) { id } }', () => a.agent.id],
    ['deleteAiAgent', 'mutation($id: ID!) { deleteAiAgent(id: $id) }', () => a.agent.id],
    ['updatePhoneNumber', 'mutation($id: ID!) { updatePhoneNumber(id: $id, input: { label: "x" }) { id } }', () => a.number.id],
    ['deletePhoneNumber', 'mutation($id: ID!) { deletePhoneNumber(id: $id) }', () => a.number.id],
    ['updateWebhook', 'mutation($id: ID!) { updateWebhook(id: $id, input: { name: "x" }) { id } }', () => a.flow.id],
    ['deleteWebhook', 'mutation($id: ID!) { deleteWebhook(id: $id) }', () => a.flow.id],
    ['makeCall', 'mutation($id: ID!) { makeCall(input: { aiAgentId: $id, callFrom: "+14155552672", callTo: "+14155550123" }) { id } }', () => a.agent.id],
  ])('%s on A’s record answers NOT_FOUND to B', async (_name, mutation, id) => {
    expect(firstError(await gql(t, mutation, { id: id() }, b.key))).toEqual({ code: 'NOT_FOUND' });
  });

  it('refuses links to A’s records in B’s inputs, naming the field', async () => {
    const campaign = await gql(t, 'mutation($id: ID!) { createCampaign(input: { name: "x", aiAgentId: $id }) { id } }', { id: a.agent.id }, b.key);
    expect(firstError(campaign)).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'aiAgentId', message: 'Agent not found' }] });
    const contact = await gql(t, 'mutation($id: ID!) { createContact(input: { phoneNumber: "+14155550999", campaignId: $id }) { id } }', { id: a.campaign.id }, b.key);
    expect(firstError(contact)).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'campaignId', message: 'Campaign not found' }] });
  });

  it('refuses A’s phone number to B as in use (CONFLICT), in any format', async () => {
    const taken = await gql(t, 'mutation { createPhoneNumber(input: { phoneNumber: "(415) 555-2671" }) { id } }', {}, b.key);
    expect(taken.data).toBeNull();
    expect(taken.errors?.[0]).toMatchObject({ message: 'Phone number is in use', extensions: { code: 'CONFLICT' } });
  });

  it('left every record of A as it was', async () => {
    const data = await gqlData(
      t,
      `query($c: ID!, $k: ID!, $g: ID!, $w: ID!) {
        campaign(id: $c) { name } contact(id: $k) { firstname } aiAgent(id: $g) { name } webhook(id: $w) { name } phoneNumbers { label }
      }`,
      { c: a.campaign.id, k: a.contact.id, g: a.agent.id, w: a.flow.id },
      a.key,
    );
    expect(data).toEqual({
      campaign: { name: 'A campaign' },
      contact: { firstname: 'Ada' },
      aiAgent: { name: 'A agent' },
      webhook: { name: 'A flow' },
      phoneNumbers: [{ label: 'main' }],
    });
  });
});
