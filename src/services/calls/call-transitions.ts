import { type CallStatus, LIVE_STATUSES } from '../../entities/call.entity';
import type { LastCallStatus } from '../../entities/contact.entity';
import type { StatusUpdate } from '../telephony/telephony';

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

/**
 * What a transition writes, decided from the update alone (`transitionFields`). The statement
 * (`applyTransition`) takes the first of each field's sources that has a value, in the order
 * these fields name them; the call as stored supplies the rest (its start, a reason recorded
 * while it was live).
 */
export interface TransitionFields {
  status: CallStatus;
  /** The statuses the call must be in for the transition to apply. */
  predecessors: readonly CallStatus[];
  at: Date;
  /** The call is answered now (`in-progress`): its start, over any stored one. */
  startedAt: Date | null;
  /** It ends answered (`completed`): its start when none is stored (it was never seen `in-progress`). */
  answeredAt: Date | null;
  /** It ends now: its end. */
  endedAt: Date | null;
  /** It ends and the provider says how long it was answered: that, over the time measured from its start to its end. */
  durationS: number | null;
  /** It ends never answered (no start stored or given): it lasted 0 s. */
  unansweredDurationS: 0 | null;
  /** It ends with a reason the update gives: that, over one recorded while it was live (the relay session's). */
  disconnectReason: string | null;
  /** It ends and no reason is given or recorded: its status is its reason (docs/calls.md). */
  fallbackReason: string | null;
  /** What the call's contact mirrors as its `last_call_status`. */
  contactStatus: LastCallStatus;
}

/**
 * The fields a provider update writes (docs/calls.md, "Statuses"): a live status keeps the
 * call's timing and reason; `in-progress` starts it; a terminal status ends it, with its
 * duration (the provider's, else measured, else 0) and disconnect reason (the update's, else
 * the one recorded while live, else the status).
 */
export function transitionFields(update: Pick<StatusUpdate, 'status' | 'at' | 'durationS' | 'disconnectReason'>): TransitionFields {
  const ends = !LIVE_STATUSES.includes(update.status);
  return {
    status: update.status,
    predecessors: PREDECESSORS[update.status],
    at: update.at,
    startedAt: update.status === 'in-progress' ? update.at : null,
    answeredAt: update.status === 'completed' ? update.at : null,
    endedAt: ends ? update.at : null,
    durationS: ends ? (update.durationS ?? null) : null,
    unansweredDurationS: ends ? 0 : null,
    disconnectReason: ends ? (update.disconnectReason ?? null) : null,
    fallbackReason: ends ? update.status : null,
    contactStatus: contactStatusOf(update.status, update.disconnectReason),
  };
}
