/**
 * The one error hierarchy of the product. Services throw these; each transport maps them
 * exhaustively (REST: envelope + status, GraphQL: extensions.code). Nothing here knows HTTP.
 */
export interface FieldError {
  field: string;
  message: string;
}

export type ErrorCode = 'BAD_USER_INPUT' | 'NOT_FOUND' | 'UNAUTHENTICATED' | 'FORBIDDEN' | 'CONFLICT' | 'UNPROCESSABLE' | 'FAILED_PRECONDITION' | 'RATE_LIMITED' | 'TIMEOUT';

export abstract class AppError extends Error {
  abstract readonly code: ErrorCode;
}

/**
 * Input failed validation; `fields` names each offending input, e.g. `dynamic_variables[0].name`.
 * `message` is `Validation failed`, or starts with it when the list needs a word more (a CSV
 * import lists only its first errors and says how many there were).
 */
export class ValidationError extends AppError {
  readonly code = 'BAD_USER_INPUT';
  constructor(
    readonly fields: FieldError[],
    message = 'Validation failed',
  ) {
    super(message);
  }

  static of(field: string, message: string): ValidationError {
    return new ValidationError([{ field, message }]);
  }
}

/** The record does not exist, or belongs to another company (callers cannot tell which). */
export class NotFoundError extends AppError {
  readonly code = 'NOT_FOUND';
  constructor(readonly resource: string) {
    super(`${resource} not found`);
  }
}

export class UnauthenticatedError extends AppError {
  readonly code = 'UNAUTHENTICATED';
  constructor(reason = 'Unauthorized') {
    super(reason);
  }
}

/** The caller is known (or the request is signed) but may not do this: a forged signature, say. */
export class ForbiddenError extends AppError {
  readonly code = 'FORBIDDEN';
}

/**
 * The request is well formed but clashes with existing state (a duplicate, say).
 * `retryAfterS`: when the clash passes by itself, how long to wait before retrying.
 */
export class ConflictError extends AppError {
  readonly code = 'CONFLICT';
  constructor(
    message: string,
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

/** The request is well formed but contradicts an earlier one (an idempotency key reused for another request). */
export class UnprocessableError extends AppError {
  readonly code = 'UNPROCESSABLE';
}

/**
 * The request is well formed but the product cannot act on it: a referenced record is
 * missing or not usable (a call_from number the company does not own, for instance).
 * `field` names the input at fault, for the surfaces that report it.
 */
export class PreconditionError extends AppError {
  readonly code = 'FAILED_PRECONDITION';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The caller used up a rate limit; the same request may succeed after `retryAfterMs`. */
export class RateLimitedError extends AppError {
  readonly code = 'RATE_LIMITED';
  constructor(readonly retryAfterMs: number) {
    super('Too many requests');
  }

  /** The wait in whole seconds, rounded up and at least 1, as `Retry-After` states it. */
  get retryAfterS(): number {
    return Math.max(1, Math.ceil(this.retryAfterMs / 1000));
  }
}

/**
 * A statement of the request ran past REQUEST_STATEMENT_TIMEOUT_MS and PostgreSQL cancelled
 * it (src/db/orm.ts, openRequestOrm): the request asked for more work than one request may
 * do (a search over a large table, say). Not a failure of ours: narrow the request.
 */
export class StatementTimeoutError extends AppError {
  readonly code = 'TIMEOUT';
  constructor() {
    super('The request took too long');
  }
}

/**
 * `err`, or the service error it stands for: PostgreSQL's cancellation by `statement_timeout`
 * (SQLSTATE 57014, as the driver or the ORM reports it) is a StatementTimeoutError. The
 * transports map what services throw through this, as statements fail anywhere below them.
 */
export function asServiceError(err: unknown): unknown {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return code === '57014' && typeof message === 'string' && message.endsWith('canceling statement due to statement timeout') ? new StatementTimeoutError() : err;
}

/** One line for a console: the fields of a validation error, or the message. */
export function describeError(err: unknown): string {
  if (err instanceof ValidationError) return `${err.message}: ${err.fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`;
  return err instanceof Error ? err.message : String(err);
}
