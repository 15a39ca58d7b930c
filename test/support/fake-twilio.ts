import http from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';

/** The account the Twilio suites run with: our service and the fake share it (the token signs callbacks). */
export const TWILIO_SID = 'AC00000000000000000000000000000001';
export const TWILIO_TOKEN = 'twilio-test-auth-token';
/** PUBLIC_BASE_URL of the service under test: what Twilio would call, and sign. */
export const TWILIO_PUBLIC = 'https://switchboard.example.test';

/** The settings of an app on the Twilio provider whose API is `fake`, under the test account. */
export const twilioProviderEnv = (fake: { url: string }): Record<string, string> => ({
  TELEPHONY_PROVIDER: 'twilio',
  TWILIO_API_BASE_URL: fake.url,
  TWILIO_ACCOUNT_SID: TWILIO_SID,
  TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
  PUBLIC_BASE_URL: TWILIO_PUBLIC,
});

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

export interface FakeTwilio {
  url: string;
  received: Received[];
  calls: FakeCall[];
  /** Recordings the fake holds, by RecordingSid: their `.wav` media. */
  recordings: Map<string, Buffer>;
  /** The Calls API request that created the call `callId` (its callback URLs carry `call_id`). */
  created(callId: string): Received;
  /**
   * Posts the asynchronous AMD result to the call's `AsyncAmdStatusCallback`, as Twilio does:
   * the URL given at creation, signed with the account's token (or `token`), parameters
   * AccountSid, CallSid, AnsweredBy and MachineDetectionDuration (ms).
   */
  amd(serviceUrl: string, callId: string, answeredBy: string, token?: string): Promise<Response>;
  /**
   * Posts the call's status callback (the `StatusCallback` given at creation), signed, as
   * Twilio does: AccountSid, CallSid, CallStatus, From, To, Direction and `extra`
   * (CallDuration...); the fake's call takes the status.
   */
  status(serviceUrl: string, callId: string, callStatus: string, extra?: Record<string, string>): Promise<Response>;
  /**
   * Runs the `<Dial>` of `twiml` (an action callback's answer) for the call, as Twilio's TwiML
   * reference describes it, the dialled party doing `outcome`: when it answers (`completed`),
   * a `<Number url>` is fetched first (POST, signed, for the new leg: its own CallSid, the
   * call's as ParentCallSid) and its TwiML read, as the person hears it before being connected;
   * then the `<Dial action>` is posted with DialCallStatus, DialCallSid, DialCallDuration and the
   * call's CallStatus (`completed` when `canceled`: the caller hung up while it rang).
   */
  dial(serviceUrl: string, callId: string, twiml: string, outcome: DialOutcome): Promise<DialRun>;
  /**
   * Completes a recording of the call: holds `media` as `RE....wav` and posts the call's
   * `RecordingStatusCallback` as Twilio does (RecordingSid, RecordingUrl without extension,
   * RecordingStatus, RecordingDuration, RecordingChannels, RecordingStartTime, RecordingSource).
   */
  completeRecording(serviceUrl: string, callId: string, media: Buffer, durationS: number): Promise<{ sid: string; res: Response }>;
  /** The callee answers: the call's `in-progress` status callback, posted and signed as Twilio does. */
  answer(serviceUrl: string, callId: string): Promise<Response>;
  /**
   * The callee hangs up during the call's ConversationRelay session (the test closes the relay
   * socket itself, as Twilio would): Twilio posts the `<Connect action>` of the call's TwiML
   * (no HandoffData, CallStatus `completed`, SessionStatus `ended`) and the `completed` status
   * callback, both signed; `statusFirst` posts them the other way round. Answers both responses.
   */
  calleeHangsUp(serviceUrl: string, callId: string, durationS: number, statusFirst?: boolean): Promise<{ action: Response; status: Response }>;
  close(): Promise<void>;
}

/** What the party a `<Dial>` rings does (Twilio's `DialCallStatus`). */
export type DialOutcome = 'completed' | 'no-answer' | 'busy' | 'failed' | 'canceled';

/** What a `<Dial>` run did: the number and ring time dialled, the whisper fetched (its TwiML), and the action's answer. */
export interface DialRun {
  number: string;
  timeout: string | null;
  whisper: { status: number; twiml: string } | null;
  action: { status: number; twiml: string };
}

const unescapeXml = (v: string) =>
  v
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const attribute = (tag: string, name: string) => {
  const value = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  return value === undefined ? null : unescapeXml(value);
};

/** The `<Dial>` of a TwiML: its attributes' tag, the `<Number>`'s tag (or none), and the number dialled. */
function dialIn(twiml: string): { dial: string; numberTag: string | null; number: string } {
  const m = /(<Dial\b[^>]*>)(?:(<Number\b[^>]*>)([^<]*)<\/Number>|([^<]*))<\/Dial>/.exec(twiml);
  if (!m) throw new Error(`no <Dial> in ${twiml}`);
  return { dial: m[1], numberTag: m[2] ?? null, number: unescapeXml((m[3] ?? m[4] ?? '').trim()) };
}

/** One range of `bytes=a-b` / `a-` / `-n` over `size` bytes; null for the whole. */
function byteRange(header: string | undefined, size: number): [number, number] | 'unsatisfiable' | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  const start = m[1] === '' ? Math.max(0, size - Number(m[2])) : Number(m[1]);
  const end = m[1] === '' || m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  return start >= size || start > end ? 'unsatisfiable' : [start, end];
}

/** The Recording resource: media `.wav`/`.mp3` with the account's Basic auth and `Range`, `DELETE` on `.json`. */
function recordingResource(req: http.IncomingMessage, res: http.ServerResponse, sid: string, recordings: Map<string, Buffer>): void {
  if (req.headers.authorization !== `Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString('base64')}`) return void res.writeHead(401).end();
  const media = recordings.get(sid);
  if (!media) {
    json(res, 404, { code: 20404, message: 'The requested resource was not found', status: 404 });
    return;
  }
  if (req.method === 'DELETE') {
    recordings.delete(sid);
    return void res.writeHead(204).end();
  }
  const range = byteRange(req.headers.range, media.length);
  if (range === 'unsatisfiable') return void res.writeHead(416, { 'content-range': `bytes */${media.length}` }).end();
  if (range === null) return void res.writeHead(200, { 'content-type': 'audio/x-wav', 'content-length': media.length, 'accept-ranges': 'bytes' }).end(media);
  const [start, end] = range;
  res.writeHead(206, { 'content-type': 'audio/x-wav', 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${media.length}` });
  res.end(media.subarray(start, end + 1));
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
 * IncomingPhoneNumbers.json?PhoneNumber=`, an exact filter). Recordings: the Recording
 * resource's media and DELETE. Callbacks: AMD, recording status and a callee's hang-up
 * (relay action and call status), posted and signed as Twilio does.
 */
export function fakeTwilio({ numbers }: FakeTwilioOptions = {}): Promise<FakeTwilio> {
  const received: Received[] = [];
  const calls: FakeCall[] = [];
  const recordings = new Map<string, Buffer>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '', 'http://fake-twilio');
      const method = req.method ?? 'GET';
      const form = new URLSearchParams(body);
      received.push({ method, path: req.url ?? '', auth: req.headers.authorization ?? '', form });
      const recording = /\/Recordings\/(RE\w+)\.(wav|mp3|json)$/.exec(url.pathname);
      if (recording) {
        recordingResource(req, res, recording[1], recordings);
        return;
      }
      if (method === 'GET' && url.pathname.endsWith('/IncomingPhoneNumbers.json')) {
        json(res, 200, incomingPhoneNumbers(url, numbers));
        return;
      }
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
        json(res, 201, call);
        return;
      }
      if (url.pathname.endsWith('/Calls.json')) {
        json(res, 200, callsPage(url, calls));
        return;
      }
      const sid = decodeURIComponent(/\/Calls\/([^/]+)\.json$/.exec(url.pathname)?.[1] ?? '');
      const call = calls.find((c) => c.sid === sid);
      // Incoming calls of the suites never went through this fake: an update of one is answered as done.
      if (!call && method === 'POST') {
        json(res, 200, { sid, status: form.get('Status') });
        return;
      }
      if (!call) {
        json(res, 404, { code: 20404, message: `The requested resource ${url.pathname} was not found`, more_info: 'https://www.twilio.com/docs/errors/20404', status: 404 });
        return;
      }
      if (method === 'POST' && form.has('Status')) call.status = form.get('Status')!;
      json(res, 200, call);
    });
  });
  const creates = () => received.filter((q) => q.method === 'POST' && q.path.endsWith('/Calls.json'));
  const created = (callId: string): Received => {
    const found = creates().find((q) => q.form.get('StatusCallback')?.endsWith(`call_id=${callId}`));
    if (!found) throw new Error(`no call created for ${callId}`);
    return found;
  };
  const sidOf = (create: Received) => calls[creates().indexOf(create)].sid;
  /** Posts `params` to the public `callbackUrl`, signed, at the service's local address. */
  const post = (serviceUrl: string, callbackUrl: string, params: Record<string, string>, token = TWILIO_TOKEN) => {
    const target = new URL(callbackUrl);
    return fetch(`${serviceUrl}${target.pathname}${target.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(token, callbackUrl, params) },
      body: new URLSearchParams(params).toString(),
    });
  };
  /** Posts the call's status callback, signed; the fake's call takes the status. */
  const statusCallback = (serviceUrl: string, callId: string, callStatus: string, extra: Record<string, string> = {}) => {
    const create = created(callId);
    const call = calls[creates().indexOf(create)];
    call.status = callStatus;
    const params = { AccountSid: TWILIO_SID, CallSid: call.sid, CallStatus: callStatus, From: call.from, To: call.to, Direction: 'outbound-api', ...extra };
    return post(serviceUrl, create.form.get('StatusCallback')!, params);
  };
  let recorded = 0;
  let dialled = 0;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({
        url: base,
        received,
        calls,
        recordings,
        created,
        amd(serviceUrl, callId, answeredBy, token) {
          const create = created(callId);
          const params = { AccountSid: TWILIO_SID, CallSid: sidOf(create), AnsweredBy: answeredBy, MachineDetectionDuration: '3120' };
          return post(serviceUrl, create.form.get('AsyncAmdStatusCallback')!, params, token);
        },
        status: statusCallback,
        async dial(serviceUrl, callId, twiml, outcome) {
          const create = created(callId);
          const parent = sidOf(create);
          const { dial, numberTag, number } = dialIn(twiml);
          const leg = `CA${String(++dialled).padStart(32, 'd')}`;
          const url = numberTag ? attribute(numberTag, 'url') : null;
          const common = { AccountSid: TWILIO_SID, From: create.form.get('From') ?? '', To: number, Direction: 'outbound-dial' };
          const whisper =
            outcome === 'completed' && url
              ? await post(serviceUrl, url, { ...common, CallSid: leg, ParentCallSid: parent, CallStatus: 'in-progress' }).then(async (res) => ({ status: res.status, twiml: await res.text() }))
              : null;
          const action = attribute(dial, 'action');
          if (!action) throw new Error(`the <Dial> of ${callId} has no action`);
          const res = await post(serviceUrl, action, {
            ...common,
            To: create.form.get('To') ?? '',
            Direction: 'outbound-api',
            CallSid: parent,
            CallStatus: outcome === 'canceled' ? 'completed' : 'in-progress',
            DialCallStatus: outcome,
            DialCallSid: leg,
            DialCallDuration: outcome === 'completed' ? '42' : '0',
          });
          return { number, timeout: attribute(dial, 'timeout'), whisper, action: { status: res.status, twiml: await res.text() } };
        },
        async completeRecording(serviceUrl, callId, media, durationS) {
          const create = created(callId);
          const sid = `RE${String(++recorded).padStart(32, '0')}`;
          recordings.set(sid, media);
          const params = {
            AccountSid: TWILIO_SID,
            CallSid: sidOf(create),
            RecordingSid: sid,
            RecordingUrl: `${base}/2010-04-01/Accounts/${TWILIO_SID}/Recordings/${sid}`,
            RecordingStatus: 'completed',
            RecordingDuration: String(durationS),
            RecordingChannels: create.form.get('RecordingChannels') === 'dual' ? '2' : '1',
            RecordingStartTime: new Date().toUTCString().replace('GMT', '+0000'),
            RecordingSource: 'OutboundAPI',
          };
          return { sid, res: await post(serviceUrl, create.form.get('RecordingStatusCallback')!, params) };
        },
        answer: (serviceUrl, callId) => statusCallback(serviceUrl, callId, 'in-progress'),
        async calleeHangsUp(serviceUrl, callId, durationS, statusFirst = false) {
          const create = created(callId);
          const call = calls[creates().indexOf(create)];
          call.status = 'completed';
          call.duration = String(durationS);
          const common = { AccountSid: TWILIO_SID, CallSid: call.sid, CallStatus: 'completed', From: call.from, To: call.to, Direction: 'outbound-api' };
          const action = /<Connect action="([^"]+)"/.exec(create.form.get('Twiml') ?? '')?.[1]?.replace(/&amp;/g, '&');
          if (!action) throw new Error(`the TwiML of ${callId} has no <Connect action>`);
          const postAction = () => post(serviceUrl, action, { ...common, SessionId: 'VX00000000000000000000000000000001', SessionStatus: 'ended', SessionDuration: String(durationS) });
          const postStatus = () => post(serviceUrl, create.form.get('StatusCallback')!, { ...common, CallDuration: String(durationS) });
          if (statusFirst) {
            const status = await postStatus();
            return { status, action: await postAction() };
          }
          const actionRes = await postAction();
          return { action: actionRes, status: await postStatus() };
        },
        close: () => new Promise((r) => server.close(() => r())),
      });
    }),
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
