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
});
