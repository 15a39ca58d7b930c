import type { EntityManager } from '@mikro-orm/postgresql';
import { Call } from '../../entities';
import { ForbiddenError, NotFoundError } from '../shared/errors';
import type { TelephonyAdapter } from './telephony';
import { TwilioTelephony } from './twilio.telephony';

const UUID = /^[0-9a-f-]{36}$/i;

/**
 * The Twilio provider, for a request Twilio signed: `signature` (`X-Twilio-Signature`) must be
 * its HMAC of the exact URL it called (`url`) and the form it posted. Not Twilio: NotFound
 * (the route does not exist on this deployment); a missing or forged signature: Forbidden.
 */
export function verifiedTwilio(provider: TelephonyAdapter, url: string, params: Record<string, string>, signature: string): TwilioTelephony {
  if (!(provider instanceof TwilioTelephony)) throw new NotFoundError('Route');
  if (!provider.verify(url, params, signature)) throw new ForbiddenError('Invalid Twilio signature');
  return provider;
}

/**
 * The call of a callback: named by `call_id` in the URL when we set the URL (calls we place,
 * the relay's action); else by the posted CallSid (an incoming call's status callback, one
 * URL set on the number in the Twilio console: docs/calls.md).
 */
async function callOf(em: EntityManager, twilio: TwilioTelephony, url: string, sid: string | undefined): Promise<Call | null> {
  const callId = new URL(url).searchParams.get('call_id');
  // The provider names the call, never its company: lookups across companies by nature (docs/scaling.md).
  if (callId === null) return sid ? em.findOne(Call, { callSid: sid, callProvider: twilio.name }, { comments: ['provider:call-by-sid'] }) : null;
  return UUID.test(callId) ? em.findOne(Call, { id: callId }, { comments: ['provider:call-by-id'] }) : null;
}

/**
 * The call a Twilio callback is about (status callback, relay action callback): trusted only
 * with a valid signature (`verifiedTwilio`), and only when its `CallSid` is the call's. A
 * request about another leg of the call (a transfer's whisper, fetched for the person dialled)
 * names the call by its `ParentCallSid` instead (`sidParam`).
 */
export async function signedTwilioCall(
  provider: TelephonyAdapter,
  em: EntityManager,
  url: string,
  params: Record<string, string>,
  signature: string,
  sidParam: 'CallSid' | 'ParentCallSid' = 'CallSid',
): Promise<{ twilio: TwilioTelephony; call: Call }> {
  const twilio = verifiedTwilio(provider, url, params, signature);
  const sid = params[sidParam];
  const call = await callOf(em, twilio, url, sid);
  if (!call || (call.callSid !== '' && sid && sid !== call.callSid)) throw new NotFoundError('Call');
  return { twilio, call };
}
