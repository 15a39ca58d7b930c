import jwt from 'jsonwebtoken';
import { AuthService } from '../../../src/services/auth/auth.service';
import { NotFoundError, UnauthenticatedError } from '../../../src/services/shared/errors';
import { ManualClock } from '../../support/clock';
import { startTestServices, type TestServices } from '../../support/services';

// Credentials at the service: API keys, JWTs, and the trust window each replica keeps,
// on the manual clock (the HTTP surface of the same: test/api/rest/credentials.test.ts).

const SECRET = 'service-test-secret';
const TRUST_MS = 5_000;
const clock = new ManualClock(new Date('2026-11-27T12:00:00Z'));
let s: TestServices;

beforeAll(async () => {
  s = await startTestServices({ JWT_SECRET: SECRET, AUTH_TRUST_S: String(TRUST_MS / 1000), JWT_MAX_LIFETIME_S: '3600' }, { clock });
});
afterAll(() => s.close());

const db = () => s.orm.em.fork();
const bearer = (token: string) => `Bearer ${token}`;
/** Another replica's view of the same credentials: its own trust window, the same database and clock. */
const replica = () => new AuthService({ secret: SECRET, maxLifetimeS: 3600, audience: undefined, issuer: undefined }, TRUST_MS, clock);
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

describe('API keys', () => {
  it("speak for their company only, and a company's keys list none of another's", async () => {
    const a = await s.company();
    const b = await s.company();
    expect((await s.services.auth.authenticate(db, bearer(a.apiKey))).companyId).toBe(a.companyId);
    const issued = await s.services.auth.issueApiKey(s.caller(b.companyId));
    expect((await s.services.auth.listApiKeys(s.caller(a.companyId))).map((k) => k.id)).not.toContain(issued.id);
    await expect(s.services.auth.revokeApiKeyById(s.caller(a.companyId), issued.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await s.services.auth.authenticate(db, bearer(issued.secret!))).companyId).toBe(b.companyId);
  });

  it('a key revoked on one replica stops there at once, and on another once its trust window has passed', async () => {
    const { companyId } = await s.company();
    const key = await s.services.auth.issueApiKey(s.caller(companyId));
    const other = replica();
    await other.authenticate(db, bearer(key.secret!));
    await s.services.auth.authenticate(db, bearer(key.secret!));
    await s.services.auth.revokeApiKeyById(s.caller(companyId), key.id);
    await expect(s.services.auth.authenticate(db, bearer(key.secret!))).rejects.toBeInstanceOf(UnauthenticatedError);
    clock.advance(TRUST_MS - 1);
    expect((await other.authenticate(db, bearer(key.secret!))).companyId).toBe(companyId);
    clock.advance(1);
    await expect(other.authenticate(db, bearer(key.secret!))).rejects.toBeInstanceOf(UnauthenticatedError);
    // A fresh check (a websocket's re-check) asks the database whatever the window.
    const third = replica();
    await expect(third.verify(db, bearer(key.secret!), { fresh: true })).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('refuses a missing, malformed or doubled authorization', async () => {
    const { apiKey } = await s.company();
    for (const values of [undefined, '', apiKey, `Basic ${apiKey}`, [bearer(apiKey), bearer(apiKey)]]) {
      await expect(s.services.auth.authenticate(db, values)).rejects.toBeInstanceOf(UnauthenticatedError);
    }
  });
});

describe('JWTs', () => {
  it("speak for their company and user until exp on the service's clock, never trusted past it", async () => {
    const { companyId } = await s.company();
    const now = seconds(clock.now());
    const token = jwt.sign({ company_id: companyId, sub: 'user-1', iat: now, exp: now + 60 } satisfies jwt.JwtPayload, SECRET, { algorithm: 'HS256' });
    expect(await s.services.auth.authenticate(db, bearer(token))).toMatchObject({ companyId, userId: 'user-1' });
    clock.advance(60_000);
    await expect(s.services.auth.authenticate(db, bearer(token))).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('refuses a lifetime over JWT_MAX_LIFETIME_S, another secret, and a company that does not exist', async () => {
    const { companyId } = await s.company();
    const now = seconds(clock.now());
    const tooLong = jwt.sign({ company_id: companyId, iat: now, exp: now + 3601 }, SECRET, { algorithm: 'HS256' });
    const forged = jwt.sign({ company_id: companyId, iat: now, exp: now + 60 }, 'another-secret', { algorithm: 'HS256' });
    const nobody = jwt.sign({ company_id: '00000000-0000-4000-8000-000000000000', iat: now, exp: now + 60 }, SECRET, { algorithm: 'HS256' });
    for (const token of [tooLong, forged, nobody]) await expect(s.services.auth.authenticate(db, bearer(token))).rejects.toBeInstanceOf(UnauthenticatedError);
  });
});
