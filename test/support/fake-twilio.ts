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

/** A call the fake created, as Twilio's Call resource shows it (the fields we read; a test may change `status`). */
export interface FakeCall {
  sid: string;
  to: string;
  from: string;
  status: string;
  direction: 'outbound-api';
  /** RFC 2822, as Twilio writes dates. */
  date_created: string;
  start_time: string | null;
  duration: string | null;
  answered_by: string | null;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

/**
 * A local stand-in for Twilio's REST API: records each request and answers like Twilio.
 * Calls: `POST Calls.json` creates a call (`queued`), `GET Calls.json` lists them newest first
 * (filters `To`, `From`, `StartTime>=` by date, `PageSize`), `GET Calls/{sid}.json` fetches one
 * (404 as Twilio's error for an unknown sid), `POST Calls/{sid}.json` updates it (`Status`).
 * Numbers: the list of the account's incoming phone numbers (`GET
 * IncomingPhoneNumbers.json?PhoneNumber=`, an exact filter).
 */
export function fakeTwilio({ numbers }: FakeTwilioOptions = {}): Promise<{ url: string; received: Received[]; calls: FakeCall[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const calls: FakeCall[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '', 'http://fake-twilio');
      const method = req.method ?? 'GET';
      const form = new URLSearchParams(body);
      received.push({ method, path: req.url ?? '', auth: req.headers.authorization ?? '', form });
      if (method === 'GET' && url.pathname.endsWith('/IncomingPhoneNumbers.json')) return json(res, 200, incomingPhoneNumbers(url, numbers));
      if (url.pathname.endsWith('/Calls.json') && method === 'POST') {
        const call: FakeCall = {
          sid: `CA${String(calls.length + 1).padStart(32, '0')}`,
          to: form.get('To') ?? '',
          from: form.get('From') ?? '',
          status: 'queued',
          direction: 'outbound-api',
          date_created: new Date().toUTCString().replace('GMT', '+0000'),
          start_time: null,
          duration: null,
          answered_by: null,
        };
        calls.push(call);
        return json(res, 201, call);
      }
      if (url.pathname.endsWith('/Calls.json')) return json(res, 200, callsPage(url, calls));
      const sid = decodeURIComponent(/\/Calls\/([^/]+)\.json$/.exec(url.pathname)?.[1] ?? '');
      const call = calls.find((c) => c.sid === sid);
      // Incoming calls of the suites never went through this fake: an update of one is answered as done.
      if (!call && method === 'POST') return json(res, 200, { sid, status: form.get('Status') });
      if (!call) return json(res, 404, { code: 20404, message: `The requested resource ${url.pathname} was not found`, more_info: 'https://www.twilio.com/docs/errors/20404', status: 404 });
      if (method === 'POST' && form.has('Status')) call.status = form.get('Status')!;
      return json(res, 200, call);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        received,
        calls,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

/** One page of the calls matching `To`, `From` and `StartTime>=` (a date), newest first, in Twilio's list shape. */
function callsPage(url: URL, calls: FakeCall[]) {
  const q = url.searchParams;
  const day = (d: string) => new Date(d).toISOString().slice(0, 10);
  const listed = calls
    .filter((c) => (!q.has('To') || c.to === q.get('To')) && (!q.has('From') || c.from === q.get('From')))
    .filter((c) => !q.has('StartTime>') || (c.start_time !== null && day(c.start_time) >= q.get('StartTime>')!.replace(/^=/, '')))
    .reverse()
    .slice(0, Number(q.get('PageSize') ?? 50));
  const uri = `${url.pathname}${url.search}`;
  return { calls: listed, page: 0, page_size: listed.length, start: 0, end: Math.max(0, listed.length - 1), uri, first_page_uri: uri, next_page_uri: null, previous_page_uri: null };
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
