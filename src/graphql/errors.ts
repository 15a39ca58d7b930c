import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError, asServiceError, type PreconditionError, type RateLimitedError, type ValidationError } from '../services/shared/errors';

/** The service's error for a failed operation, as GraphQL answers it: one case per code. */
export function toGraphQLError(err: AppError): GraphQLError {
  const code = err.code;
  switch (code) {
    case 'BAD_USER_INPUT':
      return new GraphQLError(err.message, { extensions: { code, fields: (err as ValidationError).fields } });
    case 'NOT_FOUND':
      return new GraphQLError(err.message, { extensions: { code } });
    case 'UNAUTHENTICATED':
      return new GraphQLError('Unauthorized', { extensions: { code } });
    case 'FORBIDDEN':
    case 'CONFLICT':
    case 'UNPROCESSABLE':
      return new GraphQLError(err.message, { extensions: { code } });
    case 'FAILED_PRECONDITION': {
      const { field } = err as PreconditionError;
      return field
        ? new GraphQLError('Validation failed', { extensions: { code: 'BAD_USER_INPUT', fields: [{ field, message: err.message }] } })
        : new GraphQLError(err.message, { extensions: { code } });
    }
    case 'RATE_LIMITED':
      return new GraphQLError(err.message, { extensions: { code, retryAfter: (err as RateLimitedError).retryAfterS } });
    case 'TIMEOUT':
      return new GraphQLError(err.message, { extensions: { code } });
    default:
      return unreachable(code);
  }
}

function unreachable(code: never): never {
  throw new Error(`Unmapped error code ${String(code)}`);
}

/** What a resolver, a context builder or graphql-js threw, under its GraphQL wrappers, as a service error where it is one (asServiceError). */
export function rootCause(error: unknown): unknown {
  let cause = error;
  while (cause instanceof GraphQLError && cause.originalError) cause = cause.originalError;
  return asServiceError(cause);
}

/**
 * True for a failure of ours (a bug, an outage), as opposed to an answer to the caller. A
 * GraphQL error without a code raised while a field resolved (it has a `path`) is ours too:
 * graphql-js raises one when a resolver's value does not fit the field's type (an enum that
 * lacks a stored value), which no request can cause.
 */
export const isInternal = (error: unknown): boolean => {
  const cause = rootCause(error);
  if (cause instanceof AppError) return false;
  if (!(cause instanceof GraphQLError)) return true;
  return error instanceof GraphQLError && error.path !== undefined && cause.extensions.code === undefined;
};

/**
 * Apollo's `formatError`, also applied to websocket results: service errors get their
 * code, GraphQL's own errors (syntax, validation, limits) pass, and anything else becomes
 * an opaque INTERNAL_SERVER_ERROR: no message, no stack (the original is logged).
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const cause = rootCause(error);
  const where = { ...(formatted.locations ? { locations: formatted.locations } : {}), ...(formatted.path ? { path: formatted.path } : {}) };
  if (cause instanceof AppError) {
    const mapped = toGraphQLError(cause);
    return { message: mapped.message, ...where, extensions: mapped.extensions };
  }
  if (cause instanceof GraphQLError && !isInternal(error)) {
    const { stacktrace: _stack, http: _http, ...extensions } = formatted.extensions ?? {};
    return { ...formatted, extensions };
  }
  return { message: 'Internal server error', ...where, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/** Formats errors that were not formatted by Apollo (websocket operations). */
export const formatErrors = (errors: readonly GraphQLError[]): GraphQLFormattedError[] => errors.map((error) => formatError(error.toJSON(), error));
