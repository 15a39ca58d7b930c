import { CloseCode } from 'graphql-ws';
import type WebSocket from 'ws';
import type { Logger } from '../logger';
import type { AuthorizationValues, Credential } from '../services/auth/auth.service';
import { UnauthenticatedError } from '../services/shared/errors';

/**
 * The credentials a `connection_init` payload carries: `authorization` and `Authorization`
 * are both read, and both present is ambiguous (AuthService.verify refuses two values).
 * A value that is not a string counts, and fails as a bad credential.
 */
export function connectionAuthorization(params: Readonly<Record<string, unknown>> | undefined): AuthorizationValues {
  return ['authorization', 'Authorization'].filter((key) => params && Object.hasOwn(params, key)).map((key) => (typeof params![key] === 'string' ? params![key] : ''));
}

/** Closes `socket` as graphql-ws closes one refused at `connection_init`. */
export const forbid = (socket: WebSocket): void => socket.close(CloseCode.Forbidden, 'Forbidden');

export interface CredentialWatchOptions {
  /** Asks the database again, past any cache; throws UnauthenticatedError when refused. */
  check(authorization: AuthorizationValues): Promise<Credential>;
  /** How often to check (AUTH_TRUST_S). */
  everyMs: number;
  /** Most sockets one credential may hold open on this replica (GRAPHQL_WS_MAX_SOCKETS_PER_CREDENTIAL). */
  maxSockets: number;
  logger: Logger;
}

/** The open sockets of one credential on this replica, and its one timer. */
interface Watch {
  authorization: AuthorizationValues;
  sockets: Set<WebSocket>;
  expiresAt: number | null;
  timer?: NodeJS.Timeout;
}

/**
 * Keeps open sockets' credentials valid for as long as the sockets live, with one watch per
 * credential on this replica however many sockets share it (a dashboard's tabs, a fleet of
 * subscribers on one API key): a JWT's sockets are closed (4403) when its `exp` passes, by a
 * timer set for that moment; every `everyMs` the credential is checked again against the
 * database, once for all its sockets, and a revoked API key (or a JWT whose company is
 * gone) closes every one of them the same way. So a socket outlives its credential by at
 * most `everyMs`, and the events of its subscriptions stop with it. A check failing for our
 * own reasons (the database unreachable) is logged and tried again at the next interval: the
 * sockets' operations and events need the database anyway.
 */
export class CredentialWatches {
  private readonly watches = new Map<string, Watch>();

  constructor(private readonly options: CredentialWatchOptions) {}

  /**
   * Watches `socket`, opened with `authorization`, verified as `credential`, until it closes.
   * False, and nothing watched, when the credential already holds `maxSockets` open here.
   */
  add(socket: WebSocket, authorization: AuthorizationValues, credential: Credential): boolean {
    const key = JSON.stringify(authorization);
    let watch = this.watches.get(key);
    if (watch && watch.sockets.size >= this.options.maxSockets) return false;
    if (!watch) {
      watch = { authorization, sockets: new Set(), expiresAt: credential.expiresAt };
      this.watches.set(key, watch);
      this.schedule(key, watch);
    }
    const joined = watch;
    joined.sockets.add(socket);
    socket.once('close', () => {
      joined.sockets.delete(socket);
      if (joined.sockets.size === 0 && this.watches.get(key) === joined) this.end(key, joined);
    });
    return true;
  }

  private schedule(key: string, watch: Watch): void {
    const wait = Math.min(this.options.everyMs, watch.expiresAt === null ? Infinity : watch.expiresAt - Date.now());
    watch.timer = setTimeout(() => void this.recheck(key, watch), Math.max(0, wait));
    watch.timer.unref();
  }

  private async recheck(key: string, watch: Watch): Promise<void> {
    if (watch.expiresAt !== null && Date.now() >= watch.expiresAt) {
      this.refuse(key, watch);
      return;
    }
    try {
      ({ expiresAt: watch.expiresAt } = await this.options.check(watch.authorization));
    } catch (err) {
      if (err instanceof UnauthenticatedError) {
        this.refuse(key, watch);
        return;
      }
      this.options.logger.error({ err }, 'graphql websocket credential check failed');
    }
    if (this.watches.get(key) === watch) this.schedule(key, watch);
  }

  /** Stops watching: the last socket closed, or the credential is refused. */
  private end(key: string, watch: Watch): void {
    clearTimeout(watch.timer);
    this.watches.delete(key);
  }

  private refuse(key: string, watch: Watch): void {
    this.end(key, watch);
    for (const socket of watch.sockets) forbid(socket);
  }
}
