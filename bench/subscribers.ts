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
 * `count` subscribers of one company, each with its own websocket and one
 * `callStatusChanged` subscription (all its calls). Connects them 50 at a time. Each is a
 * plain `ws` socket speaking graphql-transport-ws (connection_init, subscribe, then next
 * messages; a ping is answered): the load generator shares the machine's two cores with
 * the service, and 1,000 graphql-ws clients in this one process took 67-69% of a core
 * where these take 57% (docs/performance.md).
 */
export async function subscribe(url: string, apiKey: string, count: number): Promise<Subscribers> {
  const wsUrl = `${url.replace(/^http/, 'ws')}/graphql`;
  const sockets: WebSocket[] = [];
  const last: Payload['callStatusChanged'][][] = [];
  let recording = false;
  let errors = 0;
  let received = 0;
  const delays: number[] = [];
  let check: (() => void) | null = null;
  const onNext = (index: number, payload: { data?: Payload | null; errors?: unknown }) => {
    const at = Date.now();
    received += 1;
    if (payload.errors || !payload.data) {
      errors += 1;
      return;
    }
    const call = payload.data.callStatusChanged;
    if (recording) {
      delays.push(at - Date.parse(call.updatedAt));
    } else {
      last[index].push(call);
      check?.();
    }
  };
  for (let i = 0; i < count; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, (_, j) => {
        const index = i + j;
        last[index] = [];
        const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
        sockets.push(socket);
        return new Promise<void>((resolve, reject) => {
          socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${apiKey}` } })));
          socket.on('close', (code) => reject(new Error(`subscriber ${index} closed: ${code}`)));
          socket.on('error', reject);
          socket.on('message', (data) => {
            const message = JSON.parse(String(data)) as { type: string; payload?: { data?: Payload | null; errors?: unknown } };
            if (message.type === 'next') onNext(index, message.payload!);
            else if (message.type === 'connection_ack') {
              socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: SUBSCRIPTION } }));
              resolve();
            } else if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
            else if (message.type === 'error') errors += 1;
          });
        });
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
      await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<void>((resolve) => {
              socket.removeAllListeners('close');
              socket.once('close', () => resolve());
              socket.close(1000);
            }),
        ),
      );
    },
  };
}
