import { restRouter } from '../../../src/rest';
import { createLogger } from '../../../src/logger';
import { HealthService } from '../../../src/services/platform/health.service';
import { expectRestInvariants, refused } from './invariants';
import { fillPath, headers, jsonObject, queryString, rawBody, segment } from './arbitraries';
import { B_ONLY, type FuzzWorld, fc, fuzzParameters, fuzzWorld, idsOf, type RawResponse, send, Snapshots } from './support';

let w: FuzzWorld;
let snapshots: Snapshots;
let operations: { method: string; path: string }[];

beforeAll(async () => {
  w = await fuzzWorld();
  snapshots = await Snapshots.open(w.t.databaseUrl);
  // The operations come from the router itself: a route added later is fuzzed too.
  const health = await HealthService.start(w.t.app.orm, w.t.app.jobs, { workers: false, logger: createLogger('silent') });
  const router = restRouter(w.t.app.orm, w.t.app.services, { publicBaseUrl: w.t.url, health });
  operations = router.stack.flatMap((layer) => (typeof layer.path === 'string' ? layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: layer.path as string })) : []));
}, 60_000);
afterAll(async () => {
  await snapshots?.close();
  await w?.t.close();
});

const withBody = (method: string) => method !== 'GET' && method !== 'HEAD';

/** Sends the request and checks every invariant; a refusal must have written nothing. */
async function check(method: string, path: string, hdrs: Record<string, string>, body?: string | Uint8Array): Promise<RawResponse> {
  const before = await snapshots.take();
  const url = `${w.t.url}${path}`;
  const res = await send(url, method, hdrs, withBody(method) ? body : undefined);
  // Judged by the path the request reaches: the URL parser resolves dot segments, so that
  // `/%2e%2e` is a request for `/`.
  expectRestInvariants(res, new URL(url).pathname);
  if (refused(res)) expect(await snapshots.take()).toEqual(before);
  if (hdrs.authorization?.includes(w.a.key)) for (const name of B_ONLY) expect(res.text).not.toContain(name);
  return res;
}

/** The service still answers a well-formed request. */
async function stillServes(): Promise<void> {
  const res = await send(`${w.t.url}/v1/campaigns/list`, 'GET', { authorization: `Bearer ${w.a.key}` });
  expect(res.status).toBe(200);
}

describe('REST fuzzing', () => {
  it('finds every operation in the router, the documented ones included', () => {
    const names = operations.map((o) => `${o.method} ${o.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /v1/calls/make-call',
        'POST /compaign/v1/campaign/update/:id',
        'GET /compaign/v1/contact',
        'GET /v1/campaigns/by-workspace/:workspace',
        'GET /v1/campaigns/by-id/:id',
        'GET /v1/campaigns/list',
        'GET /v1/ai-agent/:id',
        'GET /v1/ai-agent/templates',
        'GET /v1/ai-agent',
        'GET /v1/integrations/templates',
        'GET /v1/webhooks',
      ]),
    );
  });

  it('answers every operation in the envelope, never a 5xx, and writes nothing when it refuses', async () => {
    // Built once, not per operation: making them costs about 20 ms (a stringMatching, JWTs).
    const [seg, query, hdrs, body] = [segment(w), queryString(w), headers(w), rawBody(w)];
    for (const { method, path } of operations) {
      const request = fc.record({ path: fillPath(path, seg), query, headers: hdrs, body });
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          await check(method, r.path + r.query, r.headers, r.body);
          await stillServes();
        }),
        fuzzParameters(12),
      );
    }
  }, 600_000);

  it("answers another company's ids exactly as unknown ids, and leaves its records alone", async () => {
    const foreignIds = idsOf(w.b);
    const auth = { authorization: `Bearer ${w.a.key}`, 'content-type': 'application/json' };
    const request = fc.record({ foreign: fc.constantFrom(...foreignIds), unknown: fc.uuid({ version: 4 }), body: jsonObject(w) });
    for (const { method, path } of operations.filter((o) => o.path.includes(':'))) {
      await fc.assert(
        fc.asyncProperty(request, async ({ foreign, unknown, body }) => {
          const text = JSON.stringify(body);
          const asForeign = await check(method, path.replace(/:\w+/g, foreign), auth, text);
          const asUnknown = await check(method, path.replace(/:\w+/g, unknown), auth, text);
          expect({ status: asForeign.status, body: asForeign.body }).toEqual({ status: asUnknown.status, body: asUnknown.body });
        }),
        fuzzParameters(4),
      );
    }
  }, 600_000);

  it('answers unknown paths and methods in the envelope', async () => {
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');
    const path = fc.array(segment(w), { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`);
    const prefix = fc.constantFrom('', '/v1', '/compaign/v1', '/v1/webhooks', '/graphql/ide');
    await fc.assert(
      fc.asyncProperty(method, prefix, path, queryString(w), headers(w), rawBody(w), async (m, pre, p, q, h, b) => {
        await check(m, pre + p + q, h, b);
      }),
      fuzzParameters(60),
    );
    await stillServes();
  }, 600_000);
});
