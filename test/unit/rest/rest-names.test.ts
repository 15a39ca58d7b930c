import { createWebhookInput } from '../../../src/services/flows/flow.input';
import { createCampaignInput } from '../../../src/services/campaigns/campaign.contract';
import { toServiceNames } from '../../../src/rest/rest-names';
import { CSV_MAPPING_KEYS, contactCsvMapping } from '../../../src/services/contacts/contact.input';

describe("REST's renaming at its edge", () => {
  it('renames documented fields down through objects and arrays, never client data', () => {
    const body = {
      name: 'Flow',
      steps: [{ step_number: 1, webhook_url: 'https://example.com', webhook_body: { call_id: '{{call_id}}' } }],
      variables: [{ name: 'x', location: 'body.id', stepId: 1 }],
      event_filters: { ai_agent_id: 'a' },
      flow_mapping: { some_key: 1 },
    };
    expect(toServiceNames(createWebhookInput, body)).toEqual({
      name: 'Flow',
      steps: [{ stepNumber: 1, webhookUrl: 'https://example.com', webhookBody: { call_id: '{{call_id}}' } }],
      variables: [{ name: 'x', location: 'body.id', stepId: 1 }],
      eventFilters: { aiAgentId: 'a' },
      flowMapping: { some_key: 1 },
    });
  });

  it('passes undocumented keys as sent, and hides one posing as a renamed field', () => {
    const renamed = toServiceNames(createCampaignInput, { name: 'x', colour_code: 1, aiAgentId: 'y' }) as Record<string, unknown>;
    expect(renamed.colour_code).toBe(1);
    expect(renamed.aiAgentId).toBeUndefined();
    expect(Object.keys(renamed)).toHaveLength(3);
  });

  it("renames a CSV mapping's keys, aliases included, each to a service key that still maps its field", () => {
    const mapping = { phone_number: 'Phone', firstname: 'A', first_name: 'B', last_name: 'C', tag: 'D', tag_name: 'E', category: 'F', metadata: ['Plan'] };
    const renamed = toServiceNames(contactCsvMapping, mapping) as Record<string, unknown>;
    expect(renamed).toEqual({ phoneNumber: 'Phone', firstname: 'A', firstName: 'B', lastName: 'C', tag: 'D', tagName: 'E', category: 'F', metadata: ['Plan'] });
    const fields = Object.keys(renamed)
      .filter((key) => key !== 'metadata')
      .map((key) => CSV_MAPPING_KEYS[key as keyof typeof CSV_MAPPING_KEYS]);
    expect(fields).toEqual(['phoneNumber', 'firstname', 'firstname', 'lastname', 'tagName', 'tagName', 'categoryName']);
  });
});
