/**
 * Every topic of the event bus and the payload it carries. Payloads hold ids only (a
 * PostgreSQL NOTIFY payload is capped at 8000 bytes): subscribers re-read the state they
 * need through the services, with their own scope, so that no event carries data a
 * subscriber may not see and a late subscriber never reads a stale copy.
 */
export interface Topics {
  /** A call was created, changed status, or its conversation took a turn (transcript). */
  'call.updated': { companyId: string; callId: string; campaignId: string | null; workspace: string };
  /** A call's post-call analysis landed on it, or was recorded as failed (docs/agents.md). */
  'call.analyzed': { companyId: string; callId: string; campaignId: string | null; workspace: string };
  /**
   * Answering-machine detection reached a call (its `machine_detection` is stored): the
   * replica holding the call's conversation acts on it (docs/calls.md, "Answering machines").
   */
  'call.machine': { companyId: string; callId: string };
  /** A webhook flow execution was created or changed status. */
  'webhook.execution.updated': { companyId: string; flowId: string; executionId: string };
  /** An agent test run started, finished one of its scenarios, or ended (docs/agents.md, "Test suites"). */
  'agent.test-run.updated': { companyId: string; agentId: string; runId: string };
}

export type Topic = keyof Topics;

export const TOPICS: readonly Topic[] = ['call.updated', 'call.analyzed', 'call.machine', 'webhook.execution.updated', 'agent.test-run.updated'];

/** One event as it travels between replicas. */
export interface Envelope<T extends Topic = Topic> {
  topic: T;
  payload: Topics[T];
  /** The replica (bus) that published it, which delivered it to its own subscribers at once. */
  origin?: string;
  /**
   * The publishing replica's count of its messages: no two of them are alike, so PostgreSQL,
   * which sends the identical notifications of one transaction once, sends every one.
   */
  seq?: number;
}
