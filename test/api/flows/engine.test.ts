import { startApp } from '../../../src/app';
import { createLogger } from '../../../src/logger';
import { startTestApp, testConfig, type TestApp } from '../../support/harness';
import { answer, FLOW_ENV, flowApi, inTurn, Receiver } from './support';

let t: TestApp;
let rx: Receiver;
let api: ReturnType<typeof flowApi>;
let key: string;

beforeAll(async () => {
  t = await startTestApp(FLOW_ENV);
  rx = await Receiver.start();
  ({ apiKey: key } = await t.company('Engine'));
  api = flowApi(t, key);
});
afterAll(async () => {
  await t.close();
  await rx.close();
});

describe('flow execution', () => {
  it('runs steps in order, feeding variables extracted from responses into later steps', async () => {
    rx.on('/contacts', answer(201, { id: 'crm-42', score: '17' }, { 'x-request-id': 'req-9' }));
    const flow = await api.create({
      predefinedVariables: [
        { name: 'base', value: rx.url },
        { name: 'plan', value: 'basic' },
        { name: 'who', value: 'predefined' },
      ],
      variables: [
        { name: 'crm_id', location: 'body.id', stepId: 1, dataType: 'string' },
        { name: 'score', location: 'body.score', stepId: 1, dataType: 'number' },
        { name: 'trace', location: 'headers.X-Request-Id', stepId: 1 },
        { name: 'missing', location: 'body.nope', stepId: 1, customValue: 'fallback' },
      ],
      steps: [
        {
          step_number: 2,
          webhook_url: '{{base}}/notes/{{crm_id}}',
          webhook_method: 'PUT',
          depends_on_step: 1,
          webhook_url_params: { trace: '{{trace}}', plan: '{{plan}}' },
          webhook_headers: { 'X-Who': '{{who}}' },
          webhook_body: { score: '{{score}}', text: 'Score {{score}} for {{name}}', fallback: '{{missing}}', unknown: 'x{{nothing}}y' },
        },
        { step_number: 1, webhook_url: '{{base}}/contacts', webhook_method: 'POST', webhook_body: { name: '{{name}}' } },
      ],
    });
    const name = "Ada? O'Neil \\ $1 {{plan}}";
    const started = await api.trigger(flow.id, { name, who: 'trigger' });
    expect(started).toMatchObject({ status: 'in_progress', attempt_number: 1, flow_id: flow.id, variables: { name, who: 'trigger' }, steps: [] });
    const done = await api.settled(flow.id, started.id);
    expect(done).toMatchObject({ status: 'success', attempt_number: 1, error_message: null });
    expect(done.finished_at).not.toBeNull();
    expect(done.executed_at).not.toBeNull();
    expect(done.steps.map((s: any) => [s.step_number, s.status])).toEqual([
      [1, 'success'],
      [2, 'success'],
    ]);
    expect(done.steps[0].variables).toEqual({ crm_id: 'crm-42', score: 17, trace: 'req-9' });
    expect(JSON.parse(rx.at('/contacts')[0].body)).toEqual({ name });
    const note = rx.at('/notes/crm-42')[0];
    expect(note.method).toBe('PUT');
    expect(Object.fromEntries(note.query)).toEqual({ trace: 'req-9', plan: 'basic' });
    expect(note.headers['x-who']).toBe('trigger');
    expect(note.headers['content-type']).toBe('application/json');
    expect(JSON.parse(note.body)).toEqual({ score: 17, text: `Score 17 for ${name}`, fallback: 'fallback', unknown: 'xy' });
    // What went out empty is named in the log: `nothing` was given by no source.
    expect(done.steps.map((s: any) => s.unresolved_variables)).toEqual([[], ['nothing']]);
  });

  it('sends the steps due now from the process that stored them, without a job, and keeps no local step once done', async () => {
    const flow = await api.create({
      steps: [
        { step_number: 1, webhook_url: `${rx.url}/local-1` },
        { step_number: 2, webhook_url: `${rx.url}/local-2`, depends_on_step: 1 },
      ],
    });
    const started = await api.trigger(flow.id);
    // Its first step is claimed by the trigger's own statement: the answer is the execution as stored.
    expect(started).toMatchObject({ status: 'in_progress', attempt_number: 1 });
    expect(started.executed_at).not.toBeNull();
    const { id } = started;
    expect((await api.settled(flow.id, id)).status).toBe('success');
    const em = t.app.orm.em.fork();
    const [jobs] = await em.execute(`/* test:check */ SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'flow.step' AND data ->> 'executionId' = ?`, [id]);
    expect(jobs.n).toBe(0);
    const [row] = await em.execute(`/* test:check */ SELECT local_step, local_until FROM webhook_executions WHERE id = ?`, [id]);
    expect(row).toEqual({ local_step: null, local_until: null });
    expect(rx.at('/local-1')).toHaveLength(1);
    expect(rx.at('/local-2')).toHaveLength(1);
  });

  it('answers `scheduled` and queues the first step as a job on a replica without job workers, which another replica runs', async () => {
    const flow = await api.create({ steps: [{ step_number: 1, webhook_url: `${rx.url}/queued` }] });
    // An API replica on the same database; `t`'s app is the worker replica.
    const config = testConfig(t.databaseUrl, { ...FLOW_ENV, JOB_WORKERS: '0' });
    const apiOnly = await startApp(config, createLogger(config.logLevel));
    try {
      const res = await fetch(`${apiOnly.url}/v1/webhooks/${flow.id}/trigger`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}' });
      const started = ((await res.json()) as { data: any }).data;
      expect(res.status).toBe(200);
      expect(started).toMatchObject({ status: 'scheduled', executed_at: null, steps: [] });
      const [jobs] = await apiOnly.orm.em.fork().execute(`/* test:check */ SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'flow.step' AND data ->> 'executionId' = ?`, [started.id]);
      expect(jobs.n).toBe(1);
      expect((await api.settled(flow.id, started.id)).status).toBe('success');
      expect(rx.at('/queued')).toHaveLength(1);
    } finally {
      await apiOnly.close();
    }
  });

  it('names in the step log the placeholders of URL, parameters, headers and body that no source gave', async () => {
    const flow = await api.create({
      predefinedVariables: [{ name: 'base', value: rx.url }],
      steps: [
        {
          step_number: 1,
          webhook_url: '{{base}}/named/{{id}}',
          webhook_method: 'POST',
          webhook_url_params: { q: '{{query}}' },
          webhook_headers: { 'X-{{hname}}': '{{hvalue}}' },
          webhook_body: { who: '{{who}}', given: '{{given}}', nil: '{{nil}}' },
        },
      ],
    });
    const done = await api.settled(flow.id, (await api.trigger(flow.id, { given: 'yes', nil: null, id: 7 })).id);
    expect(done.steps[0]).toMatchObject({ status: 'success', unresolved_variables: ['hname', 'hvalue', 'query', 'who'] });
    expect(JSON.parse(rx.at('/named/7')[0].body)).toEqual({ who: '', given: 'yes', nil: '' });
  });

  it('skips a step whose dependency failed, and a step depending on a skipped one, but runs independent steps', async () => {
    rx.on('/dep/fail', answer(500, { error: 'boom' }));
    const flow = await api.create({
      max_retries: 0,
      steps: [
        { step_number: 1, webhook_url: `${rx.url}/dep/fail` },
        { step_number: 2, webhook_url: `${rx.url}/dep/two`, depends_on_step: 1 },
        { step_number: 3, webhook_url: `${rx.url}/dep/three`, depends_on_step: 2 },
        { step_number: 4, webhook_url: `${rx.url}/dep/four` },
      ],
    });
    const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
    expect(done.status).toBe('failed');
    expect(done.error_message).toBe('Step 1 failed: HTTP 500 (expected 2xx)');
    expect(done.steps.map((s: any) => [s.step_number, s.status, s.error])).toEqual([
      [1, 'failed', 'HTTP 500 (expected 2xx)'],
      [2, 'skipped', 'Skipped: step 1 did not succeed'],
      [3, 'skipped', 'Skipped: step 2 did not succeed'],
      [4, 'success', null],
    ]);
    expect(rx.at('/dep/two')).toHaveLength(0);
    expect(rx.at('/dep/three')).toHaveLength(0);
    expect(rx.at('/dep/four')).toHaveLength(1);
    expect(done.steps[0].response).toMatchObject({ status: 500, body: '{"error":"boom"}', truncated: false });
  });

  it('sends every documented method, with a JSON body except for GET and HEAD', async () => {
    const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];
    const flow = await api.create({
      steps: methods.map((m, i) => ({ step_number: i + 1, webhook_method: m, webhook_url: `${rx.url}/method/${m}`, webhook_body: { m } })),
    });
    const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
    expect(done.status).toBe('success');
    for (const m of methods) {
      const [req] = rx.at(`/method/${m}`);
      expect(req.method).toBe(m);
      if (m === 'GET' || m === 'HEAD') expect(req.body).toBe('');
      else expect(JSON.parse(req.body)).toEqual({ m });
    }
    expect(done.steps.map((s: any) => s.request.method)).toEqual(methods);
  });

  it('fails a step whose JSON Logic success condition is false, and passes one that holds', async () => {
    rx.on('/logic', answer(200, { state: 'queued', count: 3 }));
    const flow = await api.create({
      max_retries: 0,
      steps: [
        { step_number: 1, webhook_url: `${rx.url}/logic`, success_condition: { and: [{ '==': [{ var: 'status' }, 200] }, { '>': [{ var: 'body.count' }, 2] }] } },
        { step_number: 2, webhook_url: `${rx.url}/logic`, success_condition: { '==': [{ var: 'body.state' }, 'done'] } },
      ],
    });
    const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
    expect(done.status).toBe('failed');
    expect(done.steps.map((s: any) => [s.status, s.error])).toEqual([
      ['success', null],
      ['failed', 'HTTP 200: success_condition not met'],
    ]);
    expect(done.error_message).toBe('Step 2 failed: HTTP 200: success_condition not met');
  });

  it('fails, without retrying, a step whose success condition is not valid JSON Logic', async () => {
    const flow = await api.create({ max_retries: 0, steps: [{ step_number: 1, webhook_url: `${rx.url}/bad-rule`, retry_limit: 3, success_condition: { frobnicate: [1] } }] });
    const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
    expect(done.steps[0]).toMatchObject({ status: 'failed', tries: 1, error: 'success_condition is not valid JSON Logic: Unrecognized operation frobnicate' });
  });

  it('fails a step whose URL is not valid once filled, showing the template rather than the values', async () => {
    const flow = await api.create({ max_retries: 0, steps: [{ step_number: 1, webhook_url: '{{target}}/hook', retry_limit: 2 }] });
    const done = await api.settled(flow.id, (await api.trigger(flow.id, { target: 'token-123' })).id);
    expect(done.steps[0]).toMatchObject({ status: 'failed', tries: 0, request: null, error: 'Not a valid URL once its placeholders are filled: {{target}}/hook' });
  });

  it('retries a step within the attempt, then succeeds, logging each earlier failure', async () => {
    rx.on('/flaky', inTurn(answer(503, {}), answer(502, {}), answer(200, { ok: true })));
    const flow = await api.create({ steps: [{ step_number: 1, webhook_url: `${rx.url}/flaky`, retry_limit: 3 }] });
    const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
    expect(done).toMatchObject({ status: 'success', attempt_number: 1 });
    expect(done.steps).toHaveLength(1);
    expect(done.steps[0]).toMatchObject({ status: 'success', tries: 3, try_errors: ['HTTP 503 (expected 2xx)', 'HTTP 502 (expected 2xx)'] });
    expect(rx.at('/flaky')).toHaveLength(3);
  });

  it('gives up a step after retry_limit retries', async () => {
    rx.on('/down', answer(500, {}));
    const flow = await api.create({ max_retries: 0, steps: [{ step_number: 1, webhook_url: `${rx.url}/down`, retry_limit: 2 }] });
    const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
    expect(done.status).toBe('failed');
    expect(done.steps[0]).toMatchObject({ tries: 3, try_errors: ['HTTP 500 (expected 2xx)', 'HTTP 500 (expected 2xx)'] });
    expect(rx.at('/down')).toHaveLength(3);
  });

  it("stores a receiver's NUL characters and unpaired surrogates, which PostgreSQL refuses, as U+FFFD, and runs on", async () => {
    rx.on('/escapes', answer(200, { note: 'a\u0000b', lone: '\ud800', ['k\u0000']: 1 }));
    rx.on('/raw', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x\u0000y');
    });
    const flow = await api.create({
      variables: [
        { name: 'note', location: 'body.note', stepId: 1 },
        { name: 'lone', location: 'body.lone', stepId: 1 },
      ],
      steps: [
        { step_number: 1, webhook_url: `${rx.url}/escapes` },
        { step_number: 2, webhook_url: `${rx.url}/raw`, depends_on_step: 1, webhook_body: { note: '{{note}}' } },
      ],
    });
    const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
    expect(done).toMatchObject({ status: 'success' });
    expect(done.steps[0].variables).toEqual({ note: 'a\uFFFDb', lone: '\uFFFD' });
    expect(JSON.parse(done.steps[0].response.body)).toEqual({ note: 'a\u0000b', lone: '\ud800', ['k\u0000']: 1 });
    expect(done.steps[1].response.body).toBe('x\uFFFDy');
    expect(JSON.parse(rx.at('/raw')[0].body)).toEqual({ note: 'a\uFFFDb' });
  });

  it('logs the request with credentials redacted', async () => {
    const flow = await api.create({
      steps: [
        {
          step_number: 1,
          webhook_url: `${rx.url}/secretive?api_key=k-123&page=2`,
          webhook_headers: { Authorization: 'Bearer live-token', 'X-Api-Key': 'k-456', 'X-Plain': 'visible' },
          webhook_body: { hello: 'world' },
        },
      ],
    });
    const done = await api.settled(flow.id, (await api.trigger(flow.id)).id);
    const { request } = done.steps[0];
    expect(request.url).toBe(`${rx.url}/secretive?api_key=%5Bredacted%5D&page=2`);
    expect(request.headers).toMatchObject({ Authorization: '[redacted]', 'X-Api-Key': '[redacted]', 'X-Plain': 'visible', 'webhook-signature': '[redacted]' });
    expect(request.body).toBe('{"hello":"world"}');
    expect(JSON.stringify(done)).not.toMatch(/live-token|k-123|k-456/);
    expect(rx.at('/secretive')[0].headers.authorization).toBe('Bearer live-token');
  });
});
