import { Readable } from 'node:stream';
import twilio from 'twilio';
import type { CallStatus } from '../../entities/call.entity';
import type { ConversationOpening } from '../conversation/conversation';
import { NotFoundError } from '../shared/errors';
import { storableInstant } from '../shared/common.input';
import { conversationRelayTwiml } from './conversation-relay';
import { mintRelayToken, readRelayToken } from './relay-token';
import type { PlaceRequest, RecordingMedia, StatusUpdate, TelephonyAdapter } from './telephony';

/** Our Twilio callback routes (src/rest/telephony.routes.ts), under PUBLIC_BASE_URL. */
export const TWILIO_STATUS_PATH = '/v1/telephony/twilio/status';
export const TWILIO_AMD_PATH = '/v1/telephony/twilio/amd';
export const TWILIO_RECORDING_PATH = '/v1/telephony/twilio/recording';

export interface TwilioOptions {
  /** https://api.twilio.com, or a compatible API (tests run a local fake). */
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** PUBLIC_BASE_URL: our callback routes (status, AMD, recording) as Twilio calls (and signs) them. */
  publicBaseUrl: string;
  /**
   * PUBLIC_BASE_URL when calls carry their agent's conversation (a language model is
   * configured): the call's TwiML connects it to our ConversationRelay websocket. Null:
   * the line is only held open, as before conversations existed.
   */
  relayBaseUrl: string | null;
  /** RELAY_INFO_EVENTS: the relay's TwiML asks for Twilio's `info` events. */
  relayInfoEvents: boolean;
}

/** The fields of Twilio's Call resource we read. */
interface TwilioCall {
  sid: string;
  status: string;
  direction: string;
  /** RFC 2822. */
  date_created: string;
  duration?: string | null;
  answered_by?: string | null;
}

/** Calls listed per number pair when looking for one we placed: far more than one number is called at once. */
const LIST_PAGE = 20;
/** Our clock and Twilio's may differ by this much. */
const CLOCK_SKEW_MS = 60_000;

/** Without conversations: a silent line for a minute. */
const HOLD_TWIML = '<Response><Pause length="60"/></Response>';

const STATUS: Record<string, CallStatus | undefined> = {
  ringing: 'ringing',
  'in-progress': 'in-progress',
  answered: 'in-progress',
  completed: 'completed',
  busy: 'busy',
  'no-answer': 'no-answer',
  failed: 'failed',
  canceled: 'canceled',
};

/**
 * Twilio's Calls API: calls are created with a status callback on our route; callbacks are
 * trusted only with a valid `X-Twilio-Signature` (HMAC of URL and parameters). The agent
 * speaks through ConversationRelay (TwiML `<Connect><ConversationRelay>`, src/relay) when
 * conversations are on; otherwise the TwiML only keeps the line open.
 */
export class TwilioTelephony implements TelephonyAdapter {
  readonly name = 'twilio';

  constructor(private readonly options: TwilioOptions) {}

  async place(request: PlaceRequest): Promise<string> {
    const body = new URLSearchParams({
      To: request.to,
      From: request.from,
      Twiml: this.callTwiml(request),
      StatusCallback: this.callbackUrl(request.callId),
      StatusCallbackMethod: 'POST',
      // Asynchronous detection: the conversation starts at once, the verdict (after the
      // greeting, for a machine) comes to our AMD callback (docs/calls.md, "Answering machines").
      MachineDetection: 'DetectMessageEnd',
      AsyncAmd: 'true',
      AsyncAmdStatusCallback: this.callbackUrl(request.callId, TWILIO_AMD_PATH),
      AsyncAmdStatusCallbackMethod: 'POST',
      ...(request.recording === 'off'
        ? {}
        : {
            Record: 'true',
            RecordingChannels: request.recording,
            RecordingStatusCallback: this.callbackUrl(request.callId, TWILIO_RECORDING_PATH),
            RecordingStatusCallbackMethod: 'POST',
            RecordingStatusCallbackEvent: 'completed',
          }),
    });
    for (const event of ['initiated', 'ringing', 'answered', 'completed']) body.append('StatusCallbackEvent', event);
    const created = (await this.request('POST', 'Calls.json', body)) as { sid?: unknown };
    if (typeof created.sid !== 'string') throw new Error('Twilio answered without a call sid');
    return created.sid;
  }

  async cancel(providerSid: string, live: boolean): Promise<void> {
    await this.request('POST', `Calls/${encodeURIComponent(providerSid)}.json`, new URLSearchParams({ Status: live ? 'completed' : 'canceled' }));
  }

  /**
   * Whether the account has this number among its incoming phone numbers (Twilio's
   * `IncomingPhoneNumbers.json?PhoneNumber=`, an exact E.164 filter answering a page of
   * `incoming_phone_numbers`).
   */
  async holdsNumber(e164: string): Promise<boolean> {
    const page = (await this.request('GET', `IncomingPhoneNumbers.json?${new URLSearchParams({ PhoneNumber: e164 }).toString()}`)) as { incoming_phone_numbers?: { phone_number?: unknown }[] };
    return (page.incoming_phone_numbers ?? []).some((n) => n.phone_number === e164);
  }

  /**
   * `GET Calls.json?To=&From=` (newest first), kept when created since `since` (a minute of
   * clock skew allowed) and placed through the API. Not filtered with `StartTime>=`: Twilio
   * leaves `start_time` empty until a call is dialled, and a call waiting in its queue
   * (calls-per-second limit) is exactly one we must not dial again.
   */
  async placedSince({ from, to }: Pick<PlaceRequest, 'from' | 'to'>, since: Date): Promise<string[]> {
    const listed = (await this.request('GET', `Calls.json?${new URLSearchParams({ To: to, From: from, PageSize: String(LIST_PAGE) }).toString()}`)) as { calls?: TwilioCall[] };
    return (listed.calls ?? [])
      .filter((c) => c.direction === 'outbound-api' && Date.parse(c.date_created) >= since.getTime() - CLOCK_SKEW_MS)
      .sort((x, y) => Date.parse(x.date_created) - Date.parse(y.date_created))
      .map((c) => c.sid);
  }

  /** `GET Calls/{sid}.json`, as the status callback it would have sent: null while `queued`. */
  async currentStatus(providerSid: string, now: Date): Promise<StatusUpdate | null> {
    const call = (await this.request('GET', `Calls/${encodeURIComponent(providerSid)}.json`)) as TwilioCall;
    return this.toUpdate({ CallStatus: call.status, ...(call.duration ? { CallDuration: call.duration } : {}), ...(call.answered_by ? { AnsweredBy: call.answered_by } : {}) }, now);
  }

  /**
   * What a call of ours runs once answered, placed or incoming: the relay to its agent (a
   * session of `opening`, with a token of its own), or the hold.
   */
  callTwiml({ callId, agent }: Pick<PlaceRequest, 'callId' | 'agent'>, opening: ConversationOpening = 'new'): string {
    const { relayBaseUrl } = this.options;
    return relayBaseUrl ? conversationRelayTwiml(relayBaseUrl, callId, agent, mintRelayToken(this.options.authToken, callId, new Date()), opening, this.options.relayInfoEvents) : HOLD_TWIML;
  }

  /** The URL Twilio calls back on `path` (the status callback unless said) for one of our calls; our call id rides in the signed URL. */
  callbackUrl(callId: string, path: string = TWILIO_STATUS_PATH): string {
    return `${this.options.publicBaseUrl}${path}?call_id=${encodeURIComponent(callId)}`;
  }

  /** Replaces what a live call runs with `twiml` (the Calls API's update with `Twiml`). */
  async redirect(providerSid: string, twiml: string): Promise<void> {
    await this.request('POST', `Calls/${encodeURIComponent(providerSid)}.json`, new URLSearchParams({ Twiml: twiml }));
  }

  /**
   * A recording's audio as WAV (the Recording resource's media, `.wav`), fetched with our
   * credentials; `range` is passed on as the client's `Range` header.
   */
  async recording(recordingSid: string, range: string | undefined): Promise<RecordingMedia> {
    const res = await this.send('GET', `Recordings/${encodeURIComponent(recordingSid)}.wav`, { headers: range ? { range } : {}, timeoutMs: 60_000 });
    if (res.status === 404) throw new NotFoundError('Recording');
    if (res.status !== 200 && res.status !== 206 && res.status !== 416) throw new Error(`Twilio answered HTTP ${res.status} for a recording`);
    const header = (name: string) => res.headers.get(name) ?? undefined;
    return {
      status: res.status,
      type: header('content-type') ?? 'audio/x-wav',
      length: header('content-length'),
      range: header('content-range'),
      body: res.body ? Readable.fromWeb(res.body) : Buffer.alloc(0),
    };
  }

  /** Deletes a recording at Twilio (DELETE on the Recording resource); one already gone counts as deleted. */
  async deleteRecording(recordingSid: string): Promise<void> {
    const res = await this.send('DELETE', `Recordings/${encodeURIComponent(recordingSid)}.json`);
    if (!res.ok && res.status !== 404) throw new Error(`Twilio answered HTTP ${res.status} deleting a recording`);
  }

  /** The call and nonce of a relay session token this account minted, unexpired; else null. */
  relayToken(token: string, now: Date): ReturnType<typeof readRelayToken> {
    return readRelayToken(this.options.authToken, token, now);
  }

  /** True when `signature` is Twilio's signature of this exact URL and these parameters. */
  verify(url: string, params: Record<string, string>, signature: string): boolean {
    return twilio.validateRequest(this.options.authToken, signature, url, params);
  }

  /** Our update for a status callback, or null for statuses that change nothing (queued, initiated). */
  toUpdate(params: Record<string, string>, now: Date): StatusUpdate | null {
    const status = STATUS[params.CallStatus ?? ''];
    if (!status) return null;
    const stamped = params.Timestamp ? new Date(params.Timestamp) : null;
    const at = stamped && storableInstant(stamped) ? stamped : now;
    const duration = Number.parseInt(params.CallDuration ?? '', 10);
    const machine = (params.AnsweredBy ?? '').startsWith('machine');
    return {
      status,
      at,
      ...(Number.isFinite(duration) ? { durationS: duration } : {}),
      ...(status === 'completed' && machine ? { disconnectReason: 'voicemail_reached' } : {}),
    };
  }

  /** One request to the account's REST API (`path` under `/2010-04-01/Accounts/{sid}/`); answers its JSON. */
  private async request(method: 'GET' | 'POST', path: string, body?: URLSearchParams): Promise<unknown> {
    const res = await this.send(method, path, { body });
    if (!res.ok) throw new Error(`Twilio answered HTTP ${res.status}`);
    return res.json();
  }

  /** A request to the account's REST resources, with the account's credentials; the response as it came. */
  private send(method: string, path: string, options: { body?: URLSearchParams | undefined; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<Response> {
    const { baseUrl, accountSid, authToken } = this.options;
    return fetch(`${baseUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/${path}`, {
      method,
      headers: {
        authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
        ...(options.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...options.headers,
      },
      ...(options.body ? { body: options.body } : {}),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
  }
}
