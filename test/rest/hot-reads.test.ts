import { oneTenant, okData, type Tenant } from '../support/fixtures';
import type { TestApp } from '../support/harness';

// The by-id read comes from a store query (no entity); the list and the write answers still
// serialize entities. Both must answer the same bytes for the same record.

let t: TestApp;
let a: Tenant;
beforeAll(async () => ({ t, a } = await oneTenant()));
afterAll(() => t.close());

/** The `data` of an answer, as the bytes the server wrote. */
const dataBytes = (text: string, index?: number) => {
  const data = (JSON.parse(text) as { data: unknown }).data;
  return JSON.stringify(index === undefined ? data : (data as unknown[])[index]);
};

describe('GET /v1/campaigns/by-id/{id}', () => {
  it('answers the bytes the entity serializer answers, every field set, key order included', async () => {
    const campaign = okData(await t.request('POST', '/v1/campaigns', { token: a.key, body: { name: 'Full', ai_agent_id: a.agent.id } }));
    const updated = await t.request('POST', `/compaign/v1/campaign/update/${campaign.id}`, {
      token: a.key,
      body: {
        notes: 'notes "quoted" ✓',
        started_at: '2026-01-02',
        ended_at: '2026-12-31',
        days_of_week: [1, 7],
        contacts_list_tags: [['vip'], ['b']],
        contacts_list_source_metadata: { z: 1, a: { nested: [true, null] } },
        agent_variables_contact_metadata_mapping: { first: 'firstname' },
        number_of_call_attempts: [2, 1],
        retry_delay: [30, 2],
        retry_delay_unit: ['minutes', 'hours'],
        inbound_phone_number_id: a.number.id,
        outbound_phone_number_id: a.number.id,
        webhook_id: a.flow.id,
        webhook_mapping_variables: { call_id: 'call.id' },
        webhook_mapping_variables_sources: { sources: ['call'] },
        allow_non_local_calls: true,
      },
    });
    expect(updated.body).toMatchObject({ status: 'ok' });
    const list = await t.request('GET', '/v1/campaigns/list', { token: a.key });
    const index = (list.body.data as { id: string }[]).findIndex((c) => c.id === campaign.id);
    const byId = await t.request('GET', `/v1/campaigns/by-id/${campaign.id}`, { token: a.key });
    expect(byId.status).toBe(200);
    expect(dataBytes(byId.text)).toBe(dataBytes(list.text, index));
    expect(byId.body.data).toMatchObject({ started_at: '2026-01-02', webhook_id: a.flow.id, company_id: a.companyId });
  });
});
