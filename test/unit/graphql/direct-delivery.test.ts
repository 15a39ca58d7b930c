import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { DirectDelivery, SocketSubscription } from '../../../src/graphql/direct-delivery';
import { createLogger } from '../../../src/logger';
import { waitFor as waitUntil } from '../../support/wait';

/** `count` real websocket pairs on 127.0.0.1: the server's end of each, and what each client received (parsed). */
async function sockets(count: number) {
  const wss = new WebSocketServer({ noServer: true });
  const server = http.createServer();
  const accepted: WebSocket[] = [];
  server.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => accepted.push(ws)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clients = await Promise.all(
    Array.from({ length: count }, async () => {
      const client = new WebSocket(url);
      const received: any[] = [];
      client.on('message', (data) => received.push(JSON.parse(String(data))));
      await new Promise((resolve) => client.once('open', resolve));
      return { client, received };
    }),
  );
  await waitFor(() => accepted.length === count);
  return {
    ends: accepted,
    clients,
    close: async () => {
      for (const { client } of clients) client.terminate();
      wss.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const waitFor = (done: () => boolean) => waitUntil('a condition on the sockets', async () => (done() ? true : undefined), 10_000);

/** Written straight to a socket: once a client has it, whatever was written before has arrived. */
const MARKER = { marker: true };

const event = (callId: string) => ({ companyId: 'c', callId, campaignId: null, workspace: 'w' });

it("runs each event once per operation, writes each socket its own id, and keeps the events' order whatever order their executions end", async () => {
  const t = await sockets(3);
  const delivery = new DirectDelivery(createLogger('silent'));
  const [a, b, other] = t.ends.map((socket, i) => new SocketSubscription(socket, `op-${i}`));
  const runs: string[] = [];
  const ended: string[] = [];
  let release!: () => void;
  const slow = new Promise<void>((resolve) => (release = resolve));
  const run = (name: string, wait: Promise<void>) => async () => {
    runs.push(name);
    await wait;
    ended.push(name);
    return { data: { name } };
  };
  const first = event('a');
  const second = event('b');
  // As the bus does: each event to every subscriber, one after the other.
  for (const [s, key] of [
    [a, 'k'],
    [b, 'k'],
    [other, 'other'],
  ] as const)
    delivery.deliver(key, first, 'a', s, run(`${key}:first`, slow), JSON.stringify);
  for (const [s, key] of [
    [a, 'k'],
    [b, 'k'],
    [other, 'other'],
  ] as const)
    delivery.deliver(key, second, 'b', s, run(`${key}:second`, Promise.resolve()), JSON.stringify);

  // The second event's executions end first; nothing is written before the first's: a
  // marker written to each socket after they ended arrives first, so nothing came before it.
  await waitFor(() => ended.includes('k:second') && ended.includes('other:second'));
  for (const end of t.ends) end.send(JSON.stringify(MARKER));
  await waitFor(() => t.clients.every((c) => c.received.length > 0));
  expect(t.clients.map((c) => c.received)).toEqual([[MARKER], [MARKER], [MARKER]]);
  for (const c of t.clients) c.received.length = 0;
  release();
  await waitFor(() => t.clients.every((c) => c.received.length === 2));
  const next = (id: string, name: string) => ({ id, type: 'next', payload: { data: { name } } });
  expect(t.clients[0].received).toEqual([next('op-0', 'k:first'), next('op-0', 'k:second')]);
  expect(t.clients[1].received).toEqual([next('op-1', 'k:first'), next('op-1', 'k:second')]);
  expect(t.clients[2].received).toEqual([next('op-2', 'other:first'), next('op-2', 'other:second')]);
  // One execution per event and operation, not one per subscriber.
  expect(runs.sort()).toEqual(['k:first', 'k:second', 'other:first', 'other:second']);
  await t.close();
});

it("holds the messages of a client that stops reading, keeps each record's last one, and writes them in order when it reads again", async () => {
  const t = await sockets(1);
  const subscription = new SocketSubscription(t.ends[0], 'op');
  const { client, received } = t.clients[0];
  client.pause();
  const pad = 'x'.repeat(16 * 1024);
  const total = 3000;
  // 50 records, each with many states: far more than the kernel and 64 KiB of the process hold.
  for (let n = 0; n < total; n++) {
    subscription.send({ record: `r${n % 50}`, payload: JSON.stringify({ n, pad }) });
    if (n % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
  }
  client.resume();
  const lastStates = Array.from({ length: 50 }, (_, r) => total - 50 + r);
  await waitFor(() => lastStates.every((n) => received.some((m) => m.payload.n === n)));
  // A last state sent now arrives after anything the subscription still held.
  subscription.send({ record: 'marker', payload: JSON.stringify({ n: total, pad }) });
  await waitFor(() => received.at(-1)?.payload.n === total);
  received.pop();
  const seen = received.map((m) => m.payload.n as number);
  // Some intermediate states made room (the client was far behind) ...
  expect(seen.length).toBeLessThan(total);
  // ... in the order sent, each once, every record's last state among them.
  expect(seen).toEqual([...seen].sort((x, y) => x - y));
  expect(new Set(seen).size).toBe(seen.length);
  expect(seen.slice(-50)).toEqual(lastStates);
  expect(received.every((m) => m.id === 'op' && m.type === 'next' && m.payload.pad === pad)).toBe(true);
  await t.close();
});

it('writes nothing once the subscription has ended', async () => {
  const t = await sockets(1);
  const subscription = new SocketSubscription(t.ends[0], 'op');
  subscription.send({ record: 'a', payload: '{"n":1}' });
  subscription.end();
  subscription.send({ record: 'a', payload: '{"n":2}' });
  // Written to the socket after the ignored send, a marker arrives right after the first message.
  t.ends[0].send(JSON.stringify(MARKER));
  await waitFor(() => t.clients[0].received.length === 2);
  expect(t.clients[0].received).toEqual([{ id: 'op', type: 'next', payload: { n: 1 } }, MARKER]);
  await t.close();
});

it('closes the sockets of an event that fails (its execution or its encoding: 1011), and goes on with the next event', async () => {
  const t = await sockets(3);
  const delivery = new DirectDelivery(createLogger('silent'));
  const [unread, unencoded, fine] = t.ends.map((socket, i) => new SocketSubscription(socket, `op-${i}`));
  const closed = (i: number) => new Promise<number>((resolve) => t.clients[i].client.once('close', (code) => resolve(code)));
  const closes = [closed(0), closed(1)];
  const encode = (result: object) => {
    if ('data' in result && (result.data as { boom?: boolean }).boom) throw new Error('cannot encode');
    return JSON.stringify(result);
  };
  delivery.deliver('k', event('a'), 'a', unread, () => Promise.reject(new Error('read failed')), encode);
  delivery.deliver('k', event('b'), 'b', unencoded, () => ({ data: { boom: true } }), encode);
  delivery.deliver('k', event('c'), 'c', fine, () => ({ data: { ok: true } }), encode);
  expect(await Promise.all(closes)).toEqual([1011, 1011]);
  await waitFor(() => t.clients[2].received.length === 1);
  expect(t.clients[2].received).toEqual([{ id: 'op-2', type: 'next', payload: { data: { ok: true } } }]);
  await t.close();
});
