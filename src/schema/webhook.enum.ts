import { registerEnumType } from 'type-graphql';

/** Execution status: scheduled -> in_progress -> success | failed. */
export enum ExecutionStatus {
  SCHEDULED = 'scheduled',
  IN_PROGRESS = 'in_progress',
  SUCCESS = 'success',
  FAILED = 'failed',
}

registerEnumType(ExecutionStatus, { name: 'ExecutionStatus', description: 'scheduled -> in_progress -> success | failed.' });
