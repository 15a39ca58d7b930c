import { type CallStatus, LIVE_STATUSES } from '../../entities/call.entity';
import type { LastCallStatus } from '../../entities/contact.entity';

/** Statuses a call may be in for it to move to the key status (semantics: Calls). */
export const PREDECESSORS: Record<CallStatus, readonly CallStatus[]> = {
  'pstn-queued': [],
  ringing: ['pstn-queued'],
  'in-progress': ['pstn-queued', 'ringing'],
  completed: ['pstn-queued', 'ringing', 'in-progress'],
  busy: ['pstn-queued', 'ringing'],
  'no-answer': ['pstn-queued', 'ringing'],
  canceled: ['pstn-queued', 'ringing'],
  failed: ['pstn-queued', 'ringing', 'in-progress'],
};

/** The contact's `last_call_status` for each call status (docs/calls.md). */
const CONTACT_STATUS: Record<CallStatus, LastCallStatus> = {
  'pstn-queued': 'in-progress',
  ringing: 'in-progress',
  'in-progress': 'in-progress',
  completed: 'picked-up',
  busy: 'busy',
  'no-answer': 'no-answer',
  failed: 'unreachable',
  canceled: 'canceled',
};

/**
 * The `last_call_status` a contact mirrors for its call's transition: the call status's,
 * except a call that ended on a machine (`voicemail_reached`), which is `voicemail`.
 */
export const contactStatusOf = (status: CallStatus, disconnectReason: string | undefined): LastCallStatus =>
  !LIVE_STATUSES.includes(status) && disconnectReason === 'voicemail_reached' ? 'voicemail' : CONTACT_STATUS[status];

/** What a stored transition tells the rest of the system. */
export interface Transitioned {
  id: string;
  companyId: string;
  campaignId: string | null;
  workspace: string;
  status: CallStatus;
}
