import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { TestApp } from '../support/harness';

export interface GraphQLResponse<T = any> {
  status: number;
  data: T;
  errors?: { message: string; path?: string[]; extensions: Record<string, any> }[];
  headers: Headers;
}

/** POST /graphql over real HTTP. */
export async function gql<T = any>(t: TestApp, query: string, variables: Record<string, unknown> = {}, token?: string | null): Promise<GraphQLResponse<T>> {
  const res = await t.request('POST', '/graphql', { token: token ?? null, body: { query, variables } });
  return { status: res.status, data: res.body?.data, errors: res.body?.errors, headers: res.headers };
}

/** A successful operation's data; fails the test with the errors otherwise. */
export async function gqlData<T = any>(t: TestApp, query: string, variables: Record<string, unknown>, token: string): Promise<T> {
  const res = await gql<T>(t, query, variables, token);
  expect(res.errors).toBeUndefined();
  expect(res.status).toBe(200);
  return res.data;
}

/** The first error's code and fields. */
export const firstError = (res: GraphQLResponse) => res.errors?.[0]?.extensions;

/** A graphql-ws client (graphql-transport-ws) that authenticates with `token` in connection_init. */
export function wsClient(t: TestApp, token: string | null, key = 'authorization'): Client {
  return createClient({
    url: `${t.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token === null ? {} : { [key]: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: true,
  });
}

/**
 * A live subscription: `next()` resolves with the next payload (each one pushed by the
 * server wakes the waiting promise; no polling, no sleeps), `ready` once the server has
 * acknowledged the connection and registered the operation.
 */
export interface Subscription<T> {
  next(): Promise<T>;
  received: T[];
  close(): void;
}

export function subscribe<T = any>(client: Client, query: string, variables: Record<string, unknown> = {}): Subscription<T> {
  const received: T[] = [];
  const waiting: { resolve: (v: T) => void; reject: (e: unknown) => void }[] = [];
  let consumed = 0;
  let failure: unknown = null;
  const dispose = client.subscribe<T>(
    { query, variables },
    {
      next: (value) => {
        if (value.errors) failure = value.errors;
        received.push(value.data as T);
        if (waiting.length > 0) waiting.shift()!.resolve(received[consumed++]!);
      },
      error: (err) => {
        failure = err;
        for (const w of waiting.splice(0)) w.reject(err);
      },
      complete: () => undefined,
    },
  );
  return {
    received,
    next() {
      if (failure) return Promise.reject(failure);
      if (consumed < received.length) return Promise.resolve(received[consumed++]!);
      return new Promise<T>((resolve, reject) => waiting.push({ resolve, reject }));
    },
    close: dispose,
  };
}
