import { okData, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => ({ t, a, b } = await twoTenants()));
afterAll(() => t.close());

const FLOW_FIELDS = [
  'id',
  'created_by',
  'company_id',
  'workspace_id',
  'name',
  'logo',
  'retry_delay',
  'retry_delay_unit',
  'max_retries',
  'status',
  'created_at',
  'updated_at',
  'executions',
  'steps',
  'is_template',
  'flow_direction',
  'flow_mapping',
  'tag_name',
  'category_name',
  'deleted_at',
  'predefinedVariables',
  'variables',
  // Event subscriptions (issue 13, docs/flows.md): beyond the interface's fields.
  'events',
  'event_filters',
];
const STEP_FIELDS = [
  'id',
  'step_number',
  'webhook_url',
  'webhook_method',
  'webhook_timeout',
  'retry_limit',
  'timeout',
  'created_at',
  'updated_at',
  'deleted_at',
  'webhook_url_params',
  'webhook_headers',
  'webhook_body',
  'depends_on_step',
  'success_condition',
];

const flow = {
  name: 'CRM sync',
  retry_delay: 5,
  retry_delay_unit: 'minutes',
  max_retries: 2,
  predefinedVariables: [{ name: 'base', value: 'https://crm.example.com' }],
  variables: [{ name: 'crm_id', location: 'body.id', stepId: 1, type: 'string', dataType: 'string', customValue: '' }],
  steps: [
    { step_number: 2, webhook_url: '{{base}}/notes', webhook_method: 'post', depends_on_step: 1, webhook_body: { id: '{{crm_id}}' } },
    { step_number: 1, webhook_url: 'https://crm.example.com/contacts', webhook_method: 'PUT', webhook_headers: { 'X-Key': '{{key}}' }, success_condition: { '==': [{ var: 'status' }, 201] } },
  ],
};

describe('webhook flows', () => {
  it('creates a flow with steps and variables, showing its signing secret once', async () => {
    const made = okData(await t.request('POST', '/v1/webhooks', { token: a.key, body: flow }));
    expect(made.secret).toMatch(/^whsec_/);
    const { secret: _secret, ...shape } = made;
    expect(Object.keys(shape).sort()).toEqual([...FLOW_FIELDS].sort());
    expect(made).toMatchObject({ name: 'CRM sync', status: 'running', is_template: false, flow_direction: 'outbound', workspace_id: 'default', executions: [] });
    expect(made.steps.map((s: any) => s.step_number)).toEqual([1, 2]);
    expect(Object.keys(made.steps[0]).sort()).toEqual([...STEP_FIELDS].sort());
    expect(made.steps[1]).toMatchObject({ webhook_method: 'POST', depends_on_step: 1, webhook_body: { id: '{{crm_id}}' }, webhook_timeout: 10, retry_limit: 0 });
    const read = okData(await t.request('GET', `/v1/webhooks/${made.id}`, { token: a.key }));
    expect(read).not.toHaveProperty('secret');
    expect(read.variables).toEqual(flow.variables);
    expect(read.predefinedVariables).toEqual(flow.predefinedVariables.map((v: object) => ({ ...v, secret: false })));
  });

  it.each([
    [
      'a duplicate step number',
      {
        steps: [
          { step_number: 1, webhook_url: 'https://x.io' },
          { step_number: 1, webhook_url: 'https://y.io' },
        ],
      },
      'steps[1].step_number',
      'Step numbers must be unique',
    ],
    [
      'a dependency on a later step',
      {
        steps: [
          { step_number: 1, webhook_url: 'https://x.io', depends_on_step: 2 },
          { step_number: 2, webhook_url: 'https://y.io' },
        ],
      },
      'steps[0].depends_on_step',
      'Must name an earlier step of this flow',
    ],
    [
      'an unknown method',
      { steps: [{ step_number: 1, webhook_url: 'https://x.io', webhook_method: 'FETCH' }] },
      'steps[0].webhook_method',
      'Must be one of GET, POST, PUT, DELETE, PATCH, OPTIONS, HEAD',
    ],
    ['a non-http URL', { steps: [{ step_number: 1, webhook_url: 'ftp://x.io' }] }, 'steps[0].webhook_url', 'Must be an http or https URL'],
    ['a bad retry unit', { retry_delay_unit: 'weeks' }, 'retry_delay_unit', 'Must be one of seconds, minutes, hours, days'],
    ['a variable of no step', { variables: [{ name: 'v', location: 'body.id', stepId: 9 }] }, 'variables[0].stepId', 'Must name a step of this flow'],
  ])('refuses %s', async (_name, patch, field, message) => {
    const res = await t.request('POST', '/v1/webhooks', { token: a.key, body: { name: 'bad', ...patch } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: 'Validation failed', data: [{ field, message }] });
  });

  it("lists a workspace's flows (workspace or workspace_id parameter), only the company's", async () => {
    const ops = okData(await t.request('POST', '/v1/webhooks', { token: a.key, body: { name: 'Ops', workspace: 'ops' } }));
    const byDefault = okData<any[]>(await t.request('GET', '/v1/webhooks', { token: a.key }));
    expect(byDefault.map((f) => f.id)).not.toContain(ops.id);
    expect(byDefault.every((f) => f.workspace_id === 'default' && f.company_id === a.companyId)).toBe(true);
    for (const q of ['workspace=ops', 'workspace_id=ops']) {
      expect(okData<any[]>(await t.request('GET', `/v1/webhooks?${q}`, { token: a.key })).map((f) => f.id)).toEqual([ops.id]);
    }
    expect(okData<any[]>(await t.request('GET', '/v1/webhooks?workspace=ops', { token: b.key }))).toEqual([]);
    expect(byDefault.every((f) => !('secret' in f))).toBe(true);
  });

  it('updates partially, replacing steps when sent', async () => {
    const made = okData(await t.request('POST', '/v1/webhooks', { token: a.key, body: flow }));
    expect((await t.request('PATCH', `/v1/webhooks/${made.id}`, { token: b.key, body: { name: 'x' } })).status).toBe(404);
    const renamed = okData(await t.request('PATCH', `/v1/webhooks/${made.id}`, { token: a.key, body: { status: 'stopped' } }));
    expect(renamed).toMatchObject({ name: 'CRM sync', status: 'stopped' });
    expect(renamed.steps).toHaveLength(2);
    const orphan = await t.request('PATCH', `/v1/webhooks/${made.id}`, { token: a.key, body: { steps: [{ step_number: 5, webhook_url: 'https://x.io' }] } });
    expect(orphan.body.data).toEqual([{ field: 'variables[0].stepId', message: 'Must name a step of this flow' }]);
    const replaced = okData(await t.request('PATCH', `/v1/webhooks/${made.id}`, { token: a.key, body: { variables: [], steps: [{ step_number: 5, webhook_url: 'https://x.io' }] } }));
    expect(replaced.steps.map((s: any) => s.step_number)).toEqual([5]);
  });

  it('soft-deletes, hiding the flow from reads and lists', async () => {
    const made = okData(await t.request('POST', '/v1/webhooks', { token: a.key, body: { name: 'Temp' } }));
    expect((await t.request('DELETE', `/v1/webhooks/${made.id}`, { token: b.key })).status).toBe(404);
    okData(await t.request('DELETE', `/v1/webhooks/${made.id}`, { token: a.key }));
    expect((await t.request('GET', `/v1/webhooks/${made.id}`, { token: a.key })).status).toBe(404);
    expect(okData<any[]>(await t.request('GET', '/v1/webhooks', { token: a.key })).map((f) => f.id)).not.toContain(made.id);
  });
});

describe('GET /v1/integrations/templates', () => {
  it('lists the built-in catalogue of template flows, with steps, for every company', async () => {
    const list = okData<any[]>(await t.request('GET', '/v1/integrations/templates', { token: a.key }));
    expect(list.length).toBeGreaterThanOrEqual(5);
    expect(list.every((f) => f.is_template === true && f.company_id === null && f.steps.length > 0)).toBe(true);
    expect(list.map((f) => f.name)).toEqual(expect.arrayContaining(['Slack incoming webhook', 'Generic JSON POST']));
    expect(Object.keys(list[0]).sort()).toEqual([...FLOW_FIELDS].sort());
    expect(okData<any[]>(await t.request('GET', '/v1/integrations/templates', { token: b.key }))).toEqual(list);
  });
});
