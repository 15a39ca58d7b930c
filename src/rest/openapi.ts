import type { Router, RouterMiddleware } from '@koa/router';
import type { z } from 'zod';
import type { ErrorPolicy } from './envelope';
import type { RateLimited } from '../services/platform/rate-limit.service';
import type { Rebuild } from './idempotency';
import { type Endpoint, mediaType, type RestState } from './middleware';
import { restNames } from './rest-names';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Media types of request bodies. */
export type BodyType = 'application/json' | 'application/x-www-form-urlencoded' | 'text/csv' | 'multipart/form-data';

/** The groups of operations in /openapi.json, with what each holds. */
export const TAGS = {
  Calls: 'Test calls (interface 4.1) and the call records of the company.',
  Campaigns: 'Scheduled calling jobs over contact lists (interface 4.2, 4.4 to 4.6).',
  Contacts: 'The people campaigns call, with the outcome of their latest call (interface 4.3).',
  'AI agents': 'Configurable conversational agents and the agent templates (interface 4.7 to 4.9).',
  'Phone numbers': 'Numbers the company owns: the only allowed `call_from` of make-call.',
  'Do-not-call': 'Numbers no call may reach, whatever asks for it.',
  'Webhook flows': 'Outbound webhook flows, integration templates and their executions (interface 4.10, 4.11).',
  'Telephony callbacks': 'Status callbacks from the telephony provider, not for clients.',
  Operations: 'Probes and this document.',
} as const;

export type Tag = keyof typeof TAGS;

/** A documented failure of one operation, beyond those its kind always has (see below). */
export type DocumentedError = string | { description: string; message: string; data: z.ZodType };

/**
 * One REST operation as /openapi.json describes it. The schemas are the very zod schemas the
 * services parse (each aggregate's *.input.ts in src/services) and the serializers' shapes, so the document follows
 * the code. Every operation also gets, without saying: 400 (malformed URL; plus validation
 * when it has params, query or a body; plus `Malformed JSON body` with a JSON body), 413
 * and 415 (another media type) with a body, 401 and 429 (with Retry-After) when
 * authenticated, 500; and the documented quirks of its error policy (make-call's 400
 * `error`, the legacy HTTP 200 `error`).
 */
export interface Operation {
  /** Unique, camelCase: names the operation in generated clients. */
  id: string;
  method: HttpMethod;
  /** Koa syntax, `/v1/calls/:id`; the document writes `{id}`. */
  path: string;
  tag: Tag;
  summary: string;
  description?: string;
  /** `bearer` (default): an API key `sk_...` or a JWT; `none`: no Authorization header. */
  auth?: 'bearer' | 'none';
  /** How failures answer (src/rest/envelope.ts); `standard` unless said. */
  policy?: ErrorPolicy;
  /** The operation's own rate limit, counted on top of the general one (docs/operations.md). */
  limit?: Exclude<RateLimited, 'request'>;
  /** Path parameters. A parameter not named here is a record id: a UUID, as `parseId` checks. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Media type of `body`; JSON unless said. */
  bodyType?: BodyType;
  /**
   * Instead of `body`: a body the handlers read themselves, in any of these media types,
   * each with its schema (a file upload). Other media types answer 415.
   */
  bodies?: Partial<Record<BodyType, z.ZodType>>;
  /** `data` of the success envelope (HTTP 200). */
  data: z.ZodType;
  /** The 200 body is `data` itself, not the envelope (the OpenAPI document only). */
  unwrapped?: boolean;
  /** Media type of an unwrapped 200 body; JSON unless said (TwiML answers to Twilio, a recording's audio). */
  dataType?: 'application/json' | 'text/xml' | 'audio/wav';
  /** Further failures, by HTTP status: 403, 404, 409, 503... */
  errors?: Partial<Record<number, DocumentedError>>;
  /**
   * Accepts an `Idempotency-Key` header: a retry with the same key and body answers the
   * first answer instead of running again (src/rest/idempotency.ts, docs/rest.md). Given
   * as how to answer the records the first request created, for a key whose process died
   * before storing its answer.
   */
  idempotent?: Rebuild;
}

/** The 404 of an operation on one record: foreign ids answer exactly like unknown ones. */
export const notFound = (what: string): string => `Unknown ${what}, or one of another company.`;

/**
 * The REST operations of one process, each declared once: `route` documents an operation
 * and mounts it, so that its method, path, authentication, error policy and body parsing
 * come from the same declaration as its entry in /openapi.json.
 */
export class RestApi {
  readonly operations: Operation[] = [];

  constructor(
    private readonly endpoint: Endpoint,
    /** The middleware of `idempotent` operations. */
    private readonly idempotency: (rebuild: Rebuild) => RouterMiddleware<RestState>,
  ) {}

  /**
   * Documents `op` and mounts `handlers` for it on `router`, behind the endpoint middleware
   * (error policy, authentication, JSON body parser when `op.body` is JSON) unless
   * `op.auth` is `none`, in which case `handlers` do all of it; then, for an `idempotent`
   * operation, the idempotency keys; then, for `op.bodies`, the media type check.
   */
  route(router: Router<RestState>, op: Operation, ...handlers: RouterMiddleware<RestState>[]): void {
    if (this.operations.some((o) => o.id === op.id)) throw new Error(`Operation ${op.id} declared twice`);
    this.operations.push(op);
    const json = op.body !== undefined && (op.bodyType ?? 'application/json') === 'application/json';
    if (op.idempotent && op.auth === 'none') throw new Error(`Operation ${op.id}: idempotency keys are per company, so need authentication`);
    const kit = op.auth === 'none' ? [] : this.endpoint({ policy: op.policy, body: json, limit: op.limit });
    const keyed = op.idempotent ? [this.idempotency(op.idempotent)] : [];
    const typed = op.bodies ? [mediaType(...Object.keys(op.bodies))] : [];
    const named = op.auth === 'none' ? [] : [restNames({ body: json ? op.body : undefined, query: op.query, bodies: op.bodies })];
    router.register(op.path, [op.method.toUpperCase()], [...(kit as RouterMiddleware<RestState>[]), ...keyed, ...typed, ...(named as RouterMiddleware<RestState>[]), ...handlers]);
  }
}
