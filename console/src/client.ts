import { createContext } from 'react';
import { cacheExchange, Client, fetchExchange, subscriptionExchange } from 'urql';
import { createClient as createWsClient } from 'graphql-ws';

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
export function createClient(key: string): { client: Client; authorization: string; close(): void } {
  const authorization = `Bearer ${key}`;
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
  });
  const client = new Client({
    url: ENDPOINT,
    fetchOptions: { headers: { authorization } },
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
  return { client, authorization, close: () => void ws.dispose() };
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
