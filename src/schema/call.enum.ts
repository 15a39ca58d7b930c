import { registerEnumType } from 'type-graphql';

/** Call status vocabulary (Twilio's, with the documented first state): docs/rest.md. */
export enum CallStatus {
  PSTN_QUEUED = 'pstn-queued',
  RINGING = 'ringing',
  IN_PROGRESS = 'in-progress',
  COMPLETED = 'completed',
  BUSY = 'busy',
  NO_ANSWER = 'no-answer',
  FAILED = 'failed',
  CANCELED = 'canceled',
}

registerEnumType(CallStatus, {
  name: 'CallStatus',
  description: 'pstn-queued -> ringing -> in-progress -> completed; or busy, no-answer, failed, canceled.',
  valuesConfig: {
    PSTN_QUEUED: { description: 'Accepted, not yet ringing (the answer to makeCall).' },
    RINGING: { description: 'The callee phone rings.' },
    IN_PROGRESS: { description: 'Answered, live.' },
    COMPLETED: { description: 'Answered, then ended.' },
    BUSY: { description: 'The line was busy.' },
    NO_ANSWER: { description: 'Rang without an answer.' },
    FAILED: { description: 'Could not be placed, or ended by the maximum duration (disconnectReason timeout).' },
    CANCELED: { description: 'Canceled before it was answered.' },
  },
});

/** `call_direction`: outgoing for calls the service places, incoming for inbound ones. */
export enum CallDirection {
  OUTGOING = 'outgoing',
  INCOMING = 'incoming',
}

registerEnumType(CallDirection, {
  name: 'CallDirection',
  description: 'Who placed the call: the service (outgoing) or the callee calling in (incoming).',
  valuesConfig: {
    OUTGOING: { description: 'Placed by the service: a test call or a campaign call.' },
    INCOMING: { description: 'Received on one of the company numbers.' },
  },
});

/** A contact's `last_call_status`, from the status of its latest call (docs/calls.md). */
export enum LastCallStatus {
  IN_PROGRESS = 'in-progress',
  PICKED_UP = 'picked-up',
  BUSY = 'busy',
  NO_ANSWER = 'no-answer',
  UNREACHABLE = 'unreachable',
  CANCELED = 'canceled',
}

registerEnumType(LastCallStatus, {
  name: 'LastCallStatus',
  description: 'Outcome of the latest call to a contact.',
  valuesConfig: {
    IN_PROGRESS: { description: 'The call is queued, ringing or answered right now.' },
    PICKED_UP: { description: 'Answered, then completed.' },
    BUSY: { description: 'The line was busy.' },
    NO_ANSWER: { description: 'Rang without an answer.' },
    UNREACHABLE: { description: 'The call failed.' },
    CANCELED: { description: 'Canceled before it was answered.' },
  },
});
