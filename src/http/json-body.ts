import parse from 'co-body';
import type { Context } from 'koa';

const MiB = 1024 * 1024;

/** Largest accepted JSON body of a REST operation, in bytes. */
export const BODY_LIMIT = 1 * MiB;

/** Largest accepted GraphQL request, in bytes: room for a CSV import of a few MiB (larger files go through REST). */
export const GRAPHQL_BODY_LIMIT = 5 * MiB;

/** Media types read as JSON: `application/json` and any `+json` type (`application/merge-patch+json`). */
const JSON_TYPES = ['application/json', '+json'];

/** A body refused as a whole: not JSON, too large, of an unknown content encoding. Each transport answers it its own way. */
export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** True when the request carries content (`Content-Length: 0`, which fetch sends for an empty POST, is none). */
export const hasContent = (ctx: Context): boolean => ctx.get('transfer-encoding') !== '' || Number(ctx.get('content-length')) > 0;

/**
 * The request's JSON body, at most `limit` bytes: an object or array; `{}` when there is no content. Content of
 * another media type is refused (415), never read as "no fields": a body sent as
 * `text/plain` would otherwise change nothing and answer success. Keys such as `__proto__`
 * are kept as the plain keys JSON makes them (co-body's `onProtoPoisoning: 'ignore'`), so
 * that the transports refuse them as a validation failure naming the field
 * (`reservedKeys`), not as malformed JSON, which they are not.
 */
export async function readJsonBody(ctx: Context, limit = BODY_LIMIT): Promise<unknown> {
  if (!hasContent(ctx)) return {};
  // A refused body is left unread; kept alive, the connection would have to read it first.
  const refuse = (status: 400 | 413 | 415, message: string) => {
    if (!ctx.req.complete) ctx.set('Connection', 'close');
    return new BodyError(status, message);
  };
  if (!ctx.is(JSON_TYPES)) throw refuse(415, 'Unsupported media type: send JSON with Content-Type: application/json');
  // onProtoPoisoning is documented by co-body (README, "Options") but missing from @types/co-body.
  const options: parse.Options & { onProtoPoisoning: 'ignore' } = { limit, encoding: 'utf-8', strict: true, onProtoPoisoning: 'ignore' };
  try {
    return (await parse.json(ctx, options)) as unknown;
  } catch (err) {
    const status = (err as { status?: unknown }).status;
    if (status === 413) throw refuse(413, `Request body too large (limit ${limit / MiB} MiB)`);
    if (status === 415) throw refuse(415, 'Unsupported content encoding');
    throw refuse(400, 'Malformed JSON body');
  }
}
