import { GraphQLError } from 'graphql';
import type WebSocket from 'ws';

/**
 * Close code of a socket over its credential's limit of open sockets on a replica
 * (GRAPHQL_WS_MAX_SOCKETS_PER_CREDENTIAL). graphql-ws's own codes (4400-4429) say other
 * things, and its client reconnects after this one, with its back-off.
 */
export const TOO_MANY_SOCKETS = 4430;

/** Closes `socket`, opened past its credential's limit of sockets. */
export const refuseSocket = (socket: WebSocket): void => socket.close(TOO_MANY_SOCKETS, 'Too many connections');

/**
 * The subscriptions running on each socket, at most `max` (GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_SOCKET).
 * A slot is taken when a subscription is accepted, before it starts (so a burst of subscribe
 * messages cannot pass the limit while the first are being checked), and given back when it
 * ends, fails or is completed by the client; a socket's slots go with it.
 */
export class SubscriptionSlots {
  private readonly running = new WeakMap<WebSocket, number>();

  constructor(private readonly max: number) {}

  /** A slot on `socket`: its release (once, whoever calls it), or the error that refuses the subscription. */
  take(socket: WebSocket): (() => void) | GraphQLError {
    const running = this.running.get(socket) ?? 0;
    if (running >= this.max) {
      return new GraphQLError(`Too many subscriptions on this socket: at most ${this.max}`, { extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', maxSubscriptions: this.max } });
    }
    this.running.set(socket, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running.set(socket, (this.running.get(socket) ?? 1) - 1);
    };
  }
}
