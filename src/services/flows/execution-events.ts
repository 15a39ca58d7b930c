import type { ExecutionStatus } from '../../entities/webhook-execution.entity';
import type { EventPublisher } from '../platform/events';

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

/** Publishes on the event bus (`webhook.execution.updated`), which feeds GraphQL subscribers. */
export function busExecutionEvents(events: EventPublisher): ExecutionEvents {
  return {
    executionUpdated: ({ companyId, flowId, executionId }) => {
      void events.publish('webhook.execution.updated', { companyId, flowId, executionId });
    },
  };
}
