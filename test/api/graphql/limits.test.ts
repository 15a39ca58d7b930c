import pg from 'pg';
import WebSocket from 'ws';
import { GRAPHQL_BODY_LIMIT } from '../../../src/http/json-body';
import { createLogger } from '../../../src/logger';
import { type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import { closeCode, firstError, gql, query, subscribe, wsClient } from './graphql-client';

let t: TestApp;
let a: Tenant;

/** What the service logs. */
const logged: { level: number; msg: string }[] = [];

beforeAll(async () => {
  t = await startTestApp({}, { logger: createLogger('info', { destination: { write: (line: string) => logged.push(JSON.parse(line)) } }) });
  a = await tenant(t, 'A');
});
afterAll(() => t.close());

const deep = (levels: number): string => {
  let selection = 'id';
  for (let i = 0; i < levels; i++) selection = `campaign { calls { edges { node { ${selection} } } } }`;
  return `{ calls { edges { node { ${selection} } } } }`;
};
const aliases = (n: number, field: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

/** Sends `text` and answers the response with how long the server took to refuse it. */
async function timed(text: string) {
  const started = performance.now();
  const res = await gql(t, text, {}, a.key);
  return { res, ms: performance.now() - started };
}

describe('hostile operations are refused quickly with a clear error', () => {
  it('too deep', async () => {
    const { res, ms } = await timed(deep(3));
    expect(res.status).toBe(400);
    expect(firstError(res)?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(res.errors![0].message).toMatch(/exceeds maximum operation depth of 10/);
    expect(ms).toBeLessThan(1000);
  });

  it('thousands of aliases', async () => {
    const { res, ms } = await timed(aliases(5000, 'aiAgentTemplates { id name prompt }'));
    expect(res.status).toBe(400);
    expect(firstError(res)?.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(res.errors![0].message).toMatch(/Document contains more tha. 5000 tokens/);
    expect(ms).toBeLessThan(1000);
  });

  it('hundreds of aliases of one field, fragments included: a validation error naming the field', async () => {
    const searches = aliases(300, 'contacts(first: 1, search: "i") { totalCount }');
    const { res, ms } = await timed(searches);
    expect(res.status).toBe(400);
    expect(res.errors).toEqual([expect.objectContaining({ message: 'Field "contacts" is selected under 300 aliases; at most 20 are allowed', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })]);
    expect(ms).toBeLessThan(1000);
    const spread = `{ ...A ...B } fragment A on Query { ${aliases(15, 'phoneNumbers { id }').slice(2, -2)} } fragment B on Query { ${aliases(15, 'phoneNumbers { id }')
      .slice(2, -2)
      .replace(/a(\d+):/g, 'b$1:')} }`;
    expect((await gql(t, spread, {}, a.key)).errors).toEqual([expect.objectContaining({ message: 'Field "phoneNumbers" is selected under 30 aliases; at most 20 are allowed' })]);
    expect((await gql(t, aliases(20, 'phoneNumbers { id }'), {}, a.key)).errors).toBeUndefined();
  });

  it('counts and searches at their cost: seven searched counts are too costly, a searched page of 100 with its count is not', async () => {
    const res = await gql(t, aliases(7, 'contacts(first: 1, search: "i") { totalCount }'), {}, a.key);
    expect(res.status).toBe(400);
    expect(firstError(res)).toEqual({ code: 'QUERY_TOO_COMPLEX', complexity: 28357, maxComplexity: 25000 });
    // A count is charged once per connection, not once per node of the page.
    const page = await gql(t, '{ contacts(first: 100, search: "i") { totalCount edges { node { id firstname lastname phoneNumber } } } }', {}, a.key);
    expect(page.errors).toBeUndefined();
  });

  it('nested pages multiplying each other, sizes given as variables', async () => {
    const res = await gql(t, 'query($n: Int!) { campaigns(first: $n) { edges { node { calls(first: $n) { edges { node { id callStatus aiAgent { name } } } } } } } }', { n: 100 }, a.key);
    expect(firstError(res)).toMatchObject({ code: 'QUERY_TOO_COMPLEX' });
    const small = await gql(t, 'query($n: Int!) { campaigns(first: $n) { edges { node { calls(first: $n) { edges { node { id } } } } } } }', { n: 5 }, a.key);
    expect(small.errors).toBeUndefined();
  });

  it('a page over 100', async () => {
    const res = await gql(t, '{ campaigns { edges { node { calls(first: 1000) { totalCount } } } } }', {}, a.key);
    expect(firstError(res)).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'first', message: 'Must be between 1 and 100' }] });
  });

  it('thousands of nested braces: refused before parsing, which would overflow the stack', async () => {
    const res = await gql(t, `${'{ a '.repeat(3000)}${'}'.repeat(3000)}`, {}, a.key);
    expect(res.status).toBe(400);
    expect(firstError(res)).toEqual({ code: 'GRAPHQL_PARSE_FAILED' });
    expect(res.errors![0].message).toBe('Document is nested more than 32 levels deep');
    const client = wsClient(t, a.key);
    await expect(query(client, `${'{ a '.repeat(3000)}${'}'.repeat(3000)}`)).rejects.toEqual([expect.objectContaining({ extensions: { code: 'GRAPHQL_PARSE_FAILED' } })]);
    expect(await query(client, '{ phoneNumbers { id } }')).toEqual({ data: { phoneNumbers: [{ id: a.number.id }] } });
    await client.dispose();
  });

  it('a fragment cycle: a validation error (400), on HTTP and on websockets, logged as no error', async () => {
    const cycle = 'query { ...A } fragment A on Query { phoneNumbers { id } ...B } fragment B on Query { ...A }';
    const res = await gql(t, cycle, {}, a.key);
    expect(res.status).toBe(400);
    expect(res.errors).toEqual([expect.objectContaining({ message: 'Cannot spread fragment "A" within itself via "B".', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })]);
    const client = wsClient(t, a.key);
    await expect(query(client, cycle)).rejects.toEqual([expect.objectContaining({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })]);
    await client.dispose();
    const unknown = await gql(t, 'query { ...Missing }', {}, a.key);
    expect([unknown.status, firstError(unknown)]).toEqual([400, { code: 'GRAPHQL_VALIDATION_FAILED' }]);
    expect(logged.filter((line) => line.level >= 50)).toEqual([]);
  });

  it('a variable of the wrong type: BAD_USER_INPUT with HTTP 400, before the cost is counted', async () => {
    const res = await gql(t, 'mutation($i: CreateContactInput!) { createContact(input: $i) { id } }', { i: { phoneNumber: 0 } }, a.key);
    expect(res.status).toBe(400);
    expect(firstError(res)).toEqual({ code: 'BAD_USER_INPUT' });
    expect(res.errors![0].message).toMatch(/String cannot represent a non string value: 0/);
  });

  it('text no service could store, and variables nested over 64 levels: BAD_USER_INPUT with HTTP 400, nothing written', async () => {
    const create = 'mutation($i: CreateContactInput!) { createContact(input: $i) { id } }';
    const refusals = [
      [await gql(t, create, { i: { phoneNumber: '+14155550100', firstname: 'a\u0000b' } }, a.key), 'NUL characters are not allowed'],
      [await gql(t, '{ aiAgents(workspace: "a\\u0000b") { id } }', {}, a.key), 'NUL characters are not allowed'],
      [await gql(t, create, { i: { phoneNumber: '+14155550100', metadata: { k: '\ud800' } } }, a.key), 'Unpaired surrogate characters are not allowed'],
      [await gql(t, create, { i: { phoneNumber: '+14155550100', metadata: JSON.parse(`${'{"k":'.repeat(1000)}1${'}'.repeat(1000)}`) } }, a.key), 'JSON nested more than 64 levels deep'],
    ] as const;
    for (const [res, message] of refusals) {
      expect(res.status).toBe(400);
      expect(res.errors).toEqual([{ message, extensions: { code: 'BAD_USER_INPUT' } }]);
    }
    const client = wsClient(t, a.key);
    await expect(query(client, create, { i: { phoneNumber: '+14155550100', lastname: 'x\u0000' } })).rejects.toEqual([
      { message: 'NUL characters are not allowed', extensions: { code: 'BAD_USER_INPUT' } },
    ]);
    await client.dispose();
    const { data } = await gql(t, '{ contacts { totalCount } }', {}, a.key);
    expect(data.contacts.totalCount).toBe(1);
  });

  it('the same limits on websockets', async () => {
    const client = wsClient(t, a.key);
    await expect(query(client, deep(3))).rejects.toEqual([expect.objectContaining({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })]);
    await expect(query(client, aliases(5000, 'phoneNumbers { id }'))).rejects.toEqual([expect.objectContaining({ extensions: { code: 'GRAPHQL_PARSE_FAILED' } })]);
    await expect(query(client, aliases(600, 'phoneNumbers { id }'))).rejects.toEqual([expect.objectContaining({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })]);
    await expect(query(client, aliases(10, 'contacts(first: 1, search: "i") { totalCount }'))).rejects.toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'QUERY_TOO_COMPLEX' }) }),
    ]);
    expect(await query(client, '{ phoneNumbers { id } }')).toEqual({ data: { phoneNumbers: [{ id: a.number.id }] } });
    await client.dispose();
  });

  it('a websocket message larger than an HTTP request may be closes its socket (1009, too big), and the service goes on', async () => {
    const socket = new WebSocket(`${t.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${a.key}`, padding: 'x'.repeat(GRAPHQL_BODY_LIMIT) } }));
    expect(await closed).toBe(1009);
    const client = wsClient(t, a.key);
    expect(await query(client, '{ phoneNumbers { id } }')).toEqual({ data: { phoneNumbers: [{ id: a.number.id }] } });
    await client.dispose();
  });
});

describe('introspection', () => {
  const INTROSPECT = '{ __schema { queryType { name } } }';

  it('is on in development and test', async () => {
    expect((await gql(t, INTROSPECT, {}, a.key)).data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });

  describe('in production', () => {
    let prod: TestApp;
    let key: string;

    beforeAll(async () => {
      prod = await startTestApp({ NODE_ENV: 'production' });
      key = (await prod.company('P')).apiKey;
    });
    afterAll(() => prod.close());

    it('is off, on HTTP and on websockets', async () => {
      const res = await gql(prod, INTROSPECT, {}, key);
      expect(firstError(res)?.code).toBe('GRAPHQL_VALIDATION_FAILED');
      const client = wsClient(prod, key);
      await expect(query(client, INTROSPECT)).rejects.toEqual(expect.arrayContaining([expect.objectContaining({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })]));
      await client.dispose();
    });

    it('answers an internal failure with INTERNAL_SERVER_ERROR and nothing of its cause', async () => {
      const db = new pg.Client({ connectionString: prod.app.orm.config.get('clientUrl') });
      await db.connect();
      await db.query('ALTER TABLE phone_numbers RENAME TO phone_numbers_gone');
      await db.end();
      const res = await gql(prod, '{ phoneNumbers { id } }', {}, key);
      expect(res.status).toBe(200);
      expect(res.errors).toEqual([{ message: 'Internal server error', locations: [{ line: 1, column: 3 }], path: ['phoneNumbers'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }]);
      expect(JSON.stringify(res)).not.toMatch(/phone_numbers|relation|stack/i);
    });
  });

  it('follows GRAPHQL_INTROSPECTION when set', async () => {
    const off = await startTestApp({ GRAPHQL_INTROSPECTION: '0' });
    const key = (await off.company('Q')).apiKey;
    expect(firstError(await gql(off, INTROSPECT, {}, key))?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    await off.close();
  });
});

describe('GraphiQL', () => {
  it('is served at GET /graphql to browsers, from local files only', async () => {
    const page = await t.request('GET', '/graphql', { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources).toEqual(['/graphql/ide/graphiql.css', '/graphql/ide/page.css', '/graphql/ide/react.js', '/graphql/ide/react-dom.js', '/graphql/ide/graphiql.js', '/graphql/ide/init.js']);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/<script>/);
    for (const source of sources) {
      const asset = await t.request('GET', source);
      expect(asset.status).toBe(200);
      expect(asset.text.length).toBeGreaterThan(100);
    }
    expect((await t.request('GET', '/graphql/ide/nope.js')).status).toBe(404);
  });
});

describe('websocket limits', () => {
  let small: TestApp;
  let key: string;
  let companyId: string;

  beforeAll(async () => {
    small = await startTestApp({ GRAPHQL_WS_MAX_SOCKETS_PER_CREDENTIAL: '2', GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_SOCKET: '2' });
    ({ apiKey: key, companyId } = await small.company('W'));
  });
  afterAll(() => small.close());

  const PHONES = '{ phoneNumbers { id } }';
  const SUB = 'subscription { callStatusChanged { id } }';

  it('close a socket past its credential’s limit with 4430, others and later ones open', async () => {
    // A subscription keeps each (lazy) client's socket open.
    const open = [wsClient(small, key), wsClient(small, key)];
    for (const client of open) await subscribe(client, SUB);
    expect(await closeCode(wsClient(small, key))).toBe(4430);
    const other = wsClient(small, small.jwtFor(companyId));
    expect(await query(other, PHONES)).toEqual({ data: { phoneNumbers: [] } });
    await other.dispose();
    await open[0].dispose();
    const next = wsClient(small, key);
    await waitFor('a socket of the key to be taken again', async () => (await query(next, PHONES).catch(() => undefined))?.data);
    await Promise.all([next.dispose(), open[1].dispose()]);
  });

  it('refuse a subscription past the socket’s limit (TOO_MANY_SUBSCRIPTIONS), not the socket, and count only running ones', async () => {
    const client = wsClient(small, key);
    const [first, second] = [await subscribe(client, SUB), await subscribe(client, SUB)];
    const third = await subscribe(client, SUB);
    await expect(third.next()).rejects.toEqual([{ message: 'Too many subscriptions on this socket: at most 2', extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', maxSubscriptions: 2 } }]);
    expect(await query(client, PHONES)).toEqual({ data: { phoneNumbers: [] } });
    first.close();
    const again = await waitFor('a slot to be given back', async () => {
      const attempt = await subscribe(client, SUB);
      const refused = await Promise.race([
        attempt.next().then(
          () => false,
          () => true,
        ),
        query(client, PHONES).then(() => false),
      ]);
      if (!refused) return attempt;
      return undefined;
    });
    again.close();
    second.close();
    await client.dispose();
  });
});
