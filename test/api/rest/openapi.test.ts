import { restRouter } from '../../../src/rest';
import { openApiPath } from '../../../src/rest/openapi-document';
import { HealthService } from '../../../src/services/platform/health.service';
import { createLogger } from '../../../src/logger';
import { startTestApp, type TestApp } from '../../support/harness';

type Json = Record<string, any>;

let t: TestApp;
let doc: Json;

beforeAll(async () => {
  t = await startTestApp();
  const res = await t.request('GET', '/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(() => t.close());

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of the document: [method, path, operation]. */
const operations = (): [string, string, Json][] =>
  Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => [method, path, op as Json] as [string, string, Json]),
  );

/** Follows a local `$ref` (`#/components/...`); undefined when it points nowhere. */
function resolve(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, key) => (node && typeof node === 'object' ? node[key] : undefined), doc);
}

function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

const deref = (node: Json): Json => (node.$ref ? (resolve(node.$ref) as Json) : node);

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document, served without credentials', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearer: [] }]);
  });

  it('gives every operation a unique id, a summary, a tag and a 200 answer', () => {
    const ids = operations().map(([, , op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [method, path, op] of operations()) {
      expect({ method, path, summary: typeof op.summary, tags: op.tags?.length, ok: !!op.responses?.['200']?.content }).toEqual({
        method,
        path,
        summary: 'string',
        tags: 1,
        ok: true,
      });
    }
  });

  it('has no ambiguous paths: no two that each have a parameter where the other has a fixed segment', () => {
    const paths = Object.keys(doc.paths as Json).map((p) => p.split('/'));
    const param = (segment: string) => segment.startsWith('{');
    const ambiguous = paths.flatMap((a, i) =>
      paths
        .slice(i + 1)
        .filter((b) => {
          if (a.length !== b.length || a.some((seg, k) => seg !== b[k] && !param(seg) && !param(b[k]))) return false;
          const aConcreteFirst = a.some((seg, k) => !param(seg) && param(b[k]));
          const bConcreteFirst = b.some((seg, k) => !param(seg) && param(a[k]));
          return aConcreteFirst && bConcreteFirst;
        })
        .map((b) => `${a.join('/')} ~ ${b.join('/')}`),
    );
    expect(ambiguous).toEqual([]);
  });

  it('resolves every $ref', () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(20);
    expect(refs.filter((r) => resolve(r) === undefined)).toEqual([]);
  });

  it('declares each path parameter, required', () => {
    for (const [, path, op] of operations()) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters as Json[]).filter((p) => p.in === 'path');
      expect({ path, params: declared.map((p) => p.name) }).toEqual({ path, params: names });
      expect(declared.every((p) => p.required === true && p.schema)).toBe(true);
    }
  });

  it('declares 401 and 429 (with Retry-After) on every authenticated operation but the legacy ones (a 200 with Retry-After), and neither on the public ones', () => {
    for (const [method, path, op] of operations()) {
      const isPublic = Array.isArray(op.security) && op.security.length === 0;
      const legacy = path.startsWith('/compaign/');
      const has = (status: string) => op.responses[status] !== undefined;
      expect({ method, path, 401: has('401'), 429: has('429') }).toEqual({ method, path, 401: !isPublic, 429: !isPublic && !legacy });
      if (!isPublic) expect(deref(op.responses[legacy ? '200' : '429']).headers['Retry-After'].schema.type).toBe('integer');
    }
    const publicOps = operations()
      .filter(([, , op]) => Array.isArray(op.security) && op.security.length === 0)
      .map(([m, p]) => `${m} ${p}`);
    expect(publicOps.sort()).toEqual([
      'get /healthz',
      'get /openapi.json',
      'get /readyz',
      'post /v1/telephony/twilio/amd',
      'post /v1/telephony/twilio/dial-ended',
      'post /v1/telephony/twilio/recording',
      'post /v1/telephony/twilio/relay-ended',
      'post /v1/telephony/twilio/status',
      'post /v1/telephony/twilio/voice',
      'post /v1/telephony/twilio/whisper',
    ]);
  });

  it('documents the answers of the relay action, transfer dial and whisper callbacks as TwiML, not JSON', () => {
    for (const path of ['relay-ended', 'dial-ended', 'whisper']) {
      const content = doc.paths[`/v1/telephony/twilio/${path}`].post.responses['200'].content;
      expect(Object.keys(content)).toEqual(['text/xml']);
      expect(content['text/xml'].schema.type).toBe('string');
    }
  });

  it("describes inputs with the services' zod schemas: transforms as what is sent, ranges, unknown fields", () => {
    const makeCall = doc.paths['/v1/calls/make-call'].post;
    const body = makeCall.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['ai_agent_id', 'call_from', 'call_to']);
    expect(body.properties.call_from).toEqual({ type: 'string', examples: ['+14155552671'] });
    expect(body.properties.ai_agent_id).toMatchObject({ type: 'string', format: 'uuid' });
    expect(body.additionalProperties).toBeUndefined();
    const agent = doc.paths['/v1/ai-agent'].post.requestBody.content['application/json'].schema;
    expect(agent.additionalProperties).toBe(false);
    expect(agent.properties.responsiveness).toEqual({ type: 'integer', minimum: 0, maximum: 100 });
    const list = doc.paths['/v1/calls'].get.parameters as Json[];
    expect(list.find((p) => p.name === 'limit')).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', default: 50, maximum: 200 } });
    expect(list.find((p) => p.name === 'status')?.schema.enum).toContain('pstn-queued');
  });

  it('states the rules of make-call (interface 4.1): non-empty workspace, variable names without spaces, non-empty values', () => {
    const body = doc.paths['/v1/calls/make-call'].post.requestBody.content['application/json'].schema;
    const variable = body.properties.dynamic_variables.anyOf[0].items.properties;
    const matches = (schema: Json, s: string) => new RegExp(schema.pattern, 'u').test(s);
    expect([matches(variable.name, 'first_name'), matches(variable.name, ''), matches(variable.name, 'first name')]).toEqual([true, false, false]);
    expect([matches(variable.value, 'Ada'), matches(variable.value, ''), matches(variable.value, '  ')]).toEqual([true, false, false]);
    expect(body.properties.workspace.anyOf[0]).toMatchObject({ type: 'string', minLength: 1, maxLength: 100 });
    expect(matches(body.properties.workspace.anyOf[0], '   ')).toBe(false);
  });

  it("uses only formats OpenAPI tools know (none of zod's own, such as `starts_with`)", () => {
    const formats = new Set<string>();
    JSON.stringify(doc, (key, value) => {
      if (key === 'format' && typeof value === 'string') formats.add(value);
      return value;
    });
    expect([...formats].filter((f) => !['uuid', 'date-time', 'date', 'time', 'email', 'uri', 'int32', 'int64', 'binary'].includes(f))).toEqual([]);
    expect(doc.components.schemas.WebhookFlowWithSecret.properties.secret).toMatchObject({ type: 'string', pattern: '^whsec_.*' });
  });

  it('types query parameters as what a query string can carry: never null', () => {
    const queryParams = operations().flatMap(([, , op]) => (op.parameters as Json[]).filter((p) => p.in === 'query'));
    expect(queryParams.length).toBeGreaterThan(5);
    expect(queryParams.filter((p) => JSON.stringify(p.schema).includes('"null"')).map((p) => p.name)).toEqual([]);
    expect(doc.paths['/v1/ai-agent'].get.parameters.find((p: Json) => p.name === 'workspace').schema).toMatchObject({ type: 'string', maxLength: 100 });
  });

  it('shows realistic examples for ids, timestamps, phone numbers and workspaces', () => {
    const call = doc.components.schemas.Call.properties;
    expect(call.id.examples).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(call.created_at.examples).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\dT/)]);
    expect(doc.paths['/v1/calls/{id}'].get.parameters[0].schema.examples).toEqual(call.id.examples);
    const body = doc.paths['/v1/calls/make-call'].post.requestBody.content['application/json'].schema;
    expect(body.properties.call_to.examples).toEqual(['+14155552671']);
    expect(body.properties.workspace.anyOf[0].examples).toEqual(['default']);
  });

  it('types closed sets as enums', () => {
    const { Call, Contact, WebhookFlow, Campaign } = doc.components.schemas;
    expect(Call.properties.call_direction.enum).toEqual(['outgoing', 'incoming']);
    expect(Contact.properties.last_call_status.anyOf[0].enum).toEqual(expect.arrayContaining(['picked-up', 'busy', 'no-answer', 'unreachable', 'in-progress']));
    expect(WebhookFlow.properties.status.enum).toEqual(expect.arrayContaining(['running', 'stopped', 'deleted', 'scheduled', 'in-progress', 'failed']));
    expect(WebhookFlow.properties.flow_direction.enum).toEqual(['inbound', 'outbound']);
    expect(WebhookFlow.properties.retry_delay_unit.enum).toEqual(['seconds', 'minutes', 'hours', 'days']);
    expect(Campaign.properties.retry_delay_unit.items.enum).toEqual(['seconds', 'minutes', 'hours', 'days']);
  });

  it("shows `secret` only in the answers that carry it: create, rotate-secret and a template's use", () => {
    const data = (path: string, method: string) => doc.paths[path][method].responses['200'].content['application/json'].schema.properties.data;
    const withSecret = { $ref: '#/components/schemas/WebhookFlowWithSecret' };
    expect(data('/v1/webhooks', 'post')).toEqual(withSecret);
    expect(data('/v1/webhooks/{id}/rotate-secret', 'post')).toEqual(withSecret);
    expect(data('/v1/integrations/templates/{id}/use', 'post')).toEqual(withSecret);
    expect(data('/v1/webhooks/{id}', 'get')).toEqual({ $ref: '#/components/schemas/WebhookFlow' });
    expect(doc.components.schemas.WebhookFlow.properties.secret).toBeUndefined();
    expect(doc.components.schemas.WebhookFlowWithSecret.required).toContain('secret');
  });

  it('describes createContacts with oneOf: an object answers one contact, an array answers an array', () => {
    const op = doc.paths['/v1/contacts'].post;
    const sent = op.requestBody.content['application/json'].schema.oneOf as Json[];
    const answered = op.responses['200'].content['application/json'].schema.properties.data.oneOf as Json[];
    expect(sent.map((s) => [s.title, s.type])).toEqual([
      ['One contact', 'object'],
      ['An import', 'array'],
    ]);
    expect(answered.map((s) => [s.title, s.$ref ?? s.type])).toEqual([
      ['One contact', '#/components/schemas/Contact'],
      ['An import', 'array'],
    ]);
  });

  it('documents the quirks: HTTP 200 `error` on campaign update and contact listing, 400 `error` on make-call', () => {
    for (const [path, method] of [
      ['/compaign/v1/campaign/update/{id}', 'post'],
      ['/compaign/v1/contact', 'get'],
    ] as const) {
      const op = doc.paths[path][method];
      expect(refsIn(op.responses['200'])).toContain('#/components/schemas/QuirkError');
      expect(op.responses['404']).toBeUndefined();
      expect(op.responses['500']).toBeUndefined();
      expect(op.responses['400']).toBeUndefined();
    }
    expect(refsIn(doc.paths['/v1/calls/make-call'].post.responses['400'])).toEqual(expect.arrayContaining(['#/components/schemas/Error', '#/components/schemas/QuirkError']));
    expect(doc.components.schemas.QuirkError.properties).toEqual({
      status: { type: 'string', const: 'error' },
      message: { type: 'string', const: 'error' },
      data: { type: 'string', const: '' },
    });
  });

  it('declares no 400 on the legacy operations, which answer even a malformed URL with HTTP 200 `error`', async () => {
    const { apiKey } = await t.company();
    const campaignId = '0b8f5a3e-6c1d-4f2a-9e7b-3d4c5a6b7c8d';
    for (const [method, path] of [
      ['GET', '/compaign/v1/contact?x=%ZZ'],
      ['POST', `/compaign/v1/campaign/update/${campaignId}?x=%ZZ`],
    ] as const) {
      const res = await t.request(method, path, { token: apiKey, body: method === 'POST' ? {} : undefined });
      expect([path, res.status, res.body]).toEqual([path, 200, { status: 'error', message: 'error', data: '' }]);
    }
  });

  it('describes every answer in the envelope, resources as shared schemas', () => {
    const getCall = doc.paths['/v1/calls/{id}'].get.responses;
    expect(getCall['200'].content['application/json'].schema.properties.data).toEqual({ $ref: '#/components/schemas/Call' });
    expect(Object.keys(getCall).sort()).toEqual(['200', '400', '401', '404', '429', '500']);
    expect(doc.paths['/v1/phone-numbers'].post.responses['409']).toBeDefined();
    expect(doc.paths['/v1/webhooks/{id}/trigger'].post.responses['413']).toEqual({ $ref: '#/components/responses/TooLarge' });
    expect(doc.paths['/v1/webhooks/{id}/trigger'].post.responses['415']).toEqual({ $ref: '#/components/responses/UnsupportedMediaType' });
    expect(doc.paths['/readyz'].get.responses['503'].content['application/json'].schema.properties.message).toEqual({ type: 'string', const: 'Not ready' });
    for (const name of ['Call', 'Campaign', 'Contact', 'AiAgent', 'PhoneNumber', 'WebhookFlow', 'WebhookExecutionDetail', 'Error']) {
      expect(doc.components.schemas[name]).toMatchObject({ type: 'object' });
    }
  });
});

describe('routes and the document', () => {
  /** Every method and path the REST router serves, built exactly as the app builds it. */
  async function routes(): Promise<string[]> {
    const health = await HealthService.start(t.app.orm, t.app.jobs, { workers: true, logger: createLogger('silent') });
    const router = restRouter(t.app.orm, t.app.services, { publicBaseUrl: t.url, health });
    return router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m.toLowerCase()} ${openApiPath(String(layer.path))}`));
  }

  it('documents every route, and documents no route that does not exist', async () => {
    const served = await routes();
    const documented = operations().map(([method, path]) => `${method} ${path}`);
    expect(served.length).toBeGreaterThan(35);
    expect(served.filter((r) => !documented.includes(r))).toEqual([]);
    expect(documented.filter((d) => !served.includes(d))).toEqual([]);
  });
});

describe('GET /docs', () => {
  it('serves the API reference and every file it references from this origin, with a strict policy', async () => {
    const res = await fetch(`${t.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    const html = await res.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    expect(assets.every((a) => a.startsWith('/docs/assets/'))).toBe(true);
    for (const asset of assets) {
      const file = await fetch(`${t.url}${asset}`);
      const body = await file.arrayBuffer();
      expect({ asset, status: file.status, empty: body.byteLength === 0 }).toEqual({ asset, status: 200, empty: false });
    }
    const init = await (await fetch(`${t.url}/docs/assets/init.js`)).text();
    expect(init).toContain("url: '/openapi.json'");
    expect(html).not.toMatch(/<script>/);
  });

  it('answers 404 in the envelope for a file it does not have', async () => {
    const res = await t.request('GET', '/docs/assets/nope.js');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', message: 'Not found', data: '' });
  });
});
