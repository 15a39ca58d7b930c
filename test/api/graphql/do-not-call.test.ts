import { FROM, type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { firstError, gql, gqlData } from './graphql-client';

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => ({ t, a, b } = await twoTenants()));
afterAll(() => t.close());

const ADD = 'mutation($input: AddDoNotCallNumbersInput!) { addDoNotCallNumbers(input: $input) { id phoneNumber reason createdAt } }';
const REMOVE = 'mutation($number: String!) { removeDoNotCallNumber(number: $number) }';
const LIST = 'query($first: Int, $after: String) { doNotCallNumbers(first: $first, after: $after) { edges { cursor node { id phoneNumber reason } } pageInfo { hasNextPage endCursor } totalCount } }';
const MAKE_CALL = 'mutation($input: MakeCallInput!) { makeCall(input: $input) { id callTo } }';

const add = (numbers: unknown[], reason?: string, token = a.key) => gql(t, ADD, { input: { numbers, reason } }, token);
const makeCall = (tenant: Tenant, callTo: string, callFrom = FROM) => gql(t, MAKE_CALL, { input: { aiAgentId: tenant.agent.id, callFrom, callTo } }, tenant.key);

/** Every number on a company's list, following the connection's cursor. */
async function listed(token: string): Promise<string[]> {
  const numbers: string[] = [];
  let after: string | null = null;
  do {
    const { doNotCallNumbers: page }: any = await gqlData(t, LIST, { first: 100, after }, token);
    numbers.push(...page.edges.map((e: any) => e.node.phoneNumber));
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after);
  return numbers;
}

describe('addDoNotCallNumbers', () => {
  it('lists numbers given in any format in E.164, idempotently', async () => {
    const first = (await gqlData(t, ADD, { input: { numbers: ['(415) 555-0201', '+1 415 555 0202'], reason: 'customer asked' } }, a.key)).addDoNotCallNumbers;
    expect(first.map((e: any) => [e.phoneNumber, e.reason])).toEqual([
      ['+14155550201', 'customer asked'],
      ['+14155550202', 'customer asked'],
    ]);
    const again = (await gqlData(t, ADD, { input: { numbers: ['415.555.0201'] } }, a.key)).addDoNotCallNumbers;
    expect(again).toEqual([first[0]]);
  });

  it('names bad numbers by index with the same fields as REST', async () => {
    const res = await add(['+14155550203', 'nope', '123']);
    expect(firstError(res)).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [
        { field: 'numbers[1]', message: 'Invalid phone number format' },
        { field: 'numbers[2]', message: 'Invalid phone number format' },
      ],
    });
    const rest = await t.request('POST', '/v1/do-not-call', { token: a.key, body: { numbers: ['+14155550203', 'nope', '123'] } });
    expect(rest.body.data).toEqual(firstError(res)!.fields);
    expect(await listed(a.key)).not.toContain('+14155550203');
  });

  it('lists 10,000 numbers in one mutation', async () => {
    const { apiKey } = await t.company('Bulk');
    const numbers = Array.from({ length: 10_000 }, (_, i) => `+1415555${String(i).padStart(4, '0')}`);
    const data = await gqlData(t, 'mutation($input: AddDoNotCallNumbersInput!) { addDoNotCallNumbers(input: $input) { phoneNumber } }', { input: { numbers } }, apiKey);
    expect(data.addDoNotCallNumbers.map((e: any) => e.phoneNumber)).toEqual(numbers);
    expect((await gqlData(t, '{ doNotCallNumbers(first: 1) { totalCount } }', {}, apiKey)).doNotCallNumbers.totalCount).toBe(10_000);
  }, 60_000);
});

describe('doNotCallNumbers', () => {
  it('pages newest first with a total count', async () => {
    const { apiKey } = await t.company('Pager');
    for (let i = 0; i < 3; i++) await gqlData(t, ADD, { input: { numbers: [`+1415555021${i}`] } }, apiKey);
    const page1 = (await gqlData(t, LIST, { first: 2 }, apiKey)).doNotCallNumbers;
    expect(page1.totalCount).toBe(3);
    expect(page1.edges).toHaveLength(2);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = (await gqlData(t, LIST, { first: 2, after: page1.pageInfo.endCursor }, apiKey)).doNotCallNumbers;
    expect(page2.pageInfo).toEqual({ hasNextPage: false, endCursor: page2.edges[0].cursor });
    const all = [...page1.edges, ...page2.edges].map((e: any) => e.node.phoneNumber);
    expect(all.sort()).toEqual(['+14155550210', '+14155550211', '+14155550212']);
  });

  it('refuses first over 100', async () => {
    expect(firstError(await gql(t, LIST, { first: 101 }, a.key))).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'first', message: 'Must be between 1 and 100' }] });
  });
});

describe('removeDoNotCallNumber', () => {
  it('removes a number given in any format and answers it in E.164; NOT_FOUND when absent', async () => {
    await gqlData(t, ADD, { input: { numbers: ['+14155550221'] } }, a.key);
    expect((await gqlData(t, REMOVE, { number: '(415) 555-0221' }, a.key)).removeDoNotCallNumber).toBe('+14155550221');
    expect(firstError(await gql(t, REMOVE, { number: '+14155550221' }, a.key))).toEqual({ code: 'NOT_FOUND' });
    expect(firstError(await gql(t, REMOVE, { number: 'nope' }, a.key))).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'number', message: 'Invalid phone number format' }],
    });
  });
});

describe('makeCall', () => {
  it('refuses a listed callTo with BAD_USER_INPUT on call_to, and calls it once removed', async () => {
    await gqlData(t, ADD, { input: { numbers: ['+14155550231'] } }, a.key);
    expect(firstError(await makeCall(a, '415-555-0231'))).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'callTo', message: 'callTo is on the do-not-call list' }],
    });
    await gqlData(t, REMOVE, { number: '+14155550231' }, a.key);
    expect((await makeCall(a, '415-555-0231')).data.makeCall.callTo).toBe('+14155550231');
  });
});

describe('tenancy and auth', () => {
  it("keeps each company's list its own", async () => {
    await gqlData(t, ADD, { input: { numbers: ['+14155550241'] } }, a.key);
    expect(await listed(b.key)).not.toContain('+14155550241');
    expect(firstError(await gql(t, REMOVE, { number: '+14155550241' }, b.key))).toEqual({ code: 'NOT_FOUND' });
    expect(await listed(a.key)).toContain('+14155550241');
    expect((await makeCall(b, '+14155550241', '+14155552672')).data.makeCall.callTo).toBe('+14155550241');
    expect(firstError(await makeCall(a, '+14155550241'))!.code).toBe('BAD_USER_INPUT');
  });

  it.each([
    ['doNotCallNumbers', LIST, {}],
    ['addDoNotCallNumbers', ADD, { input: { numbers: ['+14155550241'] } }],
    ['removeDoNotCallNumber', REMOVE, { number: '+14155550241' }],
  ])('answers 401 UNAUTHENTICATED to %s without credentials', async (_name, query, variables) => {
    const res = await gql(t, query, variables, null);
    expect(res.status).toBe(401);
    expect(firstError(res)).toEqual({ code: 'UNAUTHENTICATED' });
  });
});
