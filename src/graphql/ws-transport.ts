import type { IncomingMessage } from 'node:http';
import { CloseCode, handleProtocols, type Server } from 'graphql-ws';
import { WebSocket, type WebSocketServer } from 'ws';
import type { Logger } from '../logger';
import type { UpgradeHandler } from '../upgrades';

/** What each graphql-ws context's `extra` carries from the transport. */
export type SocketExtra = { socket: WebSocket; request: IncomingMessage };

/** How often a socket is pinged; one that has not answered by the next ping is dropped. */
const KEEP_ALIVE_MS = 12_000;

/**
 * Bytes a socket may hold unsent before a send waits for its write. Below it, a send
 * returns at once and the subscriber's loop takes its next event; above it (a client that
 * reads slower than its events come), the loop waits for the socket to drain, and the
 * events meanwhile wait in the subscriber's pending list, which keeps every record's last
 * state (src/graphql/subscriptions.ts).
 */
export const SEND_HIGH_WATER = 64 * 1024;

/**
 * graphql-ws's server on the `ws` library's sockets: graphql-ws's own `use/ws` adapter
 * (which its docs offer as a starter to copy and adjust), with two changes. A send that
 * the socket can take without queueing much resolves at once, instead of after its write
 * completes: a promise and a write callback fewer for each event delivered, which is most
 * of what a delivery costs besides the write itself (docs/performance.md). Failures are
 * logged by the service's logger, and a socket that fails closes with 1011 and no details.
 */
export function serveSockets<E extends SocketExtra>(
  server: Server<E>,
  wss: WebSocketServer,
  extra: (socket: WebSocket, request: IncomingMessage) => E,
  logger: Logger,
  keepAliveMs = KEEP_ALIVE_MS,
): { upgrade: UpgradeHandler; dispose: () => Promise<void> } {
  wss.options.handleProtocols = handleProtocols;
  const internalError = (socket: WebSocket) => socket.close(CloseCode.InternalServerError, 'Internal server error');
  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    socket.once('error', (err) => {
      logger.error({ err }, 'graphql websocket failed');
      internalError(socket);
    });
    let answered = true;
    socket.on('pong', () => (answered = true));
    const keepAlive = setInterval(() => {
      if (!answered) {
        socket.terminate();
        return;
      }
      answered = false;
      socket.ping();
    }, keepAliveMs);
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) => {
          if (socket.readyState !== WebSocket.OPEN) return;
          if (socket.bufferedAmount < SEND_HIGH_WATER) {
            socket.send(data);
            return;
          }
          return new Promise<void>((resolve, reject) => socket.send(data, (err) => (err ? reject(err) : resolve())));
        },
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) => {
          const receive = async (message: string) => {
            try {
              await handle(message);
            } catch (err) {
              logger.error({ err }, 'graphql websocket message failed');
              internalError(socket);
            }
          };
          socket.on('message', (data) => void receive(String(data)));
        },
      },
      extra(socket, request),
    );
    socket.once('close', (code, reason) => {
      clearInterval(keepAlive);
      closed(code, String(reason)).catch((err: unknown) => logger.error({ err }, 'graphql websocket close failed'));
    });
  });
  return {
    upgrade: (req, connection, head) => wss.handleUpgrade(req, connection, head, (socket) => wss.emit('connection', socket, req)),
    dispose: async () => {
      for (const socket of wss.clients) socket.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
