import type { Client } from 'graphql-ws';
import { query, wsClient } from '../graphql/graphql-client';
import { DocumentArbitraries, type Operation } from './graphql-documents';
import { expectGraphQLShape, type GraphQLResult } from './invariants';
import { headers, rawBody } from './arbitraries';
import { B_ONLY, type FuzzWorld, fc, fuzzParameters, fuzzWorld, send, Snapshots } from './support';

let w: FuzzWorld;
let snapshots: Snapshots;
let docs: DocumentArbitraries;
let client: Client;

beforeAll(async () => {
  w = await fuzzWorld();
  snapshots = await Snapshots.open(w.t.databaseUrl);
  docs = new DocumentArbitraries(w);
  client = wsClient(w.t, w.a.key);
}, 60_000);
afterAll(async () => {
  await client?.dispose();
  await snapshots?.close();
  await w?.t.close();
});

/** A mutation refused (its one root field null, with errors) must have written nothing. */
const refusedMutation = (op: Operation | null, result: GraphQLResult) => op?.kind === 'mutation' && (result.errors?.length ?? 0) > 0 && (result.data ?? null)?.[op.fields[0]] == null;

async function overHttp(body: string | Uint8Array, hdrs: Record<string, string>, op: Operation | null): Promise<void> {
  const before = await snapshots.take();
  const res = await send(`${w.t.url}/graphql`, 'POST', hdrs, body);
  expect(res.status).toBeLessThan(500);
  expectGraphQLShape(res.body);
  if (res.status === 401) expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  if (res.status >= 400 || refusedMutation(op, res.body)) expect(await snapshots.take()).toEqual(before);
  if (hdrs.authorization?.includes(w.a.key)) for (const name of B_ONLY) expect(res.text).not.toContain(name);
}

/** Runs an operation over the websocket: its result, or the errors it was refused with. */
async function overSocket(op: { query: string; variables: Record<string, unknown> }): Promise<GraphQLResult> {
  try {
    return await query(client, op.query, op.variables);
  } catch (err) {
    // graphql-ws rejects with the `error` message's errors; anything else (a closed socket) is a failure.
    expect(Array.isArray(err)).toBe(true);
    return { errors: err as GraphQLResult['errors'] };
  }
}

async function stillServes(): Promise<void> {
  const res = await send(`${w.t.url}/graphql`, 'POST', { authorization: `Bearer ${w.a.key}`, 'content-type': 'application/json' }, '{"query":"{ phoneNumbers { id } }"}');
  expect(res.status).toBe(200);
  expect(await query(client, '{ phoneNumbers { id } }')).toEqual({ data: { phoneNumbers: expect.any(Array) } });
}

describe('GraphQL fuzzing', () => {
  const ops = () => fc.oneof(docs.operation('query'), docs.operation('mutation'));

  it('answers generated queries and mutations over HTTP with data or known errors, writing nothing when refused', async () => {
    await fc.assert(
      fc.asyncProperty(ops(), headers(w), fc.option(fc.string({ maxLength: 8 }), { nil: undefined }), async (op, hdrs, operationName) => {
        await overHttp(JSON.stringify({ query: op.query, variables: op.variables, ...(operationName === undefined ? {} : { operationName }) }), hdrs, op);
      }),
      fuzzParameters(80),
    );
    await stillServes();
  }, 600_000);

  it('answers broken documents, variables and bodies over HTTP with known errors', async () => {
    const body = fc.oneof(
      docs.broken().map((q) => JSON.stringify({ query: q })),
      fc.tuple(ops(), rawBody(w)).map(([op, vars]) => `{"query": ${JSON.stringify(op.query)}, "variables": ${vars instanceof Uint8Array ? '1' : vars}}`),
      rawBody(w),
    );
    await fc.assert(
      fc.asyncProperty(body, headers(w), async (b, hdrs) => {
        await overHttp(b, hdrs, null);
      }),
      fuzzParameters(60),
    );
    await stillServes();
  }, 600_000);

  it('answers the same over a real graphql-ws client, subscriptions included, and keeps the socket open', async () => {
    const anyOp = fc.oneof(
      { weight: 4, arbitrary: ops() },
      { weight: 1, arbitrary: docs.operation('subscription') },
      { weight: 2, arbitrary: docs.broken().map((q): Operation => ({ kind: 'query', fields: [], query: q, variables: {} })) },
    );
    await fc.assert(
      fc.asyncProperty(anyOp, async (op) => {
        const before = await snapshots.take();
        let result: GraphQLResult;
        if (op.kind === 'subscription') {
          // A valid subscription stays open: wait until a later operation on the same socket answered, then drop it.
          let refused: unknown = null;
          const dispose = client.subscribe({ query: op.query, variables: op.variables }, { next: () => undefined, error: (e) => (refused = e), complete: () => undefined });
          await query(client, '{ __typename }');
          dispose();
          if (refused) expect(Array.isArray(refused)).toBe(true);
          result = refused ? { errors: refused as GraphQLResult['errors'] } : { data: {} };
        } else {
          result = await overSocket(op);
        }
        expectGraphQLShape(result);
        for (const name of B_ONLY) expect(JSON.stringify(result)).not.toContain(name);
        if (refusedMutation(op, result)) expect(await snapshots.take()).toEqual(before);
      }),
      fuzzParameters(60),
    );
    await stillServes();
  }, 600_000);
});
