import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

const SUBSCRIPTION = 'subscription { callStatusChanged { id updatedAt } }';

type Payload = { callStatusChanged: { id: string; updatedAt: string } };

export interface Subscribers {
  /** Resolves once every subscriber has received an event for which `seen` holds. */
  allReceived(seen: (p: Payload['callStatusChanged']) => boolean, timeoutMs: number): Promise<void>;
  /** Starts recording deliveries: delay from the transition's `updatedAt` to receipt. */
  record(): void;
  /** How many deliveries arrived so far, recorded or not. */
  received(): number;
  /** The delays (ms) recorded so far, and how many deliveries failed. */
  results(): { delays: number[]; errors: number };
  close(): Promise<void>;
}

/**
 * `count` graphql-ws clients of one company, each with its own websocket and one
 * `callStatusChanged` subscription (all its calls). Connects them 50 at a time.
 */
export async function subscribe(url: string, apiKey: string, count: number): Promise<Subscribers> {
  const wsUrl = `${url.replace(/^http/, 'ws')}/graphql`;
  const clients: Client[] = [];
  const last: Payload['callStatusChanged'][][] = [];
  let recording = false;
  let errors = 0;
  let received = 0;
  const delays: number[] = [];
  let check: (() => void) | null = null;
  for (let i = 0; i < count; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, async (_, j) => {
        const index = i + j;
        last[index] = [];
        const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${apiKey}` }, retryAttempts: 0, lazy: false });
        clients.push(client);
        await new Promise<void>((resolve, reject) => {
          client.on('connected', () => resolve());
          client.on('closed', (event) => reject(new Error(`subscriber ${index} closed: ${(event as { code?: number }).code}`)));
        });
        client.subscribe<Payload>(
          { query: SUBSCRIPTION },
          {
            next: ({ data, errors: failed }) => {
              const at = Date.now();
              received += 1;
              if (failed || !data) {
                errors += 1;
                return;
              }
              const call = data.callStatusChanged;
              if (recording) {
                delays.push(at - Date.parse(call.updatedAt));
              } else {
                last[index]!.push(call);
                check?.();
              }
            },
            error: () => {
              errors += 1;
            },
            complete: () => undefined,
          },
        );
      }),
    );
  }
  return {
    allReceived(seen, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          check = null;
          const missing = last.filter((calls) => !calls.some(seen)).length;
          reject(new Error(`${missing} of ${count} subscribers received nothing within ${timeoutMs} ms`));
        }, timeoutMs);
        check = () => {
          if (!last.every((calls) => calls.some(seen))) return;
          check = null;
          clearTimeout(timer);
          resolve();
        };
        check();
      });
    },
    record() {
      recording = true;
    },
    received: () => received,
    results() {
      return { delays, errors };
    },
    async close() {
      await Promise.all(clients.map((c) => c.dispose()));
    },
  };
}
