import net from 'node:net';
import { createLogger } from '../../../src/logger';
import { startTestApp, type TestApp } from '../../support/harness';

/** Every line the service logs. */
const written: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({}, { logger: createLogger('info', { destination: { write: (line: string) => written.push(line) } }) });
});
afterAll(() => t.close());

/** Sends `raw` bytes on a fresh connection and resolves with everything the server wrote before closing it. */
function rawRequest(raw: string): Promise<string> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(raw));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

function parse(answer: string): { status: number; headers: string; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head, body: JSON.parse(body) };
}

describe('requests the HTTP parser refuses', () => {
  it.each([
    ['a URL over 16 KiB', `GET /v1/campaigns/list?x=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, 'Request line and headers too large (limit 16 KiB)'],
    ['headers over 16 KiB', `GET /v1/campaigns/list HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`, 431, 'Request line and headers too large (limit 16 KiB)'],
    ['a malformed request line', 'GET /v1/campaigns/list HTTP/1.1 extra\r\nHost: x\r\n\r\n', 400, 'Malformed HTTP request'],
    ['a bad Content-Length', 'POST /v1/contacts HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n', 400, 'Malformed HTTP request'],
    [
      'both Content-Length and Transfer-Encoding',
      'POST /v1/contacts HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
      400,
      'Malformed HTTP request',
    ],
  ])('answers %s in the envelope with its status', async (_name, raw, status, message) => {
    const answer = parse(await rawRequest(raw));
    expect(answer.status).toBe(status);
    expect(answer.headers).toMatch(/\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
    expect(answer.body).toEqual({ status: 'error', message, data: '' });
    const requestId = /\r\nx-request-id: (\S+)/i.exec(answer.headers)?.[1];
    const logged = written.map((line) => JSON.parse(line)).find((line) => line.request_id === requestId);
    expect(logged).toMatchObject({ level: 30, msg: 'request refused by the HTTP parser', status });
  });

  it('keeps serving other connections', async () => {
    expect((await t.request('GET', '/healthz')).status).toBe(200);
  });
});
