import type { RawResponse } from './support';

/**
 * Paths that answer outside the `{status, message, data}` envelope by convention: Prometheus
 * text, the OpenAPI document and its HTML viewer, the health probes, the web console's page
 * and `/`, which redirects to it. The one list to extend when such a route is added; every
 * other response is checked for the envelope.
 */
export const NOT_ENVELOPED: readonly RegExp[] = [/^\/metrics$/, /^\/openapi\.json$/, /^\/docs(\/.*)?$/, /^\/healthz$/, /^\/readyz$/, /^\/$/, /^\/console(\/.*)?$/];

const STACK_TRACE = /\bat .+\.(ts|js):\d+/;

/**
 * Never a 5xx; the body is the envelope, `error` exactly when the answer is a refusal
 * (HTTP 200 `error` only on the documented legacy routes), with no stack trace in it.
 */
export function expectRestInvariants(res: RawResponse, path: string): void {
  expect(res.status).toBeLessThan(500);
  expect(res.text).not.toMatch(STACK_TRACE);
  if (NOT_ENVELOPED.some((re) => re.test(path.split('?')[0]))) return;
  expect(res.contentType).toMatch(/^application\/json/);
  expect(res.body).toEqual({ status: expect.stringMatching(/^(ok|error)$/), message: expect.any(String), data: expect.anything() });
  const body = res.body as { status: string; data: unknown };
  if (res.status >= 400) expect(body.status).toBe('error');
  if (body.status === 'ok') expect(res.status).toBe(200);
}

/** True when the service refused the request (a 4xx, or the legacy 200 `error`). */
export const refused = (res: RawResponse): boolean => res.status >= 400 || (res.body as { status?: string } | undefined)?.status === 'error';

/**
 * The codes a GraphQL error may carry (docs/graphql.md, Errors). INTERNAL_SERVER_ERROR is not
 * among them: it means a bug.
 */
export const GRAPHQL_CODES = new Set([
  'BAD_USER_INPUT',
  'NOT_FOUND',
  'CONFLICT',
  'FAILED_PRECONDITION',
  'FORBIDDEN',
  'UNAUTHENTICATED',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'QUERY_TOO_COMPLEX',
  'BAD_REQUEST',
  // Apollo's, when operationName names no operation of the document.
  'OPERATION_RESOLUTION_FAILURE',
]);

export interface GraphQLResult {
  data?: Record<string, unknown> | null;
  errors?: { message: unknown; extensions?: { code?: unknown } }[];
}

/** A GraphQL answer: data, errors or both; every error a message and a known code. */
export function expectGraphQLShape(result: unknown): asserts result is GraphQLResult {
  expect(result).toEqual(expect.any(Object));
  const { data, errors, ...rest } = result as GraphQLResult & Record<string, unknown>;
  expect(Object.keys(rest).filter((k) => k !== 'extensions')).toEqual([]);
  expect(data !== undefined || errors !== undefined).toBe(true);
  for (const error of errors ?? []) {
    expect(error.message).toEqual(expect.any(String));
    expect(GRAPHQL_CODES).toContain(error.extensions?.code);
    expect(JSON.stringify(error)).not.toMatch(STACK_TRACE);
  }
}
