import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Context } from 'koa';
import { z } from 'zod';
import { AppError, asServiceError, type ConflictError, type FieldError, PreconditionError, type RateLimitedError, ValidationError } from '../services/shared/errors';
import { KeyInUseError, KeyReusedError } from '../services/platform/idempotency.service';
import type { Page } from '../services/shared/pagination';

/** The `{status, message, data}` body every response carries (interface section 1). */
export interface Envelope {
  status: 'ok' | 'error';
  message: string;
  data: unknown;
}

export function ok(ctx: Context, data: unknown, message = 'ok'): void {
  ctx.status = 200;
  ctx.body = { status: 'ok', message, data } satisfies Envelope;
}

/** The `ok` envelope's text up to its `data`. */
const OK_OPENING = '{"status":"ok","message":"ok","data":';

/** The text of the `ok` envelope around `data`, already JSON: the bytes `ok` answers for the same data. */
export const okText = (data: string): string => `${OK_OPENING}${data}}`;

/**
 * Most characters of one chunk of a streamed array (`okArrayText`), about 32 KiB: V8 allocates a
 * string over 128 KiB in its large-object space, part of the old generation, which only a full
 * collection frees; chunks under it die young, in the scavenged new space (docs/performance.md,
 * "Volume").
 */
const CHUNK_CHARS = 32 * 1024;

/**
 * The text `ok` answers for the array of every item of `pages`, each item's JSON written by
 * `json`, in chunks of about CHUNK_CHARS characters (one item's JSON may be longer), never a
 * page's text at once, one chunk a turn of the event loop.
 */
async function* okArrayText<T>(pages: AsyncIterable<readonly T[]>, json: (item: T) => string): AsyncGenerator<string> {
  yield `${OK_OPENING}[`;
  let separator = '';
  let items: string[] = [];
  let chars = 0;
  for await (const page of pages) {
    for (const item of page) {
      const text = json(item);
      items.push(text);
      chars += text.length + 1;
      if (chars >= CHUNK_CHARS) {
        yield separator + items.join(',');
        separator = ',';
        items = [];
        chars = 0;
        // A socket that takes each chunk at once asks for the next in the same turn of the event
        // loop: each chunk waits for a turn of its own, so other requests wait behind one chunk.
        await nextTurn();
      }
    }
  }
  yield `${items.length > 0 ? separator + items.join(',') : ''}]}`;
}

/**
 * Answers the `ok` envelope around an array written as `pages` yields its items: the same
 * bytes `ok` answers for the whole array, sent as they come (chunked), read only as fast as
 * the client takes them (the stream's backpressure), so memory holds a page, never the list.
 * A failure once the answer has started cannot become an envelope: the stream fails, Koa
 * destroys the connection, and the client sees a truncated body (no final chunk), never a
 * valid-looking short list. Failures before the first page belong to the caller: read it
 * first, then call this.
 */
export function okArrayStream<T>(ctx: Context, pages: AsyncIterable<readonly T[]>, json: (item: T) => string = JSON.stringify): void {
  ctx.status = 200;
  ctx.type = 'application/json';
  // One chunk read ahead at most (Readable.from's object-mode default is 16): each chunk waits
  // for the socket to drain the one before.
  ctx.body = Readable.from(okArrayText(pages, json), { highWaterMark: 1 });
}

/** Answers the `ok` envelope around `data`, already JSON (a compiled serializer's text). */
export function okJson(ctx: Context, data: string): void {
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = okText(data);
}

/**
 * Answers the `ok` envelope around a page, `{items, next_cursor}`, each item's JSON written by
 * `json` (a compiled serializer): the bytes `ok` answers for the page's serialized items.
 */
export function okPage<T>(ctx: Context, page: Page<T>, json: (item: T) => string): void {
  okJson(ctx, `{"items":[${page.items.map(json).join(',')}],"next_cursor":${JSON.stringify(page.nextCursor)}}`);
}

/** One offending input field of a `Validation failed` answer. */
export const fieldErrorShape = z.strictObject({ field: z.string(), message: z.string() }).meta({ id: 'FieldError' });

/** The body of every failure: `data` is `""`, or the field list of a validation failure. */
export const errorEnvelopeShape = z.strictObject({ status: z.literal('error'), message: z.string(), data: z.union([z.literal(''), z.array(fieldErrorShape)]) }).meta({ id: 'Error' });

/** The documented failure of make-call (400) and of campaign update and contact listing (HTTP 200). */
export const quirkErrorShape = z.strictObject({ status: z.literal('error'), message: z.literal('error'), data: z.literal('') }).meta({ id: 'QuirkError' });

/** The message of a refusal over a rate limit. */
const TOO_MANY_REQUESTS = 'Too many requests';

/** A rate limit's refusal on a `legacy-200` operation: HTTP 200, with `Retry-After`. */
export const legacyRateLimitedShape = z.strictObject({ status: z.literal('error'), message: z.literal(TOO_MANY_REQUESTS), data: z.literal('') }).meta({ id: 'LegacyRateLimited' });

/** The body of a success carrying `data`. */
export const okEnvelopeShape = <T extends z.ZodType>(data: T) => z.strictObject({ status: z.literal('ok'), message: z.literal('ok'), data });

export const failure = (message: string, data: string | FieldError[] = ''): Envelope => ({ status: 'error', message, data });

/**
 * How a route answers failures:
 * - `standard`: 400 with the field list, 404, 409, 422, 401, 413, 500;
 * - `make-call`: as documented in 4.1: validation 400 with the field list, any other
 *   failure of the service 400 `error`;
 * - `legacy-200`: as documented for campaign update and contact listing: every failure
 *   but authentication answers HTTP 200 with status `error`; a used-up rate limit keeps its
 *   message (`Too many requests`) and `Retry-After`, so that clients can tell it.
 * Under every other policy, a used-up rate limit answers 429. Under every policy, missing
 * credentials answer 401, and an idempotency key in use 409 or reused for another request
 * 422: all are refused before the operation runs, and clients must tell them from its failures.
 */
export type ErrorPolicy = 'standard' | 'make-call' | 'legacy-200';

export interface Mapped {
  status: number;
  body: Envelope;
  /** Response headers the failure adds (`Retry-After`). */
  headers?: Record<string, string>;
  /** True when the failure is ours, not the caller's: log it in full. */
  internal: boolean;
  /**
   * What the standard policy would have answered, when the route's documented quirk hides
   * it (`error` with data `""`): logged, so that the reason can be found by request id.
   */
  hidden?: { status: number; body: Envelope };
}

/** A request refused before any service sees it: body too large or not JSON, URL malformed, method not allowed. */
export class MalformedRequest extends Error {
  constructor(
    readonly status: 400 | 405 | 413 | 415,
    message: string,
    /** Response headers the refusal adds (`Allow` on a 405). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

function mapStandard(err: unknown): Mapped {
  if (err instanceof AppError) {
    switch (err.code) {
      case 'BAD_USER_INPUT':
        return { status: 400, body: failure(err.message, (err as ValidationError).fields), internal: false };
      case 'NOT_FOUND':
        return { status: 404, body: failure('Not found'), internal: false };
      case 'UNAUTHENTICATED':
        return { status: 401, body: failure('Unauthorized'), internal: false };
      case 'FORBIDDEN':
        return { status: 403, body: failure(err.message), internal: false };
      case 'CONFLICT': {
        const { retryAfterS } = err as ConflictError;
        return { status: 409, body: failure(err.message), ...(retryAfterS === undefined ? {} : { headers: { 'Retry-After': String(retryAfterS) } }), internal: false };
      }
      case 'UNPROCESSABLE':
        return { status: 422, body: failure(err.message), internal: false };
      case 'FAILED_PRECONDITION': {
        const { field } = err as PreconditionError;
        const body = field ? failure('Validation failed', [{ field, message: err.message }]) : failure(err.message);
        return { status: 400, body, internal: false };
      }
      case 'RATE_LIMITED': {
        const retryAfter = String((err as RateLimitedError).retryAfterS);
        return { status: 429, body: failure(TOO_MANY_REQUESTS), headers: { 'Retry-After': retryAfter }, internal: false };
      }
      case 'TIMEOUT':
        return { status: 503, body: failure(err.message), internal: false };
    }
  }
  if (err instanceof MalformedRequest) return { status: err.status, body: failure(err.message), ...(err.headers ? { headers: err.headers } : {}), internal: false };
  return { status: 500, body: failure('Internal server error'), internal: true };
}

/**
 * Refusals before the operation runs: credentials, rate limits, idempotency keys. They
 * answer alike under every policy, as clients must tell them from the operation's failures.
 */
const beforeOperation = (err: unknown, mapped: Mapped): boolean => mapped.status === 401 || mapped.status === 429 || err instanceof KeyInUseError || err instanceof KeyReusedError;

/** Maps any thrown value to the answer the route's policy documents. */
export function mapError(thrown: unknown, policy: ErrorPolicy): Mapped {
  const err = asServiceError(thrown);
  const mapped = mapStandard(err);
  if (policy === 'legacy-200' && mapped.status === 429) return { ...mapped, status: 200 };
  if (beforeOperation(err, mapped)) return mapped;
  const hidden = { status: mapped.status, body: mapped.body };
  if (policy === 'legacy-200') return { ...mapped, status: 200, body: failure('error'), hidden };
  if (policy === 'make-call' && err instanceof AppError && err.code !== 'BAD_USER_INPUT') {
    return { ...mapped, status: 400, body: failure('error'), hidden };
  }
  return mapped;
}
