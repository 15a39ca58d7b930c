import { CALL_RECORDINGS, TRANSFER_MODES, VOICEMAIL_ACTIONS } from '../entities/ai-agent.entity';
import { ANSWERED_BY, CALL_DIRECTIONS, CALL_STATUSES, TRANSFER_STATUSES } from '../entities/call.entity';
import { LAST_CALL_STATUSES } from '../entities/contact.entity';
import { closedSet } from './closed-set';

/** Call status vocabulary (Twilio's, with the documented first state): docs/rest.md. */
export const CallStatus = closedSet('CallStatus', CALL_STATUSES, 'pstn-queued -> ringing -> in-progress -> completed; or busy, no-answer, failed, canceled.', {
  'pstn-queued': 'Accepted, not yet ringing (the answer to makeCall).',
  ringing: 'The callee phone rings.',
  'in-progress': 'Answered, live.',
  completed: 'Answered, then ended.',
  busy: 'The line was busy.',
  'no-answer': 'Rang without an answer.',
  failed: 'Could not be placed, or ended by the maximum duration (disconnectReason timeout).',
  canceled: 'Canceled before it was answered.',
});
export type CallStatus = (typeof CALL_STATUSES)[number];

/** `call_direction`: outgoing for calls the service places, incoming for inbound ones. */
export const CallDirection = closedSet('CallDirection', CALL_DIRECTIONS, 'Who placed the call: the service (outgoing) or the callee calling in (incoming).', {
  outgoing: 'Placed by the service: a test call or a campaign call.',
  incoming: 'Received on one of the company numbers.',
});
export type CallDirection = (typeof CALL_DIRECTIONS)[number];

/** A contact's `last_call_status`, from the status of its latest call (docs/calls.md). */
export const LastCallStatus = closedSet('LastCallStatus', LAST_CALL_STATUSES, 'Outcome of the latest call to a contact.', {
  'in-progress': 'The call is queued, ringing or answered right now.',
  'picked-up': 'Answered, then completed.',
  voicemail: 'Answered by a machine (disconnectReason voicemail_reached).',
  busy: 'The line was busy.',
  'no-answer': 'Rang without an answer.',
  unreachable: 'The call failed.',
  canceled: 'Canceled before it was answered.',
});
export type LastCallStatus = (typeof LAST_CALL_STATUSES)[number];

/** `answered_by`: who answered an outgoing call, as answering-machine detection tells (docs/calls.md). */
export const AnsweredBy = closedSet('AnsweredBy', ANSWERED_BY, 'Who answered the call, as answering-machine detection tells.', {
  human: 'A person.',
  machine: 'An answering machine or voicemail.',
  fax: 'A fax machine.',
  unknown: 'Detection could not tell.',
});

/** An agent's `voicemail_action`: what it does when a machine answers (docs/agents.md). */
export const VoicemailAction = closedSet('VoicemailAction', VOICEMAIL_ACTIONS, 'What the agent does when an answering machine answers.', {
  hangup: 'Hang up at once.',
  leave_message: 'Wait for the end of the greeting, leave the voicemail message, hang up.',
  continue: 'Talk on as with a person.',
});

/** An agent's `call_recording`. */
export const CallRecording = closedSet('CallRecording', CALL_RECORDINGS, "Whether the agent's calls are recorded.", {
  off: 'Not recorded.',
  mono: 'Recorded, both parties on one channel.',
  dual: 'Recorded, one channel per party.',
});

/** An agent's `transfer_mode`, and a call's transfer's `mode` (docs/calls.md, "Transfers"). */
export const TransferMode = closedSet('TransferMode', TRANSFER_MODES, 'How the agent puts a caller through to a person.', {
  cold: 'Dialled at once; the caller is put through when the person answers.',
  warm: 'The person hears a summary of the conversation first; when nobody takes the call, the agent comes back.',
});

/** Where a call's transfer to a person is. */
export const TransferStatus = closedSet('TransferStatus', TRANSFER_STATUSES, 'Where a transfer to a person is.', {
  dialing: "The person's number is being dialled.",
  completed: 'The person answered and talked with the caller.',
  'no-answer': 'Nobody answered.',
  busy: 'The number was busy.',
  failed: 'The number could not be dialled.',
  canceled: 'The dialling was canceled (the caller hung up).',
});
