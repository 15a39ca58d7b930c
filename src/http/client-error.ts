import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../logger';

/** Status and message by Node's parser error code; anything else is a malformed request (400). */
const REFUSALS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request line and headers too large (limit 16 KiB)'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Content Too Large', 'Chunk extensions too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'Request not received in time'],
};
const MALFORMED: [number, string, string] = [400, 'Bad Request', 'Malformed HTTP request'];

/**
 * Answers requests Node's HTTP parser refuses (URL or headers over 16 KiB, a malformed
 * request line, a bad `Content-Length`, both `Content-Length` and `Transfer-Encoding`) in the
 * `{status, message, data}` envelope, with the status Node itself would send (Node's own
 * answer has no body). No request object exists yet, so the response is written to the
 * socket, which is then closed: after a parse error the rest of the stream cannot be read.
 * Nothing is written when a response to the same connection has already started (it would
 * corrupt it) or the peer is gone. Logged at `info` with a request id, as a request.
 */
export function answerClientErrors(server: http.Server, logger: Logger): void {
  const responding = new WeakMap<Duplex, http.ServerResponse>();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => responding.set(req.socket, res));
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    const current = responding.get(socket);
    const midResponse = current !== undefined && current.headersSent && !current.writableFinished;
    if (err.code === 'ECONNRESET' || !socket.writable || midResponse) {
      socket.destroy();
      return;
    }
    const [status, reason, message] = REFUSALS[err.code ?? ''] ?? MALFORMED;
    const requestId = randomUUID();
    logger.info({ request_id: requestId, status, code: err.code }, 'request refused by the HTTP parser');
    const body = JSON.stringify({ status: 'error', message, data: '' });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
