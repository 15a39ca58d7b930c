import { Agent, errors as undiciErrors, request } from 'undici';
import { AddressGuard, type AddressPolicy, BlockedAddressError } from './address-guard';

/** Most bytes of a response body read; the rest is dropped with the connection. */
export const RESPONSE_READ_LIMIT = 1024 * 1024;

export interface OutboundRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

export interface OutboundResponse {
  status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  text: string;
  /** The body went past RESPONSE_READ_LIMIT and was cut there. */
  truncated: boolean;
}

/** A request that got no usable response; `message` says why in words a user can act on. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    /** False when trying again cannot help (a refused address, a malformed request). */
    readonly retryable: boolean,
    /** The deadline passed before a complete response came. */
    readonly timedOut = false,
  ) {
    super(message);
  }
}

/**
 * The HTTP client of flow steps: undici with a connection pool, the SSRF guard at connect
 * time, no redirects followed, a deadline covering connect, headers and body, and a bounded
 * body read so that a huge answer costs at most RESPONSE_READ_LIMIT of memory.
 */
export class OutboundHttp {
  private readonly agent: Agent;

  constructor(policy: AddressPolicy) {
    this.agent = new Agent({ connect: new AddressGuard(policy).connector(), keepAliveTimeout: 4_000, connections: 256 });
  }

  async send(req: OutboundRequest, timeoutMs: number): Promise<OutboundResponse> {
    const signal = AbortSignal.timeout(Math.max(1, Math.floor(timeoutMs)));
    try {
      const res = await request(req.url, {
        method: req.method as 'GET',
        headers: req.headers,
        body: req.body ?? undefined,
        signal,
        dispatcher: this.agent,
      });
      const { text, truncated } = await readBounded(res.body);
      return { status: res.statusCode, headers: flatHeaders(res.headers), text, truncated };
    } catch (err) {
      throw describe(err, signal.aborted ? timeoutMs : null);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

async function readBounded(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const room = RESPONSE_READ_LIMIT - size;
    chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    size += Math.min(chunk.length, room);
    if (chunk.length > room) {
      body.destroy();
      return { text: Buffer.concat(chunks).toString('utf8'), truncated: true };
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

const NETWORK_MESSAGES: Record<string, string> = {
  ECONNREFUSED: 'Connection refused by the receiver',
  ECONNRESET: 'Connection reset by the receiver',
  EPIPE: 'Connection reset by the receiver',
  UND_ERR_SOCKET: 'Connection closed by the receiver before it answered',
  ENOTFOUND: 'Host not found (DNS)',
  EAI_AGAIN: 'Host name lookup failed temporarily (DNS)',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'Connection timed out',
};

/** Any failure of `send`, as a DeliveryError a user can read. */
function describe(err: unknown, timedOutAfterMs: number | null): DeliveryError {
  if (err instanceof BlockedAddressError) return new DeliveryError(err.message, false);
  if (timedOutAfterMs !== null) return new DeliveryError(`No complete response within ${formatSeconds(timedOutAfterMs)}`, true, true);
  if (err instanceof undiciErrors.InvalidArgumentError) return new DeliveryError(`Invalid request: ${err.message}`, false);
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof BlockedAddressError) return new DeliveryError(cause.message, false);
  const code = (err as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code;
  const known = code ? NETWORK_MESSAGES[code] : undefined;
  if (known) return new DeliveryError(known, true);
  const message = err instanceof Error ? err.message : String(err);
  return new DeliveryError(`Request failed: ${message}`, true);
}

function formatSeconds(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  return `${s} s`;
}
