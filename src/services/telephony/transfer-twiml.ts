import twilio from 'twilio';
import type { TransferMode } from '../../entities/ai-agent.entity';
import { TRANSFER_STATUSES, type TransferStatus } from '../../entities/call.entity';
import type { SayLanguage } from './answering-machine';

/** Where Twilio posts when a transfer's `<Dial>` ends (its `action`). */
export const TWILIO_DIAL_ENDED_PATH = '/v1/telephony/twilio/dial-ended';
/** Where Twilio fetches the whisper of a warm transfer (`<Number url>`), for the person who answered. */
export const TWILIO_WHISPER_PATH = '/v1/telephony/twilio/whisper';
/** How long a warm transfer rings before it counts as not answered (`<Dial timeout>`, seconds). */
export const TRANSFER_RING_TIMEOUT_S = 30;

const callUrl = (publicBaseUrl: string, path: string, callId: string) => `${publicBaseUrl}${path}?call_id=${encodeURIComponent(callId)}`;

/**
 * What the call runs once the agent's relay session handed it over to `to` (docs/calls.md,
 * "Transfers"): `<Dial action>` whose action callback records the result; a warm transfer
 * also rings for at most TRANSFER_RING_TIMEOUT_S and dials a `<Number url>`, the whisper the
 * person hears before being connected. A cold one dials the number as before transfers had
 * modes, with Twilio's default timeout. Escaping is twilio's builder's.
 */
export function transferTwiml(publicBaseUrl: string, callId: string, to: string, mode: TransferMode): string {
  const response = new twilio.twiml.VoiceResponse();
  const action = callUrl(publicBaseUrl, TWILIO_DIAL_ENDED_PATH, callId);
  if (mode === 'cold') {
    response.dial({ action }, to);
    return response.toString();
  }
  response.dial({ action, timeout: TRANSFER_RING_TIMEOUT_S }).number({ url: callUrl(publicBaseUrl, TWILIO_WHISPER_PATH, callId) }, to);
  return response.toString();
}

/** The whisper: the summary said to the person who answered a warm transfer, in the agent's language, before the two are connected. */
export function whisperTwiml(summary: string, language: string): string {
  const response = new twilio.twiml.VoiceResponse();
  response.say({ language: language as SayLanguage }, summary);
  return response.toString();
}

/** Twilio's `DialCallStatus` as a transfer's status: `answered` counts as `completed`, anything unknown as `failed`. */
export function transferStatusOf(dialCallStatus: string | undefined): Exclude<TransferStatus, 'dialing'> {
  if (dialCallStatus === 'answered') return 'completed';
  const known = TRANSFER_STATUSES.find((s) => s === dialCallStatus && s !== 'dialing');
  return (known as Exclude<TransferStatus, 'dialing'> | undefined) ?? 'failed';
}
