import type { ExecutionStatus } from '../../entities/webhook-execution.entity';
import type { Logger } from '../../logger';

export interface ExecutionUpdate {
  companyId: string;
  flowId: string;
  executionId: string;
  status: ExecutionStatus;
}

/**
 * Where the flow engine publishes each execution status change, once, after the change
 * commits. Live news only: subscribers may miss some and re-read the execution.
 */
export interface ExecutionEvents {
  executionUpdated(event: ExecutionUpdate): void;
}

/** Publishes to the log (debug level) until an event bus subscribes. */
export function loggedExecutionEvents(logger: Logger): ExecutionEvents {
  return { executionUpdated: (event) => logger.debug({ event }, 'flow execution updated') };
}
