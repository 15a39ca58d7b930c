import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { TestApp } from '../../support/harness';

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
export function wsClient(t: Pick<TestApp, 'url'>, token: string | null, key = 'authorization'): Client {
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
 * server wakes the waiting promise; no polling, no sleeps).
 */
export interface Subscription<T> {
  next(): Promise<T>;
  received: T[];
  close(): void;
}

/** Runs one query over the client's socket and resolves with its result. */
export function query<T = any>(client: Client, text: string, variables: Record<string, unknown> = {}): Promise<{ data?: T; errors?: any[] }> {
  return new Promise((resolve, reject) => {
    let result: { data?: T; errors?: any[] } = {};
    client.subscribe<T>({ query: text, variables }, { next: (v) => (result = v as never), error: reject, complete: () => resolve(result) });
  });
}

/**
 * Subscribes, then resolves once the server has registered the subscription: the server
 * handles a socket's messages in order and registers a subscription without I/O, so when
 * a query sent after it (which reads the database) has answered, events reach it.
 */
export async function subscribe<T = any>(client: Client, text: string, variables: Record<string, unknown> = {}): Promise<Subscription<T>> {
  const subscription = listen<T>(client, text, variables);
  await query(client, '{ phoneNumbers { id } }');
  return subscription;
}

/** Resolves with the close event's code once the server closes the client's socket. */
export function closeCode(client: Client): Promise<number> {
  return new Promise((resolve) => {
    client.on('closed', (event) => resolve((event as { code: number }).code));
    client.subscribe({ query: '{ phoneNumbers { id } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
  });
}

function listen<T>(client: Client, query: string, variables: Record<string, unknown>): Subscription<T> {
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
        if (waiting.length > 0) waiting.shift()!.resolve(received[consumed++]);
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
      if (consumed < received.length) return Promise.resolve(received[consumed++]);
      return new Promise<T>((resolve, reject) => waiting.push({ resolve, reject }));
    },
    close: dispose,
  };
}
