import { Entity, Index, ManyToOne, type Opt, Property, type Ref } from '@mikro-orm/core';
import { AiAgent } from './ai-agent.entity';
import { BaseEntity } from './base.entity';
import { Call } from './call.entity';
import { Company } from './company.entity';

export const TEST_RUN_STATUSES = ['queued', 'running', 'passed', 'failed'] as const;
export type TestRunStatus = (typeof TEST_RUN_STATUSES)[number];

/**
 * One run of an agent's scenarios as simulated calls, or the replay of a call
 * (docs/agents.md, "Test suites", "Replay a real call"). No call record is made: a run is
 * never billed, listed with calls or dialed. `agent` holds the settings the run's calls use,
 * read once when it was asked for; `results` one entry per scenario
 * (`services/agent-tests/test-run.contract.ts`), each written as its call ends.
 */
@Entity({ tableName: 'agent_test_runs' })
@Index({ properties: ['company', 'aiAgent', 'createdAt'] })
export class AgentTestRun extends BaseEntity {
  @ManyToOne({ entity: () => Company, ref: true, deleteRule: 'cascade' })
  company!: Ref<Company>;

  @ManyToOne({ entity: () => AiAgent, ref: true, deleteRule: 'cascade' })
  aiAgent!: Ref<AiAgent>;

  /** The published version run; null: the draft. */
  @Property({ type: 'integer', nullable: true })
  version: Opt<number> | null = null;

  /** The call this run replays; null for a run of scenarios. */
  @ManyToOne({ entity: () => Call, ref: true, nullable: true, deleteRule: 'set null' })
  replayOf: Opt<Ref<Call>> | null = null;

  @Property({ type: 'string', length: 20 })
  status: Opt<TestRunStatus> = 'queued';

  @Property({ type: 'json' })
  agent!: Record<string, unknown>;

  @Property({ type: 'json' })
  results: Opt<unknown[]> = [];

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  finishedAt: Opt<Date> | null = null;
}
