import { createContext } from 'react';
import { cacheExchange, Client, fetchExchange, subscriptionExchange } from 'urql';
import { CloseCode, createClient as createWsClient } from 'graphql-ws';

const ENDPOINT = '/graphql';

/**
 * The signed-in key's `Authorization` header, for the requests outside GraphQL (a call's
 * recording, GET /v1/calls/{id}/recording): as for GraphQL, in a header, never in a URL.
 */
export const Authorization = createContext('');

/**
 * One urql client per signed-in key: queries and mutations over HTTP, subscriptions over
 * graphql-ws on the same path. The key travels as a bearer token in a header and in
 * `connection_init`: never in a URL or a cookie.
 */
export function createClient(key: string, onRefused: () => void): { client: Client; authorization: string; close(): void } {
  const authorization = `Bearer ${key}`;
  // The service answers 401 to a key it no longer accepts (revoked, or a JWT past its exp).
  const checked: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (res.status === 401) onRefused();
    return res;
  };
  const ws = createWsClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${ENDPOINT}`,
    connectionParams: { authorization },
    // Live lists re-read their state after a reconnect (news during it is lost: docs/graphql.md).
    retryAttempts: Infinity,
    // The socket outlives the last subscription a while: the next page's subscription (a call
    // opened from the calls list) then goes on the same socket. Without it, a subscription
    // started while the previous page's socket was closing was never sent, and the page never
    // updated.
    lazyCloseTimeout: 3_000,
    // The service closes a socket whose credential it stopped accepting with 4403 (Forbidden):
    // the key is checked once more over HTTP, whose 401 then signs out.
    on: {
      closed: (event) => {
        if ((event as CloseEvent).code === (CloseCode.Forbidden as number))
          void keyAccepted(key).then(
            (accepted) => accepted || onRefused(),
            () => undefined,
          );
      },
    },
  });
  const client = new Client({
    url: ENDPOINT,
    fetchOptions: { headers: { authorization } },
    fetch: checked,
    requestPolicy: 'cache-and-network',
    // POST only: a GET carries the operation in its (logged) URL, and the service's CSRF
    // prevention refuses GETs without a preflight-forcing header.
    preferGetMethod: false,
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query ?? '' };
          return { subscribe: (sink) => ({ unsubscribe: ws.subscribe(input, sink) }) };
        },
      }),
    ],
  });
  // Disposing a socket still connecting (a sign-out at that moment) rejects with its close
  // event: nothing is left to do with it.
  return { client, authorization, close: () => void Promise.resolve(ws.dispose()).catch(() => undefined) };
}

/** Checks a key with one tiny query: true when the service accepts it. */
export async function keyAccepted(key: string): Promise<boolean> {
  const res = await fetch(ENDPOINT, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query: '{ __typename }' }),
  });
  return res.status !== 401;
}
