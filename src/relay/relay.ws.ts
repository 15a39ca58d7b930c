import { WebSocketServer } from 'ws';
import type { Logger } from '../logger';
import { refuseUpgrade, type UpgradeHandler } from '../upgrades';
import type { RelayAdmission } from '../services/telephony/relay.service';
import { type RelayLimits, RelaySession } from './relay-session';

/** Largest message Twilio's relay sends is a prompt; 64 KiB is ample, and bounds a bad peer. */
const MAX_MESSAGE_BYTES = 64 * 1024;

/** Who may open a relay (RelayService): Twilio's signed handshake of a session URL not used before; null refuses it. */
export interface RelayGate {
  admit(pathAndQuery: string, signature: string): Promise<RelayAdmission | null>;
}

export const RELAY_LIMITS: RelayLimits = { maxMessages: 5_000, setupTimeoutMs: 10_000 };

/**
 * The Twilio ConversationRelay websocket: a handshake is accepted only with Twilio's valid
 * `X-Twilio-Signature` of a session URL whose token was not used before, for a call without
 * an open session (and only when conversations are on); anything else is answered 403 before
 * any message (503 when the session cannot be claimed: the database is down). Each accepted socket is a RelaySession. `close()` closes them all and
 * waits for their conversations to finish storing.
 */
export function relayWebSockets(relay: RelayGate, logger: Logger, limits: RelayLimits = RELAY_LIMITS): { upgrade: UpgradeHandler; close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const sessions = new Set<RelaySession>();
  let stopping = false;
  return {
    upgrade(req, socket, head) {
      if (stopping) {
        refuseUpgrade(socket, 503);
        return;
      }
      const signature = req.headers['x-twilio-signature'];
      void (typeof signature === 'string' ? relay.admit(req.url ?? '', signature) : Promise.resolve(null)).then(
        (admitted) => {
          if (!admitted) {
            logger.warn({ path: req.url?.split('?')[0] }, 'relay handshake refused: invalid signature, or its session URL used or expired');
            refuseUpgrade(socket, 403);
            return;
          }
          if (stopping) return void admitted.release().finally(() => refuseUpgrade(socket, 503));
          wss.handleUpgrade(req, socket, head, (ws) => {
            const session = new RelaySession(ws, admitted, limits, logger);
            sessions.add(session);
            void session.finished
              .then(() => admitted.release())
              .catch((err: unknown) => logger.warn({ err }, 'relay session not released; its call keeps it until its token expires'))
              .finally(() => sessions.delete(session));
          });
        },
        (err: unknown) => {
          logger.error({ err }, 'relay handshake not admitted: the session could not be claimed');
          refuseUpgrade(socket, 503);
        },
      );
    },
    async close() {
      stopping = true;
      // 1001 Going Away; Twilio ends the call's relay session and posts the action callback.
      await Promise.all(
        [...wss.clients].map(
          (client) =>
            new Promise<void>((resolve) => {
              const hard = setTimeout(() => client.terminate(), 2000);
              client.once('close', () => {
                clearTimeout(hard);
                resolve();
              });
              client.close(1001, 'server stopping');
            }),
        ),
      );
      // Their conversations store what they had before the database closes.
      await Promise.all([...sessions].map((session) => session.finished));
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
