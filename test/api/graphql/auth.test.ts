import { sign } from 'jsonwebtoken';
import { type Tenant, oneTenant } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { closeCode, gql, query, wsClient } from './graphql-client';

let t: TestApp;
let a: Tenant;

beforeAll(async () => ({ t, a } = await oneTenant()));
afterAll(() => t.close());

const bad: [string, () => string | null][] = [
  ['no token', () => null],
  ['an unknown API key', () => 'sk_not-a-real-key'],
  ['a JWT signed with another secret', () => t.jwtFor(a.companyId, {}, 'another-secret-of-16-chars')],
  ['an expired JWT', () => t.jwtFor(a.companyId, { exp: Math.floor(Date.now() / 1000) - 10 })],
  ['a JWT without exp', () => sign({ company_id: a.companyId }, 'test-secret-at-least-16-chars')],
];

describe('HTTP', () => {
  it.each(bad)('answers 401 with code UNAUTHENTICATED for %s', async (_name, token) => {
    const res = await gql(t, '{ phoneNumbers { id } }', {}, token());
    expect(res.status).toBe(401);
    expect(res.data).toBeUndefined();
    expect(res.errors).toEqual([{ message: 'Unauthorized', extensions: { code: 'UNAUTHENTICATED' } }]);
  });

  it('accepts an API key and a JWT, both scoped to the company', async () => {
    for (const token of [a.key, t.jwtFor(a.companyId)]) {
      const res = await gql(t, '{ phoneNumbers { id } }', {}, token);
      expect(res.status).toBe(200);
      expect(res.data).toEqual({ phoneNumbers: [{ id: a.number.id }] });
    }
  });
});

describe('websockets', () => {
  it.each(bad)('closes the connection with 4403 for %s', async (_name, token) => {
    expect(await closeCode(wsClient(t, token()))).toBe(4403);
  });

  it.each([
    ['an API key under "authorization"', () => a.key, 'authorization'],
    ['a JWT under "Authorization"', () => t.jwtFor(a.companyId), 'Authorization'],
  ])('accepts %s in connection_init', async (_name, token, key) => {
    const client = wsClient(t, token(), key);
    expect(await query(client, '{ phoneNumbers { id } }')).toEqual({ data: { phoneNumbers: [{ id: a.number.id }] } });
    await client.dispose();
  });
});
