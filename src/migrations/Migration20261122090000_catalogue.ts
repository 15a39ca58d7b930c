import { Migration } from '@mikro-orm/migrations';

/**
 * The built-in catalogue every company can read: agent templates (interface 4.8) and
 * integration templates (4.10), which are flows with `is_template` true. Fixed ids, so that
 * clients may link to them; companies copy them, never edit them.
 */
const AT = '2026-11-22T00:00:00Z';

const agentTemplates = [
  {
    id: '6f1c0b5e-0a51-4c37-9a11-000000000001',
    name: 'Appointment reminder',
    description: 'Confirms, reschedules or cancels an upcoming appointment.',
    prompt: 'You are a friendly assistant calling {{firstname}} to confirm their appointment on {{appointment_date}}. Confirm, offer to reschedule, or cancel, then thank them.',
    starting_state: 'greeting',
    agent_type: 'outbound',
  },
  {
    id: '6f1c0b5e-0a51-4c37-9a11-000000000002',
    name: 'Lead qualification',
    description: 'Qualifies inbound leads with budget, authority, need and timing questions.',
    prompt: 'You are a sales development representative. Ask {{firstname}} about their needs, budget, decision process and timeline. Be concise and polite.',
    starting_state: 'introduction',
    agent_type: 'outbound',
  },
  {
    id: '6f1c0b5e-0a51-4c37-9a11-000000000003',
    name: 'Customer satisfaction survey',
    description: 'Asks three short questions after a purchase and records a 1-5 score.',
    prompt: 'You are calling {{firstname}} about their recent order. Ask how satisfied they are on a scale of 1 to 5, what went well, and what could be better.',
    starting_state: 'survey',
    agent_type: 'outbound',
  },
  {
    id: '6f1c0b5e-0a51-4c37-9a11-000000000004',
    name: 'Inbound receptionist',
    description: 'Answers incoming calls, takes messages and routes urgent requests.',
    prompt: 'You are the receptionist of {{company_name}}. Greet the caller, find out what they need, take a message with their name and number.',
    starting_state: 'greeting',
    agent_type: 'inbound',
  },
];

interface TemplateStep {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body: unknown;
}

const integrationTemplates: { id: string; name: string; logo: string; category: string; step: TemplateStep; predefined: { name: string; value: string }[] }[] = [
  {
    id: '8a3d2c71-5b8e-4f0a-b6c2-000000000001',
    name: 'Slack incoming webhook',
    logo: 'slack',
    category: 'messaging',
    step: { url: '{{slack_webhook_url}}', method: 'POST', body: { text: 'Call to {{call_to}} ended: {{call_status}} ({{call_duration}} s)' } },
    predefined: [{ name: 'slack_webhook_url', value: 'https://hooks.slack.com/services/REPLACE/ME' }],
  },
  {
    id: '8a3d2c71-5b8e-4f0a-b6c2-000000000002',
    name: 'HubSpot contact upsert',
    logo: 'hubspot',
    category: 'crm',
    step: {
      url: 'https://api.hubapi.com/crm/v3/objects/contacts/batch/upsert',
      method: 'POST',
      headers: { Authorization: 'Bearer {{hubspot_token}}' },
      body: { inputs: [{ idProperty: 'phone', id: '{{phone_number}}', properties: { firstname: '{{firstname}}', lastname: '{{lastname}}', phone: '{{phone_number}}' } }] },
    },
    predefined: [{ name: 'hubspot_token', value: '' }],
  },
  {
    id: '8a3d2c71-5b8e-4f0a-b6c2-000000000003',
    name: 'Google Sheets append (Apps Script)',
    logo: 'google-sheets',
    category: 'spreadsheet',
    step: { url: '{{apps_script_url}}', method: 'POST', body: { row: ['{{call_id}}', '{{call_to}}', '{{call_status}}', '{{call_duration}}'] } },
    predefined: [{ name: 'apps_script_url', value: 'https://script.google.com/macros/s/REPLACE_ME/exec' }],
  },
  {
    id: '8a3d2c71-5b8e-4f0a-b6c2-000000000004',
    name: 'Zapier catch hook',
    logo: 'zapier',
    category: 'automation',
    step: { url: '{{zapier_hook_url}}', method: 'POST', body: { call_id: '{{call_id}}', status: '{{call_status}}', contact: '{{phone_number}}' } },
    predefined: [{ name: 'zapier_hook_url', value: 'https://hooks.zapier.com/hooks/catch/REPLACE/ME/' }],
  },
  {
    id: '8a3d2c71-5b8e-4f0a-b6c2-000000000005',
    name: 'Generic JSON POST',
    logo: 'webhook',
    category: 'generic',
    step: { url: '{{endpoint_url}}', method: 'POST', headers: { 'Content-Type': 'application/json' }, body: { event: 'call.ended', call_id: '{{call_id}}', status: '{{call_status}}' } },
    predefined: [{ name: 'endpoint_url', value: 'https://example.com/webhooks/switchboard' }],
  },
];

export class Migration20261122090000_catalogue extends Migration {
  override async up(): Promise<void> {
    const knex = this.getKnex();
    for (const a of agentTemplates) {
      this.addSql(
        knex('ai_agents')
          .insert({ ...a, company_id: null, is_template: true, created_at: AT, updated_at: AT, agent_flow: '{}', agent_dynamic_variables: '{}', agent_post_call_outcomes: '{}' })
          .toQuery(),
      );
    }
    for (const t of integrationTemplates) {
      this.addSql(
        knex('webhook_flows')
          .insert({
            id: t.id,
            company_id: null,
            is_template: true,
            name: t.name,
            logo: t.logo,
            category_name: t.category,
            created_at: AT,
            updated_at: AT,
            flow_mapping: '{}',
            predefined_variables: JSON.stringify(t.predefined),
            variables: '[]',
            secret: '',
          })
          .toQuery(),
      );
      this.addSql(
        knex('webhook_steps')
          .insert({
            id: t.id.replace(/^8a3d2c71/, '9b4e3d82'),
            flow_id: t.id,
            step_number: 1,
            webhook_url: t.step.url,
            webhook_method: t.step.method,
            webhook_headers: JSON.stringify(t.step.headers ?? {}),
            webhook_url_params: '{}',
            webhook_body: JSON.stringify(t.step.body),
            created_at: AT,
            updated_at: AT,
          })
          .toQuery(),
      );
    }
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "webhook_flows" where "is_template" and "company_id" is null;`);
    this.addSql(`delete from "ai_agents" where "is_template" and "company_id" is null;`);
  }
}
