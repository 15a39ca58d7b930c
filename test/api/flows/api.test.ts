import { okData } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { FLOW_ENV, flowApi, Receiver } from './support';

const SLACK_TEMPLATE = '8a3d2c71-5b8e-4f0a-b6c2-000000000001';

let t: TestApp;
let rx: Receiver;
let a: { key: string; api: ReturnType<typeof flowApi> };
let b: { key: string; api: ReturnType<typeof flowApi> };

beforeAll(async () => {
  t = await startTestApp(FLOW_ENV);
  rx = await Receiver.start();
  const [ka, kb] = [(await t.company('A')).apiKey, (await t.company('B')).apiKey];
  a = { key: ka, api: flowApi(t, ka) };
  b = { key: kb, api: flowApi(t, kb) };
});
afterAll(async () => {
  await t.close();
  await rx.close();
});

const oneStep = () => ({ steps: [{ step_number: 1, webhook_url: `${rx.url}/api` }] });

describe('POST /v1/webhooks/{id}/trigger', () => {
  it('refuses a stopped flow with 409 and says so; a deleted one is not found', async () => {
    const flow = await a.api.create({ ...oneStep(), status: 'stopped' });
    const stopped = await t.request('POST', `/v1/webhooks/${flow.id}/trigger`, { token: a.key, body: {} });
    expect(stopped.status).toBe(409);
    expect(stopped.body).toEqual({ status: 'error', message: 'Webhook flow is stopped: it refuses triggers until its status is running', data: '' });
    okData(await t.request('DELETE', `/v1/webhooks/${flow.id}`, { token: a.key }));
    const deleted = await t.request('POST', `/v1/webhooks/${flow.id}/trigger`, { token: a.key, body: {} });
    expect(deleted.status).toBe(404);
    expect(deleted.body).toEqual({ status: 'error', message: 'Not found', data: '' });
  });

  it('refuses a flow without steps', async () => {
    const flow = await a.api.create({});
    const res = await t.request('POST', `/v1/webhooks/${flow.id}/trigger`, { token: a.key });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: 'Webhook flow has no steps to run', data: '' });
  });

  it.each([
    ['variables that are not an object', { variables: [1] }, 'variables', 'Expected record, received array'],
    ['a bad variable name', { variables: { 'has space': 1 } }, 'variables.has space', 'Variable names are 1 to 100 letters, digits, _, . or -'],
    ['an unknown field', { variables: {}, extra: 1 }, 'extra', 'Unknown field'],
  ])('refuses %s', async (_name, body, field, message) => {
    const flow = await a.api.create(oneStep());
    const res = await t.request('POST', `/v1/webhooks/${flow.id}/trigger`, { token: a.key, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: 'Validation failed', data: [{ field, message }] });
  });

  it('accepts a trigger without a body', async () => {
    const flow = await a.api.create(oneStep());
    const started = okData(await t.request('POST', `/v1/webhooks/${flow.id}/trigger`, { token: a.key }));
    expect(started).toMatchObject({ status: 'in_progress', variables: {} });
    await a.api.settled(flow.id, started.id);
  });
});

describe('executions', () => {
  it('lists newest first with limit and cursor; the flow shows its latest executions inline', async () => {
    const flow = await a.api.create(oneStep());
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await a.api.trigger(flow.id, { i })).id);
    for (const id of ids) await a.api.settled(flow.id, id);
    const first = okData(await t.request('GET', `/v1/webhooks/${flow.id}/executions?limit=2`, { token: a.key }));
    expect(first.items.map((e: any) => e.id)).toEqual([ids[4], ids[3]]);
    expect(first.items[0]).toMatchObject({ flow_id: flow.id, status: 'success', attempt_number: 1 });
    expect(first.items[0]).not.toHaveProperty('steps');
    const rest = okData(await t.request('GET', `/v1/webhooks/${flow.id}/executions?limit=10&cursor=${first.next_cursor}`, { token: a.key }));
    expect(rest.items.map((e: any) => e.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(rest.next_cursor).toBeNull();
    const shown = okData(await t.request('GET', `/v1/webhooks/${flow.id}`, { token: a.key }));
    expect(shown.executions.map((e: any) => e.id)).toEqual([...ids].reverse());
    expect(Object.keys(shown.executions[0]).sort()).toEqual(['id', 'status', 'attempt_number', 'executed_at', 'created_at', 'updated_at', 'next_retry_at', 'finished_at', 'error_message'].sort());
  });

  it('answers 400 on a bad limit or cursor, 404 on an execution of another flow', async () => {
    const flow = await a.api.create(oneStep());
    const other = await a.api.create(oneStep());
    const { id } = await a.api.trigger(flow.id);
    expect((await t.request('GET', `/v1/webhooks/${flow.id}/executions?limit=0`, { token: a.key })).body.data).toEqual([{ field: 'limit', message: 'Must be between 1 and 200' }]);
    expect((await t.request('GET', `/v1/webhooks/${flow.id}/executions?cursor=nope`, { token: a.key })).status).toBe(400);
    expect((await t.request('GET', `/v1/webhooks/${other.id}/executions/${id}`, { token: a.key })).status).toBe(404);
    expect((await t.request('GET', `/v1/webhooks/${flow.id}/executions/not-a-uuid`, { token: a.key })).status).toBe(400);
    await a.api.settled(flow.id, id);
  });
});

describe('integration templates', () => {
  it("copies a template into the caller's workspace as a new running flow with its own secret, leaving the template as it was", async () => {
    const before = okData<any[]>(await t.request('GET', '/v1/integrations/templates', { token: a.key }));
    const template = before.find((f) => f.id === SLACK_TEMPLATE)!;
    const copy = okData(await t.request('POST', `/v1/integrations/templates/${SLACK_TEMPLATE}/use`, { token: a.key, body: { workspace: 'ops', name: 'Our Slack' } }));
    expect(copy).toMatchObject({ name: 'Our Slack', workspace_id: 'ops', is_template: false, status: 'running', executions: [] });
    expect(copy.id).not.toBe(SLACK_TEMPLATE);
    expect(copy.secret).toMatch(/^whsec_/);
    expect(copy.predefinedVariables).toEqual(template.predefinedVariables);
    const strip = (steps: any[]) => steps.map(({ id: _i, created_at: _c, updated_at: _u, ...s }) => s);
    expect(strip(copy.steps)).toEqual(strip(template.steps));
    expect(copy.steps[0].id).not.toBe(template.steps[0].id);
    expect(okData<any[]>(await t.request('GET', '/v1/webhooks?workspace=ops', { token: a.key })).map((f) => f.id)).toEqual([copy.id]);
    expect(okData<any[]>(await t.request('GET', '/v1/integrations/templates', { token: a.key }))).toEqual(before);
    const named = okData(await t.request('POST', `/v1/integrations/templates/${SLACK_TEMPLATE}/use`, { token: a.key }));
    expect(named).toMatchObject({ name: template.name, workspace_id: 'default' });
  });

  it('refuses unknown templates, company flows, and bad bodies', async () => {
    const own = await a.api.create(oneStep());
    expect((await t.request('POST', `/v1/integrations/templates/${own.id}/use`, { token: a.key })).status).toBe(404);
    expect((await t.request('POST', '/v1/integrations/templates/8a3d2c71-5b8e-4f0a-b6c2-0000000000ff/use', { token: a.key })).status).toBe(404);
    const bad = await t.request('POST', `/v1/integrations/templates/${SLACK_TEMPLATE}/use`, { token: a.key, body: { workspace: '' } });
    expect(bad.body.data).toEqual([{ field: 'workspace', message: 'Workspace must not be empty' }]);
  });
});

describe('tenancy', () => {
  it("company B cannot trigger, read executions of, rotate or use as a template A's flows", async () => {
    const flow = await a.api.create(oneStep());
    const { id } = await a.api.trigger(flow.id);
    await a.api.settled(flow.id, id);
    const attempts = [
      ['POST', `/v1/webhooks/${flow.id}/trigger`],
      ['GET', `/v1/webhooks/${flow.id}/executions`],
      ['GET', `/v1/webhooks/${flow.id}/executions/${id}`],
      ['POST', `/v1/webhooks/${flow.id}/rotate-secret`],
      ['POST', `/v1/integrations/templates/${flow.id}/use`],
    ] as const;
    for (const [method, path] of attempts) {
      const res = await t.request(method, path, { token: b.key, body: method === 'POST' ? {} : undefined });
      expect([path, res.status, res.body]).toEqual([path, 404, { status: 'error', message: 'Not found', data: '' }]);
    }
    const after = okData(await t.request('GET', `/v1/webhooks/${flow.id}/executions`, { token: a.key }));
    expect(after.items.map((e: any) => e.id)).toEqual([id]);
    expect(okData<any[]>(await t.request('GET', '/v1/webhooks', { token: b.key }))).toEqual([]);
  });

  it('answers 401 without credentials', async () => {
    const flow = await a.api.create(oneStep());
    for (const path of [`/v1/webhooks/${flow.id}/trigger`, `/v1/webhooks/${flow.id}/rotate-secret`, `/v1/integrations/templates/${SLACK_TEMPLATE}/use`]) {
      expect((await t.request('POST', path)).status).toBe(401);
    }
    expect((await t.request('GET', `/v1/webhooks/${flow.id}/executions`)).status).toBe(401);
  });
});
