import twilio from 'twilio';
import type { AnsweredBy } from '../../entities/call.entity';
import type { MachineMoment } from '../conversation/conversation';

/** Twilio's `AnsweredBy` values (its answering-machine detection reference). */
const KNOWN = ['human', 'unknown', 'fax', 'machine_start', 'machine_end_beep', 'machine_end_silence', 'machine_end_other'] as const;
export type TwilioAnsweredBy = (typeof KNOWN)[number];

export const isTwilioAnsweredBy = (value: string | undefined): value is TwilioAnsweredBy => (KNOWN as readonly string[]).includes(value ?? '');

/** The call's `answered_by` for Twilio's verdict. */
export function answeredByOf(verdict: TwilioAnsweredBy): AnsweredBy {
  if (verdict === 'human' || verdict === 'unknown' || verdict === 'fax') return verdict;
  return 'machine';
}

/** Where a machine is for Twilio's verdict; null when no machine answered (a person, or not known). */
export function machineMomentOf(verdict: string | null): MachineMoment | null {
  if (verdict === 'machine_start') return 'greeting';
  return verdict?.startsWith('machine_end_') ? 'message_end' : null;
}

/** The `language` a `<Say>` takes (the twilio package types it as the languages it lists). */
export type SayLanguage = Parameters<InstanceType<typeof twilio.twiml.VoiceResponse>['say']>[0] extends infer A ? (A extends { language?: infer L } ? L : never) : never;

/** A call without a relay session leaves its message by TwiML: `<Say>` it (when any), then hang up. */
export function voicemailTwiml(message: string, language: string): string {
  const response = new twilio.twiml.VoiceResponse();
  // A BCP 47 tag, as the agent's `language`; Twilio refuses the ones it does not speak.
  if (message !== '') response.say({ language: language as SayLanguage }, message);
  response.hangup();
  return response.toString();
}
