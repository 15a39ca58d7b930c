import { createHash, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { ApiKey, Company } from '../../entities';
import { companyExists, liveApiKey } from './auth.store';
import { NotFoundError, UnauthenticatedError } from '../shared/errors';
import { requiredText, uuid } from '../shared/common.input';
import { parseId } from '../shared/records';
import { parseInput } from '../shared/validation';
import { type Clock, systemClock } from '../shared/clock';
import type { Caller, Scope } from '../shared/scope';
import { type ApiKeyView, toApiKeyView } from './api-key.contract';

const API_KEY_PREFIX = 'sk_';
const CACHE_MAX = 10_000;

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

const jwtClaims = z.object({
  company_id: uuid(),
  sub: z.string().min(1).max(200).optional(),
  exp: z.number(),
  iat: z.number().optional(),
});

/** How JWTs are verified (JWT_* in src/config.ts). */
export interface JwtOptions {
  /** HS256 secret; unset: JWTs are refused. */
  secret: string | undefined;
  /** Longest validity: `exp` minus `iat`, or minus now without `iat`. */
  maxLifetimeS: number;
  /** When set, `aud` must name it. */
  audience: string | undefined;
  /** When set, `iss` must be it. */
  issuer: string | undefined;
}

/**
 * The `Authorization` values a request carries: one header value, or every value it sent
 * (an HTTP request's repeated headers, a websocket's `authorization` and `Authorization`).
 */
export type AuthorizationValues = string | readonly string[] | undefined;

/** A verified credential: who it speaks for, and until when (epoch ms; null: until revoked). */
export interface Credential {
  scope: Scope;
  expiresAt: number | null;
}

/**
 * Turns a bearer token into a Scope. Tokens are API keys (`sk_...`, stored hashed) or
 * HS256 JWTs whose `company_id` names the company and `sub` the user; `exp` is required, at
 * most `maxLifetimeS` after `iat`, and `aud` and `iss` are checked when configured.
 * A verified credential is trusted for `trustMs` of `clock` without asking the database again (per
 * process), never past a JWT's `exp`: so a revoked API key stops working on every replica
 * within `trustMs` of its revocation (docs/rest.md).
 */
export class AuthService {
  private readonly cache = new Map<string, { credential: Credential; until: number }>();
  /**
   * The JWT secret as a key object: given the string, jsonwebtoken first tries it as a
   * public key and catches the failure, about 0.8 ms of CPU a verification against 0.02.
   */
  private readonly jwtKey: KeyObject | undefined;

  constructor(
    private readonly jwtOptions: JwtOptions,
    private readonly trustMs: number,
    private readonly clock: Clock = systemClock,
  ) {
    this.jwtKey = jwtOptions.secret ? createSecretKey(jwtOptions.secret, 'utf8') : undefined;
  }

  async authenticate(db: () => EntityManager, authorization: AuthorizationValues): Promise<Scope> {
    return (await this.verify(db, authorization)).scope;
  }

  /**
   * The credential of `authorization`, refused (UnauthenticatedError) when missing, bad,
   * expired, revoked, or ambiguous: two values, even equal ones, are refused rather than
   * one picked. With `fresh`, the database is asked even when the credential is cached.
   * `db` gives the EntityManager to ask, and is called only when the database is asked: a
   * cached credential costs no fork.
   */
  async verify(db: () => EntityManager, authorization: AuthorizationValues, { fresh = false } = {}): Promise<Credential> {
    const values = typeof authorization === 'string' ? [authorization] : (authorization ?? []);
    if (values.length !== 1) throw new UnauthenticatedError();
    const token = /^Bearer\s+(\S+)\s*$/i.exec(values[0])?.[1];
    if (!token) throw new UnauthenticatedError();
    const cached = this.cache.get(token);
    if (!fresh && cached && cached.until > this.clock.now().getTime()) return cached.credential;
    let credential: Credential;
    try {
      credential = token.startsWith(API_KEY_PREFIX) ? await this.fromApiKey(db(), token) : await this.fromJwt(db(), token);
    } catch (err) {
      // A refused re-check (a websocket's) also ends this replica's trust at once.
      if (err instanceof UnauthenticatedError) this.cache.delete(token);
      throw err;
    }
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(token, { credential, until: Math.min(this.clock.now().getTime() + this.trustMs, credential.expiresAt ?? Infinity) });
    return credential;
  }

  private async fromApiKey(em: EntityManager, token: string): Promise<Credential> {
    const key = await liveApiKey(em, hashKey(token));
    if (!key) throw new UnauthenticatedError();
    return { scope: { companyId: key.companyId, userId: null, credential: `key:${key.id}` }, expiresAt: null };
  }

  private async fromJwt(em: EntityManager, token: string): Promise<Credential> {
    const { maxLifetimeS, audience, issuer } = this.jwtOptions;
    const key = this.jwtKey;
    if (!key) throw new UnauthenticatedError();
    let payload: unknown;
    try {
      payload = jwt.verify(token, key, { algorithms: ['HS256'], clockTimestamp: Math.floor(this.clock.now().getTime() / 1000), ...(audience ? { audience } : {}), ...(issuer ? { issuer } : {}) });
    } catch {
      throw new UnauthenticatedError();
    }
    const claims = jwtClaims.safeParse(payload);
    if (!claims.success) throw new UnauthenticatedError();
    const issuedAt = claims.data.iat ?? Math.floor(this.clock.now().getTime() / 1000);
    if (claims.data.exp - issuedAt > maxLifetimeS) throw new UnauthenticatedError();
    if (!(await companyExists(em, claims.data.company_id))) throw new UnauthenticatedError();
    const { company_id: companyId, exp } = claims.data;
    const userId = claims.data.sub ?? null;
    return { scope: { companyId, userId, credential: `jwt:${companyId}:${userId ?? ''}` }, expiresAt: exp * 1000 };
  }

  /** Creates a company with its first API key. The key is returned once and stored hashed. */
  async createCompany(em: EntityManager, input: { name: unknown }): Promise<{ companyId: string; apiKey: string }> {
    const { name } = parseInput(z.object({ name: requiredText(200) }), input);
    return em.transactional(async (tx) => {
      const company = tx.create(Company, { name: name.trim() });
      const apiKey = this.newKey(tx, company.id).key;
      await tx.flush();
      return { companyId: company.id, apiKey };
    });
  }

  /** Every company, oldest first: what an operator picks a company from (the admin CLI's `list-companies`). */
  async listCompanies(em: EntityManager): Promise<{ id: string; name: string; createdAt: Date }[]> {
    const companies = await em.find(Company, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return companies.map(({ id, name, createdAt }) => ({ id, name, createdAt }));
  }

  /** Whether the database holds any company (a later start, on which no key is shown). */
  async hasCompanies(em: EntityManager): Promise<boolean> {
    return (await em.count(Company, {})) > 0;
  }

  async createApiKey(em: EntityManager, companyId: string): Promise<{ apiKey: string }> {
    const id = parseId(companyId);
    if ((await em.count(Company, { id })) === 0) throw new NotFoundError('Company');
    const apiKey = this.newKey(em, id).key;
    await em.flush();
    return { apiKey };
  }

  /**
   * Revokes an API key, given whole (only its hash is stored). It stops working on every
   * replica within `trustMs`; an unknown or already revoked key is NotFoundError.
   */
  async revokeApiKey(em: EntityManager, key: string): Promise<void> {
    const revoked = await em.nativeUpdate(ApiKey, { hash: hashKey(key), revokedAt: null }, { revokedAt: this.clock.now() });
    if (revoked === 0) throw new NotFoundError('API key');
  }

  /** The caller's company's API keys, newest first, revoked ones too (never the keys themselves). */
  async listApiKeys({ scope, em }: Caller): Promise<ApiKeyView[]> {
    const keys = await em.find(ApiKey, { company: scope.companyId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    return keys.map((key) => toApiKeyView(key));
  }

  /** A new API key of the caller's company: the answer is the only one that carries the key (`secret`). */
  async issueApiKey({ scope, em }: Caller): Promise<ApiKeyView> {
    const { key, record } = this.newKey(em, scope.companyId);
    await em.flush();
    return toApiKeyView(record, key);
  }

  /**
   * Revokes one of the caller's company's keys by id (NotFoundError when it has none such
   * live). It stops working at once on this replica, within `trustMs` on the others.
   */
  async revokeApiKeyById({ scope, em }: Caller, id: string): Promise<ApiKeyView> {
    const key = await em.findOne(ApiKey, { id: parseId(id), company: scope.companyId, revokedAt: null });
    if (!key) throw new NotFoundError('API key');
    key.revokedAt = this.clock.now();
    await em.flush();
    for (const [token, entry] of this.cache) if (entry.credential.scope.credential === `key:${key.id}`) this.cache.delete(token);
    return toApiKeyView(key);
  }

  private newKey(em: EntityManager, companyId: string): { key: string; record: ApiKey } {
    const key = `${API_KEY_PREFIX}${randomBytes(30).toString('base64url')}`;
    return { key, record: em.create(ApiKey, { company: companyId, prefix: key.slice(0, 10), hash: hashKey(key) }) };
  }
}
