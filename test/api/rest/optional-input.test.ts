import { randomUUID } from 'node:crypto';
import { okData, oneTenant, type Tenant } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';

let t: TestApp;
let a: Tenant;
let doc: any;

beforeAll(async () => {
  ({ t, a } = await oneTenant());
  doc = (await t.request('GET', '/openapi.json')).body;
});
afterAll(() => t.close());

const bodyRequired = (path: string, method: string): boolean => doc.paths[path][method].requestBody.required;

describe('request bodies', () => {
  it('are documented as optional exactly where the operation works without one (campaign update, template use, trigger, the partial updates)', async () => {
    const template = okData(await t.request('GET', '/v1/integrations/templates', { token: a.key }))[0];
    const scenario = okData(await t.request('POST', `/v1/ai-agent/${a.agent.id}/scenarios`, { token: a.key, body: { name: 'hello', caller_turns: [{ say: 'Hello' }], criteria: [] } }));
    const records: Record<string, string> = {
      update: a.campaign.id,
      templates: template.id,
      webhooks: a.flow.id,
      contacts: a.contact.id,
      'ai-agent': a.agent.id,
      'phone-numbers': a.number.id,
      'agent-scenarios': scenario.id,
    };
    // Run without a body too, where they have what they need (a model, a finished call): test/api/agent-tests.
    const elsewhere = new Set(['post /v1/ai-agent/{id}/test-runs', 'post /v1/calls/{id}/replay']);
    const optional = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) => (op.requestBody?.required === false ? [`${method} ${path}`] : [])),
    );
    expect(optional.sort()).toEqual([
      'patch /v1/agent-scenarios/{id}',
      'patch /v1/ai-agent/{id}',
      'patch /v1/contacts/{id}',
      'patch /v1/phone-numbers/{id}',
      'patch /v1/webhooks/{id}',
      'post /compaign/v1/campaign/update/{id}',
      'post /v1/ai-agent/{id}/publish',
      'post /v1/ai-agent/{id}/test-runs',
      'post /v1/calls/{id}/replay',
      'post /v1/integrations/templates/{id}/use',
      'post /v1/webhooks/{id}/trigger',
    ]);
    for (const operation of optional.filter((o) => !elsewhere.has(o))) {
      const [method, path] = operation.split(' ') as [string, string];
      const concrete = path.replace(/([\w-]+)\/\{id\}/, (_, collection: string) => `${collection}/${records[collection]}`);
      okData(await t.request(method.toUpperCase(), concrete, { token: a.key }));
    }
  });

  it('stay required where the operation needs one', async () => {
    for (const path of ['/v1/ai-agent', '/v1/calls/make-call', '/v1/webhooks']) {
      expect((await t.request('POST', path, { token: a.key })).status).toBe(400);
      expect(bodyRequired(path, 'post')).toBe(true);
    }
    expect(bodyRequired('/v1/contacts/import', 'post')).toBe(true);
  });
});

describe('?workspace= (empty)', () => {
  it('means `default` when listing agents and flows, as leaving it out does', async () => {
    for (const path of ['/v1/ai-agent', '/v1/webhooks']) {
      const absent = okData(await t.request('GET', path, { token: a.key }));
      expect(absent.length).toBeGreaterThan(0);
      expect(okData(await t.request('GET', `${path}?workspace=`, { token: a.key }))).toEqual(absent);
    }
    okData(await t.request('POST', '/v1/webhooks', { token: a.key, body: { name: 'Elsewhere', workspace: 'other', steps: [] } }));
    const other = okData(await t.request('GET', '/v1/webhooks?workspace=&workspace_id=other', { token: a.key }));
    expect(other.map((f: { name: string }) => f.name)).toEqual(['Elsewhere']);
  });

  it('still refuses a workspace of spaces', async () => {
    const res = await t.request('GET', '/v1/ai-agent?workspace=%20%20', { token: a.key });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'workspace', message: 'Workspace must not be empty' }]);
  });
});

describe('a JWT `sub`', () => {
  it("is stored as the flow's created_by only when it is a UUID (the interface's type); otherwise created_by is null", async () => {
    const user = randomUUID();
    const create = (sub: string) => t.request('POST', '/v1/webhooks', { token: t.jwtFor(a.companyId, { sub }), body: { name: `By ${sub}`, steps: [] } });
    expect(okData(await create(user.toUpperCase())).created_by).toBe(user);
    expect(okData(await create('user-1')).created_by).toBeNull();
    expect(okData(await create('auth0|5f7c8ec7c33c6c004bbafe82')).created_by).toBeNull();
  });
});
