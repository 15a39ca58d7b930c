import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The account the Twilio suites run with: our service and the fake share it (the token signs callbacks). */
export const TWILIO_SID = 'AC00000000000000000000000000000001';
export const TWILIO_TOKEN = 'twilio-test-auth-token';
/** PUBLIC_BASE_URL of the service under test: what Twilio would call, and sign. */
export const TWILIO_PUBLIC = 'https://switchboard.example.test';

export interface Received {
  method: string;
  path: string;
  auth: string;
  form: URLSearchParams;
}

export interface FakeTwilioOptions {
  /** The account's incoming phone numbers (E.164); unset: the account holds every number it is asked about. */
  numbers?: string[];
}

/**
 * A local stand-in for Twilio's REST API: records each request and answers like Twilio the
 * Calls API (create, update) and the list of the account's incoming phone numbers
 * (`GET IncomingPhoneNumbers.json?PhoneNumber=`, an exact filter).
 */
export function fakeTwilio({ numbers }: FakeTwilioOptions = {}): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '', 'http://fake-twilio');
      received.push({ method: req.method ?? '', path: req.url ?? '', auth: req.headers.authorization ?? '', form: new URLSearchParams(body) });
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET' && url.pathname.endsWith('/IncomingPhoneNumbers.json')) {
        res.end(JSON.stringify(incomingPhoneNumbers(url, numbers)));
        return;
      }
      const created = /\/Calls\.json$/.test(url.pathname);
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

/** One page of the account's numbers matching `PhoneNumber`, in Twilio's list shape. */
function incomingPhoneNumbers(url: URL, numbers: string[] | undefined) {
  const wanted = url.searchParams.get('PhoneNumber');
  const held = wanted === null ? (numbers ?? []) : !numbers || numbers.includes(wanted) ? [wanted] : [];
  const accountSid = url.pathname.split('/')[3];
  const uri = `${url.pathname}${url.search}`;
  return {
    first_page_uri: uri,
    end: Math.max(0, held.length - 1),
    incoming_phone_numbers: held.map((phoneNumber, i) => ({
      account_sid: accountSid,
      sid: `PN${String(i + 1).padStart(32, '0')}`,
      phone_number: phoneNumber,
      friendly_name: phoneNumber,
      capabilities: { voice: true, sms: true, mms: false, fax: false },
      status: 'in-use',
    })),
    next_page_uri: null,
    page: 0,
    page_size: 50,
    previous_page_uri: null,
    start: 0,
    uri,
  };
}
