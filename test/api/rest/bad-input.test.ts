import { okData, type Tenant, oneTenant } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';

let t: TestApp;
let a: Tenant;

beforeAll(async () => ({ t, a } = await oneTenant()));
afterAll(() => t.close());

const countContacts = async () => okData<any[]>(await t.request('GET', '/compaign/v1/contact', { token: a.key })).length;

function expectEnvelope(res: { status: number; body: any; text: string }, status: number) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ status: 'error', message: expect.any(String), data: expect.anything() });
  expect(res.text).not.toMatch(/at .+\.(ts|js):\d+/);
}

describe('bad input gets the envelope, never a crash or a partial write', () => {
  it('answers unknown routes with a 404 envelope', async () => {
    expectEnvelope(await t.request('GET', '/v1/nope', { token: a.key }), 404);
  });

  describe('a wrong method on a known path', () => {
    const allow = (res: { headers: Headers }) => new Set(res.headers.get('allow')?.split(/,\s*/));

    it('answers 405 with Allow, in the envelope', async () => {
      const res = await t.request('PUT', '/v1/campaigns/list', { token: a.key });
      expectEnvelope(res, 405);
      expect(res.body.message).toBe('Method not allowed');
      expect(allow(res)).toEqual(new Set(['GET', 'HEAD']));
      const metrics = await t.request('DELETE', '/metrics');
      expectEnvelope(metrics, 405);
      expect(allow(metrics)).toEqual(new Set(['GET', 'HEAD']));
    });

    it('is refused on the most specific path, never served by a less specific one', async () => {
      const res = await t.request('GET', '/v1/calls/make-call', { token: a.key });
      expectEnvelope(res, 405);
      expect(allow(res)).toEqual(new Set(['POST']));
      expect(allow(await t.request('DELETE', '/v1/campaigns/list', { token: a.key }))).toEqual(new Set(['GET', 'HEAD']));
      expect(okData(await t.request('GET', '/v1/ai-agent/templates', { token: a.key })).length).toBeGreaterThan(0);
    });

    it('reads GET /v1/campaigns/by-workspace/stats as the campaigns of workspace `stats`', async () => {
      expect(okData(await t.request('GET', '/v1/campaigns/by-workspace/stats', { token: a.key }))).toEqual([]);
    });
  });

  it.each([
    ['malformed JSON', '{"phone_number": "+1415', 400, 'Malformed JSON body'],
    ['a bare JSON string', '"hello"', 400, 'Malformed JSON body'],
    ['JSON null', 'null', 400, 'Malformed JSON body'],
  ])('refuses %s', async (_name, raw, status, message) => {
    const before = await countContacts();
    const res = await t.request('POST', '/v1/contacts', { token: a.key, raw });
    expectEnvelope(res, status);
    expect(res.body.message).toBe(message);
    expect(await countContacts()).toBe(before);
  });

  it('names the body when an object is expected and something else came', async () => {
    const res = await t.request('POST', '/v1/ai-agent', { token: a.key, body: ['x'] });
    expectEnvelope(res, 400);
    expect(res.body.data).toEqual([{ field: 'body', message: 'Expected object, received array' }]);
  });

  it('refuses over-long strings with the limit named', async () => {
    const res = await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'n'.repeat(5000) } });
    expect(res.body.data).toEqual([{ field: 'name', message: 'Must be at most 200 characters' }]);
  });

  it('refuses empty strings where text is required', async () => {
    const res = await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: '   ' } });
    expect(res.body.data).toEqual([{ field: 'name', message: 'Must not be empty' }]);
  });

  it('refuses NUL characters in bodies, paths and query strings (PostgreSQL cannot store them)', async () => {
    const before = await countContacts();
    const body = await t.request('POST', '/v1/contacts', { token: a.key, body: { phone_number: '+14155550100', metadata: { k: 'a\u0000b' } } });
    expectEnvelope(body, 400);
    expect(await countContacts()).toBe(before);
    expectEnvelope(await t.request('GET', '/v1/campaigns/by-workspace/a%00b', { token: a.key }), 400);
    expectEnvelope(await t.request('GET', '/v1/ai-agent?workspace=%00', { token: a.key }), 400);
  });

  it('refuses unpaired surrogates (jsonb cannot store them) and JSON nested over 64 levels, writing nothing', async () => {
    const before = await countContacts();
    const surrogate = await t.request('POST', '/v1/contacts', { token: a.key, body: { phone_number: '+14155550100', metadata: { k: 'a\ud800b' } } });
    expectEnvelope(surrogate, 400);
    expect(surrogate.body.message).toBe('Unpaired surrogate characters are not allowed');
    const deep = `{"phone_number": "+14155550100", "metadata": ${'{"k":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    const nested = await t.request('POST', '/v1/contacts', { token: a.key, raw: deep });
    expectEnvelope(nested, 400);
    expect(nested.body.message).toBe('JSON nested more than 64 levels deep');
    expect(await countContacts()).toBe(before);
    okData(await t.request('POST', '/v1/contacts', { token: a.key, body: { phone_number: '+14155550100', metadata: { emoji: '😀', nested: [[[{ k: 1 }]]] } } }));
  });

  it('refuses malformed percent-encoding in a path', async () => {
    expectEnvelope(await t.request('GET', '/v1/campaigns/by-workspace/%E0%A4%A', { token: a.key }), 400);
  });

  it('refuses a provider callback form over 64 KiB with a 413 envelope', async () => {
    const res = await t.request('POST', '/v1/telephony/twilio/status', { raw: `Big=${'x'.repeat(70_000)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectEnvelope(res, 413);
    expect(res.body.message).toBe('Request body too large (limit 64 KiB)');
  });

  it('refuses a non-numeric limit with the field named', async () => {
    const res = await t.request('GET', '/v1/calls?limit=ten', { token: a.key });
    expectEnvelope(res, 400);
    expect(res.body.data[0].field).toBe('limit');
  });

  describe('a body that is not JSON', () => {
    const form = { raw: 'name=Changed', headers: { 'content-type': 'application/x-www-form-urlencoded' } };

    it('is refused with 415 in the envelope, writing nothing', async () => {
      const before = await countContacts();
      const res = await t.request('POST', '/v1/ai-agent', { token: a.key, ...form });
      expectEnvelope(res, 415);
      expect(res.body.message).toBe('Unsupported media type: send JSON with Content-Type: application/json');
      const plain = await t.request('POST', '/v1/contacts', { token: a.key, raw: JSON.stringify({ phone_number: '+14155550111' }), headers: { 'content-type': 'text/plain' } });
      expectEnvelope(plain, 415);
      expect(await countContacts()).toBe(before);
    });

    it('is a failure of campaign update (its documented HTTP 200 error), not a silent success', async () => {
      const res = await t.request('POST', `/compaign/v1/campaign/update/${a.campaign.id}`, { token: a.key, raw: JSON.stringify({ name: 'Changed' }), headers: { 'content-type': 'text/plain' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'error', message: 'error', data: '' });
      expect(okData(await t.request('GET', `/v1/campaigns/by-id/${a.campaign.id}`, { token: a.key })).name).toBe(a.campaign.name);
    });

    it('is refused over GraphQL too (415)', async () => {
      const res = await t.request('POST', '/graphql', { token: a.key, raw: JSON.stringify({ query: '{ __typename }' }), headers: { 'content-type': 'text/plain', 'apollo-require-preflight': '1' } });
      expect(res.status).toBe(415);
      expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    });

    it('still treats an empty body as no fields', async () => {
      const res = await t.request('POST', '/v1/campaigns', { token: a.key, raw: '', headers: { 'content-type': 'text/plain' } });
      expectEnvelope(res, 400);
      expect(res.body.data).toEqual([{ field: 'name', message: 'Required' }]);
    });
  });

  describe('valid JSON a service cannot take as it is', () => {
    it.each([
      ['`__proto__` in a nested object', '{"phone_number": "+14155550100", "metadata": {"plan": "pro", "__proto__": {"admin": true}}}', 'metadata.__proto__'],
      ['`__proto__` at the top', '{"__proto__": {"admin": true}, "phone_number": "+14155550100"}', '__proto__'],
      ['`constructor.prototype`', '{"phone_number": "+14155550100", "metadata": {"constructor": {"prototype": {"admin": true}}}}', 'metadata.constructor.prototype'],
    ])('names %s as a validation failure, not malformed JSON', async (_name, raw, field) => {
      const before = await countContacts();
      const res = await t.request('POST', '/v1/contacts', { token: a.key, raw });
      expectEnvelope(res, 400);
      expect(res.body).toEqual({ status: 'error', message: 'Validation failed', data: [{ field, message: 'Not allowed as a key (it would set an object prototype)' }] });
      expect(await countContacts()).toBe(before);
    });

    it('keeps `constructor` as an ordinary key', async () => {
      expect(okData(await t.request('POST', '/v1/contacts', { token: a.key, body: { phone_number: '+14155550112', metadata: { constructor: 'Bob' } } })).metadata).toEqual({ constructor: 'Bob' });
    });

    it('says a number too large for JSON numbers is not finite', async () => {
      const res = await t.request('POST', '/v1/campaigns', { token: a.key, raw: '{"name": "Big", "retry_delay": [1e309], "number_of_call_attempts": [1], "retry_delay_unit": ["seconds"]}' });
      expectEnvelope(res, 400);
      expect(res.body.data).toEqual([{ field: 'retry_delay[0]', message: 'Expected a finite number' }]);
    });
  });

  it('ignores duplicate or odd Authorization schemes safely', async () => {
    expectEnvelope(await t.request('GET', '/v1/campaigns/list', { headers: { authorization: `Basic ${a.key}` } }), 401);
    expectEnvelope(await t.request('GET', '/v1/campaigns/list', { headers: { authorization: 'Bearer' } }), 401);
    expectEnvelope(await t.request('GET', '/v1/campaigns/list', { headers: { authorization: 'Bearer a.b.c' } }), 401);
  });

  describe('dates and times outside what PostgreSQL stores', () => {
    const RANGE = 'Must be a date between 0001-01-01 and 9999-12-31';

    it('refuses year 0 in a campaign date with the field named, on create', async () => {
      const res = await t.request('POST', '/v1/campaigns', { token: a.key, body: { name: 'Year zero', started_at: '0000-01-01', ended_at: '0000-02-01' } });
      expectEnvelope(res, 400);
      expect(res.body.data).toEqual([
        { field: 'started_at', message: RANGE },
        { field: 'ended_at', message: RANGE },
      ]);
    });

    it.each([
      ['year 0', '0000-06-01T00:00:00Z'],
      ['year 0 once read in UTC', '0001-01-01T00:30:00+01:00'],
      ['past year 9999 once read in UTC', '9999-12-31T23:30:00-01:00'],
    ])('refuses a timestamp in %s with the field named', async (_name, deletedAt) => {
      const res = await t.request('POST', '/v1/campaigns', { token: a.key, body: { name: 'Odd time', deleted_at: deletedAt } });
      expectEnvelope(res, 400);
      expect(res.body.data).toEqual([{ field: 'deleted_at', message: 'Must be between 0001-01-01 and 9999-12-31 in UTC' }]);
    });

    it('keeps the first and last storable days', async () => {
      const res = await t.request('POST', '/v1/campaigns', { token: a.key, body: { name: 'Edges', started_at: '0001-01-01', ended_at: '9999-12-31' } });
      expect(okData(res)).toMatchObject({ started_at: '0001-01-01', ended_at: '9999-12-31' });
    });

    it('refuses a forged page cursor whose instant PostgreSQL cannot store', async () => {
      const cursor = Buffer.from(JSON.stringify(['-271821-04-20T00:00:00.000Z', a.campaign.id])).toString('base64url');
      const res = await t.request('GET', `/v1/calls?cursor=${cursor}`, { token: a.key });
      expectEnvelope(res, 400);
      expect(res.body.data).toEqual([{ field: 'cursor', message: 'Invalid cursor' }]);
    });
  });

  it('still answers after all of that', async () => {
    okData(await t.request('GET', '/v1/campaigns/list', { token: a.key }));
  });
});
