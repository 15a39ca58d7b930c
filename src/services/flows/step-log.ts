import type { LoggedRequest, LoggedResponse } from '../../entities/webhook-step-run.entity';

/** Most characters of a body, and of a header set, kept in a step's log. */
export const EXCERPT_LIMIT = 4096;

const REDACTED = '[redacted]';

/** Header and query-parameter names whose values are credentials. */
const SECRET_NAME = /auth|token|secret|password|passwd|api[-_]?key|signature|cookie|session|credential|private/i;

/** Cuts `text` to the excerpt limit; null stays null. */
function excerpt(text: string | null): string | null {
  return text === null || text.length <= EXCERPT_LIMIT ? text : text.slice(0, EXCERPT_LIMIT);
}

/** Headers with credential values replaced, cut to the excerpt limit (whole headers only). */
function loggedHeaders(headers: Record<string, string>, redact: boolean): Record<string, string> {
  const kept: Record<string, string> = {};
  let size = 2;
  for (const [name, value] of Object.entries(headers)) {
    const shown = redact && SECRET_NAME.test(name) ? REDACTED : value;
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

export function logRequest(request: { method: string; url: string; headers: Record<string, string>; body: string | null }): LoggedRequest {
  return { method: request.method, url: loggedUrl(request.url), headers: loggedHeaders(request.headers, true), body: excerpt(request.body) };
}

export function logResponse(response: { status: number; headers: Record<string, string>; text: string; truncated: boolean }): LoggedResponse {
  return {
    status: response.status,
    headers: loggedHeaders(response.headers, true),
    body: response.text === '' ? null : excerpt(response.text),
    truncated: response.truncated || response.text.length > EXCERPT_LIMIT,
  };
}
