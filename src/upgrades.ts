import type http from 'node:http';
import type { Duplex } from 'node:stream';

/** Takes over one HTTP upgrade request (a websocket handshake) for a path. */
export type UpgradeHandler = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Answers an upgrade request with a bare HTTP status and closes the connection: no
 * websocket, not one message (a refused Twilio relay, an unknown path).
 */
export function refuseUpgrade(socket: Duplex, status: number): void {
  socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' };

/**
 * One `upgrade` listener for the HTTP server, handing each websocket handshake to the
 * handler of its path (GraphQL subscriptions, the Twilio relay). Two `ws` servers each bound
 * to the HTTP server would both see every handshake, and each refuses paths not its own.
 */
export function routeUpgrades(server: http.Server, routes: Record<string, UpgradeHandler>): void {
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?', 1)[0];
    const handler = Object.hasOwn(routes, path) ? routes[path] : undefined;
    if (handler) handler(req, socket, head);
    else refuseUpgrade(socket, 404);
  });
}
