import { type Tenant, twoTenants } from '../../support/fixtures';
import type { TestApp } from '../../support/harness';
import { firstError, gql, gqlData } from './graphql-client';

let t: TestApp;
let a: Tenant;
let b: Tenant;

beforeAll(async () => ({ t, a, b } = await twoTenants()));
afterAll(() => t.close());

const CREATE = 'mutation { createApiKey { id prefix createdAt revokedAt secret } }';
const LIST = '{ apiKeys { id prefix revokedAt secret } }';
const REVOKE = 'mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt secret } }';

describe('API keys over GraphQL', () => {
  it("creates a key of the caller's company, shown once: the list never carries it", async () => {
    const made = (await gqlData(t, CREATE, {}, a.key)).createApiKey;
    expect(made.secret).toMatch(/^sk_/);
    expect(made.prefix).toBe(made.secret.slice(0, 10));
    expect(made.revokedAt).toBeNull();
    expect((await gql(t, '{ __typename }', {}, made.secret)).errors).toBeUndefined();

    const listed = (await gqlData(t, LIST, {}, a.key)).apiKeys;
    expect(listed[0]).toEqual({ id: made.id, prefix: made.prefix, revokedAt: null, secret: null });
    expect(listed.map((k: any) => k.secret)).toEqual(listed.map(() => null));
    expect((await gqlData(t, LIST, {}, b.key)).apiKeys.map((k: any) => k.id)).not.toContain(made.id);
  });

  it("revokes a key by id: refused at once (401), listed as revoked; another company's key is NOT_FOUND", async () => {
    const made = (await gqlData(t, CREATE, {}, a.key)).createApiKey;
    expect(firstError(await gql(t, REVOKE, { id: made.id }, b.key))).toMatchObject({ code: 'NOT_FOUND' });
    expect((await gql(t, '{ __typename }', {}, made.secret)).errors).toBeUndefined();

    const revoked = (await gqlData(t, REVOKE, { id: made.id }, a.key)).revokeApiKey;
    expect(revoked).toEqual({ id: made.id, revokedAt: expect.any(String), secret: null });
    const refused = await t.request('POST', '/graphql', { token: made.secret, body: { query: '{ __typename }' } });
    expect(refused.status).toBe(401);
    expect(firstError(await gql(t, REVOKE, { id: made.id }, a.key))).toMatchObject({ code: 'NOT_FOUND' });
    expect((await gqlData(t, LIST, {}, a.key)).apiKeys.find((k: any) => k.id === made.id).revokedAt).toBe(revoked.revokedAt);
  });
});
