import type { EntityManager } from '@mikro-orm/postgresql';
import { Call } from '../../entities';
import { ForbiddenError, NotFoundError } from '../errors';
import type { TelephonyAdapter } from './telephony';
import { TwilioTelephony } from './twilio.telephony';

const UUID = /^[0-9a-f-]{36}$/i;

/**
 * The call a Twilio callback is about (status callback, relay action callback): trusted only
 * with a valid signature of the exact URL Twilio called (`url`, whose `call_id` names the
 * call) and its parameters, and only when its `CallSid` is the call's.
 */
export async function signedTwilioCall(
  provider: TelephonyAdapter,
  em: EntityManager,
  url: string,
  params: Record<string, string>,
  signature: string,
): Promise<{ twilio: TwilioTelephony; call: Call }> {
  if (!(provider instanceof TwilioTelephony)) throw new NotFoundError('Route');
  if (!provider.verify(url, params, signature)) throw new ForbiddenError('Invalid Twilio signature');
  const callId = new URL(url).searchParams.get('call_id');
  const call = callId && UUID.test(callId) ? await em.findOne(Call, { id: callId }) : null;
  if (!call || (call.callSid !== '' && params.CallSid && params.CallSid !== call.callSid)) throw new NotFoundError('Call');
  return { twilio: provider, call };
}
