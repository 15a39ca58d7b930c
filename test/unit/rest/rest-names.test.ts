import { createWebhookInput } from '../../../src/services/flows/flow.input';
import { createCampaignInput } from '../../../src/services/campaigns/campaign.contract';
import { toServiceNames } from '../../../src/rest/rest-names';

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
});
