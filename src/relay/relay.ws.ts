import { WebSocketServer } from 'ws';
import type { Logger } from '../logger';
import { refuseUpgrade, type UpgradeHandler } from '../upgrades';
import { type RelayConversations, type RelayLimits, RelaySession } from './relay-session';

/** Largest message Twilio's relay sends is a prompt; 64 KiB is ample, and bounds a bad peer. */
const MAX_MESSAGE_BYTES = 64 * 1024;

/** Who may open a relay (RelayService): Twilio's signed handshakes, then a live call's conversation. */
export interface RelayGate extends RelayConversations {
  acceptsHandshake(pathAndQuery: string, signature: string): boolean;
}

export const RELAY_LIMITS: RelayLimits = { maxMessages: 5_000, setupTimeoutMs: 10_000 };

/**
 * The Twilio ConversationRelay websocket: a handshake is accepted only with Twilio's valid
 * `X-Twilio-Signature` (and only when conversations are on); anything else is answered 403
 * before any message. Each accepted socket is a RelaySession. `close()` closes them all.
 */
export function relayWebSockets(relay: RelayGate, logger: Logger, limits: RelayLimits = RELAY_LIMITS): { upgrade: UpgradeHandler; close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  return {
    upgrade(req, socket, head) {
      const signature = req.headers['x-twilio-signature'];
      if (typeof signature !== 'string' || !relay.acceptsHandshake(req.url ?? '', signature)) {
        logger.warn({ url: req.url }, 'relay handshake refused: invalid Twilio signature');
        return refuseUpgrade(socket, 403);
      }
      wss.handleUpgrade(req, socket, head, (ws) => new RelaySession(ws, relay, limits, logger));
    },
    async close() {
      // 1001 Going Away; Twilio ends the call's relay session and posts the action callback.
      await Promise.all(
        [...wss.clients].map(
          (client) =>
            new Promise<void>((resolve) => {
              const hard = setTimeout(() => client.terminate(), 2000);
              client.once('close', () => resolve(clearTimeout(hard)));
              client.close(1001, 'server stopping');
            }),
        ),
      );
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
