import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { ApiKey, Company } from '../entities';
import { NotFoundError, UnauthenticatedError } from './errors';
import { requiredText } from './input/common';
import { parseInput } from './validation';
import type { Scope } from './scope';

const API_KEY_PREFIX = 'sk_';
/** How long a verified credential is trusted without asking the database again. */
const CACHE_MS = 30_000;
const CACHE_MAX = 10_000;

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

const jwtClaims = z.object({
  company_id: z.guid(),
  sub: z.string().min(1).max(200).optional(),
  exp: z.number(),
});

/**
 * Turns a bearer token into a Scope. Tokens are API keys (`sk_...`, stored hashed) or
 * HS256 JWTs whose `company_id` names the company and `sub` the user; `exp` is required.
 */
export class AuthService {
  private readonly cache = new Map<string, { scope: Scope; until: number }>();

  constructor(private readonly jwtSecret: string | undefined) {}

  async authenticate(em: EntityManager, authorization: string | undefined): Promise<Scope> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token) throw new UnauthenticatedError();
    const cached = this.cache.get(token);
    if (cached && cached.until > Date.now()) return cached.scope;
    const scope = token.startsWith(API_KEY_PREFIX) ? await this.fromApiKey(em, token) : await this.fromJwt(em, token);
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(token, { scope, until: Date.now() + CACHE_MS });
    return scope;
  }

  private async fromApiKey(em: EntityManager, token: string): Promise<Scope> {
    const key = await em.findOne(ApiKey, { hash: hashKey(token), revokedAt: null });
    if (!key) throw new UnauthenticatedError();
    return { companyId: key.company.id, userId: null, credential: `key:${key.id}` };
  }

  private async fromJwt(em: EntityManager, token: string): Promise<Scope> {
    if (!this.jwtSecret) throw new UnauthenticatedError();
    let payload: unknown;
    try {
      payload = jwt.verify(token, this.jwtSecret, { algorithms: ['HS256'] });
    } catch {
      throw new UnauthenticatedError();
    }
    const claims = jwtClaims.safeParse(payload);
    if (!claims.success) throw new UnauthenticatedError();
    const company = await em.count(Company, { id: claims.data.company_id });
    if (company === 0) throw new UnauthenticatedError();
    const userId = claims.data.sub ?? null;
    return { companyId: claims.data.company_id, userId, credential: `jwt:${claims.data.company_id}:${userId ?? ''}` };
  }

  /** Creates a company with its first API key. The key is returned once and stored hashed. */
  async createCompany(em: EntityManager, input: { name: unknown }): Promise<{ companyId: string; apiKey: string }> {
    const { name } = parseInput(z.object({ name: requiredText(200) }), input);
    return em.transactional(async (tx) => {
      const company = tx.create(Company, { name: name.trim() });
      const apiKey = this.newKey(tx, company.id);
      await tx.flush();
      return { companyId: company.id, apiKey };
    });
  }

  async createApiKey(em: EntityManager, companyId: string): Promise<{ apiKey: string }> {
    const { id } = parseInput(z.object({ id: z.guid({ error: 'Must be a UUID' }) }), { id: companyId });
    if ((await em.count(Company, { id })) === 0) throw new NotFoundError('Company');
    const apiKey = this.newKey(em, id);
    await em.flush();
    return { apiKey };
  }

  private newKey(em: EntityManager, companyId: string): string {
    const key = `${API_KEY_PREFIX}${randomBytes(30).toString('base64url')}`;
    em.create(ApiKey, { company: companyId, prefix: key.slice(0, 10), hash: hashKey(key) });
    return key;
  }
}
