import type { LoggedRequest, LoggedResponse } from '../../entities/webhook-step-run.entity';

/** Most characters of a body, and of a header set, kept in a step's log. */
export const EXCERPT_LIMIT = 4096;

const REDACTED = '[redacted]';

/** Header and query-parameter names whose values are credentials. */
const SECRET_NAME = /auth|token|secret|password|passwd|api[-_]?key|signature|cookie|session|credential|private/i;

/**
 * `text` with every secret value replaced, as written raw, inside a JSON string, and
 * URL-encoded (a path segment, a query parameter): the values of the flow's secret
 * variables (docs/flows.md, "Secret variables"), longest first.
 */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  const forms = new Set(secrets.flatMap((v) => [v, JSON.stringify(v).slice(1, -1), encodeURIComponent(v), new URLSearchParams({ v }).toString().slice(2)]));
  return [...forms]
    .filter((f) => f !== '')
    .sort((a, b) => b.length - a.length)
    .reduce((t, form) => t.split(form).join(REDACTED), text);
}

/** Cuts `text` to the excerpt limit; null stays null. */
function excerpt(text: string | null): string | null {
  return text === null || text.length <= EXCERPT_LIMIT ? text : text.slice(0, EXCERPT_LIMIT);
}

/** Headers with credential values replaced, cut to the excerpt limit (whole headers only). */
function loggedHeaders(headers: Record<string, string>, secrets: readonly string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  let size = 2;
  for (const [name, value] of Object.entries(headers)) {
    const shown = SECRET_NAME.test(name) ? REDACTED : maskSecrets(value, secrets);
    size += JSON.stringify(name).length + JSON.stringify(shown).length + 2;
    if (size > EXCERPT_LIMIT) break;
    kept[name] = shown;
  }
  return kept;
}

/** The URL with credential query parameters and user-info replaced. */
function loggedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return excerpt(url)!;
  }
  if (parsed.username || parsed.password) {
    parsed.username = REDACTED;
    parsed.password = '';
  }
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_NAME.test(name)) parsed.searchParams.set(name, REDACTED);
  }
  return parsed.toString();
}

/** The request as its step's log keeps it; `secrets`: values never shown (masked before the body is cut). */
export function logRequest(request: { method: string; url: string; headers: Record<string, string>; body: string | null }, secrets: readonly string[]): LoggedRequest {
  const body = request.body === null ? null : maskSecrets(request.body, secrets);
  return { method: request.method, url: loggedUrl(maskSecrets(request.url, secrets)), headers: loggedHeaders(request.headers, secrets), body: excerpt(body) };
}

/** The response as its step's log keeps it (a receiver may echo a secret back). */
export function logResponse(response: { status: number; headers: Record<string, string>; text: string; truncated: boolean }, secrets: readonly string[]): LoggedResponse {
  const text = maskSecrets(response.text, secrets);
  return {
    status: response.status,
    headers: loggedHeaders(response.headers, secrets),
    body: text === '' ? null : excerpt(text),
    truncated: response.truncated || response.text.length > EXCERPT_LIMIT,
  };
}
