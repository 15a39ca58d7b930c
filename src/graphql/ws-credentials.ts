import { CloseCode } from 'graphql-ws';
import type WebSocket from 'ws';
import type { Logger } from '../logger';
import type { AuthorizationValues, Credential } from '../services/auth.service';
import { UnauthenticatedError } from '../services/errors';

/**
 * The credentials a `connection_init` payload carries: `authorization` and `Authorization`
 * are both read, and both present is ambiguous (AuthService.verify refuses two values).
 * A value that is not a string counts, and fails as a bad credential.
 */
export function connectionAuthorization(params: Readonly<Record<string, unknown>> | undefined): AuthorizationValues {
  return ['authorization', 'Authorization'].filter((key) => params && Object.hasOwn(params, key)).map((key) => (typeof params![key] === 'string' ? (params![key] as string) : ''));
}

/** Closes `socket` as graphql-ws closes one refused at `connection_init`. */
export const forbid = (socket: WebSocket): void => socket.close(CloseCode.Forbidden, 'Forbidden');

export interface CredentialWatch {
  /** Asks the database again, past any cache; throws UnauthenticatedError when refused. */
  check(): Promise<Credential>;
  /** How often to check (AUTH_TRUST_S). */
  everyMs: number;
  logger: Logger;
}

/**
 * Keeps an open socket's credential valid for as long as the socket lives: a JWT's socket
 * is closed (4403) when its `exp` passes, by a timer set for that moment; every `everyMs`
 * the credential is checked again against the database, and a revoked API key (or a JWT
 * whose company is gone) closes the socket the same way. So a socket outlives its
 * credential by at most `everyMs`, and the events of its subscriptions stop with it. A
 * check failing for our own reasons (the database unreachable) is logged and tried again
 * at the next interval: the socket's operations and events need the database anyway.
 */
export function watchCredential(socket: WebSocket, credential: Credential, watch: CredentialWatch): void {
  let expiresAt = credential.expiresAt;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    const wait = Math.min(watch.everyMs, expiresAt === null ? Infinity : expiresAt - Date.now());
    timer = setTimeout(() => void recheck(), Math.max(0, wait));
    timer.unref();
  };
  const recheck = async () => {
    if (expiresAt !== null && Date.now() >= expiresAt) return forbid(socket);
    try {
      ({ expiresAt } = await watch.check());
    } catch (err) {
      if (err instanceof UnauthenticatedError) return forbid(socket);
      watch.logger.error({ err }, 'graphql websocket credential check failed');
    }
    if (socket.readyState === socket.OPEN) schedule();
  };
  socket.once('close', () => clearTimeout(timer));
  schedule();
}
