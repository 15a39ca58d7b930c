import { FROM, okData, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => ({ t, a, b } = await twoTenants()));
afterAll(() => t.close());

const add = (body: unknown, token = a.key) => t.request('POST', '/v1/do-not-call', { token, body });
const remove = (number: string, token = a.key) => t.request('DELETE', `/v1/do-not-call/${encodeURIComponent(number)}`, { token });
const list = (query = '', token = a.key) => t.request('GET', `/v1/do-not-call${query}`, { token });
const makeCall = (tenant: Tenant, callTo: string, from = FROM) =>
  t.request('POST', '/v1/calls/make-call', { token: tenant.key, body: { ai_agent_id: tenant.agent.id, call_from: from, call_to: callTo } });

/** Every entry of a company's list, following the cursor. */
async function everything(token: string): Promise<any[]> {
  const all: any[] = [];
  let cursor: string | null = null;
  do {
    const page: any = okData(await list(`?limit=200${cursor ? `&cursor=${cursor}` : ''}`, token));
    all.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return all;
}

describe('POST /v1/do-not-call', () => {
  it('stores numbers given in any format in E.164, with the reason, in the order given', async () => {
    const entries = okData<any[]>(await add({ numbers: ['(415) 555-0101', '+1 415 555 0102 ext. 7', '+44 20 7946 0958'], reason: 'customer asked' }));
    expect(entries.map((e) => e.phone_number)).toEqual(['+14155550101', '+14155550102', '+442079460958']);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(['created_at', 'id', 'phone_number', 'reason']);
      expect(entry).toMatchObject({ reason: 'customer asked', id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(new Date(entry.created_at).toISOString()).toBe(entry.created_at);
    }
  });

  it('is idempotent: a number already listed keeps its entry, and one number given twice is listed once', async () => {
    const [first] = okData<any[]>(await add({ numbers: ['+14155550111'] }));
    expect(first.reason).toBeNull();
    const again = okData<any[]>(await add({ numbers: ['415.555.0111', '+14155550112', '(415) 555-0112'], reason: 'later' }));
    expect(again.map((e) => e.phone_number)).toEqual(['+14155550111', '+14155550112']);
    expect(again[0]).toEqual(first);
    expect(again[1].reason).toBe('later');
    expect((await everything(a.key)).filter((e) => e.phone_number === '+14155550112')).toHaveLength(1);
  });

  it('names every bad number by its index and lists none of the request', async () => {
    const res = await add({ numbers: ['+14155550121', '12345', 'call me at 415 555 0122', 4155550123] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: 'error',
      message: 'Validation failed',
      data: [
        { field: 'numbers[1]', message: 'Invalid phone number format' },
        { field: 'numbers[2]', message: 'Invalid phone number format' },
        { field: 'numbers[3]', message: 'Expected string, received number' },
      ],
    });
    expect((await everything(a.key)).map((e) => e.phone_number)).not.toContain('+14155550121');
  });

  it.each([
    ['no numbers', {}, [{ field: 'numbers', message: 'Required' }]],
    ['an empty list', { numbers: [] }, [{ field: 'numbers', message: 'Must hold at least one number' }]],
    ['an unknown field', { numbers: ['+14155550123'], label: 'x' }, [{ field: 'label', message: 'Unknown field' }]],
    ['a reason over 1000 characters', { numbers: ['+14155550123'], reason: 'r'.repeat(1001) }, [{ field: 'reason', message: 'Must be at most 1000 characters' }]],
    ['an array body', ['+14155550123'], [{ field: 'body', message: 'Expected object, received array' }]],
  ])('refuses %s', async (_name, body, fields) => {
    const res = await add(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', message: 'Validation failed', data: fields });
  });

  it('lists 10,000 numbers in one request and refuses 10,001', async () => {
    const { apiKey } = await t.company('Bulk');
    const numbers = Array.from({ length: 10_000 }, (_, i) => `+1415555${String(i).padStart(4, '0')}`);
    const entries = okData<any[]>(await add({ numbers, reason: 'bulk' }, apiKey));
    expect(entries.map((e) => e.phone_number)).toEqual(numbers);
    expect(okData<any[]>(await add({ numbers }, apiKey))).toEqual(entries);
    const tooMany = await add({ numbers: [...numbers, '+14155550100'] }, apiKey);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.data).toEqual([{ field: 'numbers', message: 'At most 10000 numbers per request' }]);
    expect(await everything(apiKey)).toHaveLength(10_000);
  }, 60_000);
});

describe('GET /v1/do-not-call', () => {
  it('pages newest first with an opaque cursor', async () => {
    const { apiKey } = await t.company('Pager');
    for (let i = 0; i < 5; i++) okData(await add({ numbers: [`+1415555013${i}`] }, apiKey));
    const seen: any[] = [];
    let cursor: string | null = null;
    do {
      const page: any = okData(await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`, apiKey));
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen.map((e) => e.phone_number).sort()).toEqual(['+14155550130', '+14155550131', '+14155550132', '+14155550133', '+14155550134']);
    // Newest first; two adds within the same millisecond are ordered by id, so only times are compared.
    const times = seen.map((e) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((x, y) => y - x));
  });

  it('refuses a bad limit or cursor with the field named', async () => {
    expect((await list('?limit=201')).body).toEqual({ status: 'error', message: 'Validation failed', data: [{ field: 'limit', message: 'Must be between 1 and 200' }] });
    expect((await list('?cursor=garbage')).body.data).toEqual([{ field: 'cursor', message: 'Invalid cursor' }]);
  });
});

describe('DELETE /v1/do-not-call/:number', () => {
  it.each([
    ['E.164, percent-encoded', '+14155550141', '%2B14155550141'],
    ['a national format', '+14155550142', encodeURIComponent('(415) 555-0142')],
    ['dots', '+14155550143', '415.555.0143'],
  ])('removes a number given in %s, then answers 404', async (_name, stored, path) => {
    okData(await add({ numbers: [stored] }));
    const res = await t.request('DELETE', `/v1/do-not-call/${path}`, { token: a.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', message: 'ok', data: 'Number removed' });
    expect((await everything(a.key)).map((e) => e.phone_number)).not.toContain(stored);
    const again = await t.request('DELETE', `/v1/do-not-call/${path}`, { token: a.key });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ status: 'error', message: 'Not found', data: '' });
  });

  it('refuses a path that is no phone number', async () => {
    const res = await remove('not-a-number');
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'number', message: 'Invalid phone number format' }]);
  });
});

describe('make-call and the list', () => {
  it('refuses a listed call_to the documented way, in any format, and calls it again once removed', async () => {
    okData(await add({ numbers: ['+14155550151'] }));
    for (const callTo of ['+14155550151', '(415) 555-0151', '415-555-0151 x9']) {
      const res = await makeCall(a, callTo);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', message: 'error', data: '' });
    }
    okData(await remove('415 555 0151'));
    expect(okData(await makeCall(a, '+14155550151')).call_to).toBe('+14155550151');
  });
});

describe('tenancy and auth', () => {
  it("keeps each company's list its own", async () => {
    okData(await add({ numbers: ['+14155550161'], reason: 'A only' }));
    expect((await everything(b.key)).map((e) => e.phone_number)).not.toContain('+14155550161');
    expect((await remove('+14155550161', b.key)).status).toBe(404);
    expect((await everything(a.key)).map((e) => e.phone_number)).toContain('+14155550161');
    expect(okData(await makeCall(b, '+14155550161', '+14155552672')).call_to).toBe('+14155550161');
    expect((await makeCall(a, '+14155550161')).status).toBe(400);
    // B listing the same number makes its own entry and leaves A's as it was.
    const [bEntry] = okData<any[]>(await add({ numbers: ['+14155550161'], reason: 'B too' }, b.key));
    const aEntry = (await everything(a.key)).find((e) => e.phone_number === '+14155550161');
    expect(bEntry.id).not.toBe(aEntry.id);
    expect(aEntry.reason).toBe('A only');
  });

  it.each([
    ['POST', '/v1/do-not-call'],
    ['GET', '/v1/do-not-call'],
    ['DELETE', '/v1/do-not-call/%2B14155550161'],
  ])('answers 401 to %s %s without credentials', async (method, path) => {
    const res = await t.request(method, path, { body: method === 'POST' ? { numbers: ['+14155550161'] } : undefined });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: 'error', message: 'Unauthorized', data: '' });
  });
});
