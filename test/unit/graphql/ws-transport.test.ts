import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server, WebSocket as ProtocolSocket } from 'graphql-ws';
import { WebSocket, WebSocketServer } from 'ws';
import { createLogger } from '../../../src/logger';
import { type SocketExtra, serveSockets } from '../../../src/graphql/ws-transport';
import { waitFor } from '../../support/wait';

/**
 * The transport under graphql-ws: what it hands graphql-ws for each socket. A stand-in for
 * graphql-ws's server records that socket, so the test can send through it as graphql-ws
 * sends each event of a subscription.
 */
async function transport(keepAliveMs?: number) {
  let opened!: (socket: ProtocolSocket) => void;
  const sockets = new Promise<ProtocolSocket>((resolve) => (opened = resolve));
  const server: Server<SocketExtra> = {
    opened: (socket) => {
      opened(socket);
      return async () => undefined;
    },
  };
  const wss = new WebSocketServer({ noServer: true });
  const served = serveSockets(server, wss, (socket, request) => ({ socket, request }), createLogger('silent'), keepAliveMs);
  const httpServer = http.createServer();
  httpServer.on('upgrade', served.upgrade);
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  return {
    url,
    sockets,
    close: async () => {
      await served.dispose();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}

const MESSAGE = 'x'.repeat(16 * 1024);

it('takes sends at once while the socket keeps up, and makes them wait for the writes once a client stops reading', async () => {
  const t = await transport();
  const client = new WebSocket(t.url, 'graphql-transport-ws');
  const received: number[] = [];
  client.on('message', (data) => received.push(String(data).length));
  await new Promise((resolve) => client.once('open', resolve));
  const socket = await t.sockets;
  expect(socket.protocol).toBe('graphql-transport-ws');

  // A client that reads: every send is taken at once, nothing waits.
  for (let i = 0; i < 8; i++) expect(socket.send(MESSAGE)).toBeUndefined();
  await waitFor('the eight messages', async () => (received.length === 8 ? true : undefined));

  // A client that stops reading: once the kernel's buffers are full and more than 64 KiB
  // wait in the process, a send hands back the write to wait for.
  client.pause();
  let waiting: Promise<void> | void = undefined;
  for (let i = 0; i < 10_000 && !waiting; i++) {
    waiting = socket.send(MESSAGE);
    if (i % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
  }
  expect(waiting).toBeInstanceOf(Promise);
  let written = false;
  void (waiting as Promise<void>).then(() => (written = true));
  // No state to wait on (only the client reading completes the write): a pause shows it does not complete before.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(written).toBe(false);

  // The client reads again: the write completes, and every message arrived whole.
  client.resume();
  await waiting;
  expect(received.every((length) => length === MESSAGE.length)).toBe(true);
  client.close();
  await t.close();
});

it('pings each socket and drops one that has not answered by the next ping', async () => {
  const t = await transport(100);
  const open = async (options: { autoPong: boolean }) => {
    const client = new WebSocket(t.url, 'graphql-transport-ws', options);
    const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)));
    await new Promise((resolve) => client.once('open', resolve));
    return { client, closed };
  };
  const answering = await open({ autoPong: true });
  let pings = 0;
  answering.client.on('ping', () => pings++);
  const silent = await open({ autoPong: false });
  // Dropped without a closing handshake (1006 on the client's side) ...
  expect(await silent.closed).toBe(1006);
  // ... while the socket that answers stays open over several more pings.
  const before = pings;
  await waitFor('three more pings', async () => (pings >= before + 3 ? true : undefined));
  expect(answering.client.readyState).toBe(WebSocket.OPEN);
  answering.client.close();
  await t.close();
});
