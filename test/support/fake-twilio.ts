import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The account the Twilio suites run with: our service and the fake share it (the token signs callbacks). */
export const TWILIO_SID = 'AC00000000000000000000000000000001';
export const TWILIO_TOKEN = 'twilio-test-auth-token';
/** PUBLIC_BASE_URL of the service under test: what Twilio would call, and sign. */
export const TWILIO_PUBLIC = 'https://switchboard.example.test';

export interface Received {
  path: string;
  auth: string;
  form: URLSearchParams;
}

/** A local stand-in for Twilio's Calls API: records each request, answers like Twilio. */
export function fakeTwilio(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', auth: req.headers.authorization ?? '', form: new URLSearchParams(body) });
      res.setHeader('content-type', 'application/json');
      const created = /\/Calls\.json$/.test(req.url ?? '');
      res.end(JSON.stringify({ sid: created ? `CA${String(++n).padStart(32, '0')}` : 'CAexisting', status: created ? 'queued' : 'canceled' }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        received,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}
