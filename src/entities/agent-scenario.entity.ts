import { Entity, Index, ManyToOne, type Opt, Property, type Ref } from '@mikro-orm/core';
import type { DynamicVariable } from './call.entity';
import { AiAgent } from './ai-agent.entity';
import { BaseEntity } from './base.entity';
import { Company } from './company.entity';

/**
 * A test scenario of an agent (docs/agents.md, "Test suites"): a simulated caller (a script,
 * or a persona a model plays) and the criteria its call must meet. The JSON columns hold the
 * scenario's validated input (`services/agent-tests/scenario.input.ts`), camelCase.
 */
@Entity({ tableName: 'agent_scenarios' })
@Index({ properties: ['company', 'aiAgent', 'createdAt'] })
export class AgentScenario extends BaseEntity {
  @ManyToOne({ entity: () => Company, ref: true, deleteRule: 'cascade' })
  company!: Ref<Company>;

  @ManyToOne({ entity: () => AiAgent, ref: true, deleteRule: 'cascade' })
  aiAgent!: Ref<AiAgent>;

  @Property({ type: 'text' })
  name!: string;

  /** The caller's script; null for a persona. */
  @Property({ type: 'json', nullable: true })
  callerTurns: Opt<unknown[]> | null = null;

  /** The persona a model plays; null for a script. */
  @Property({ type: 'json', nullable: true })
  callerPersona: Opt<Record<string, unknown>> | null = null;

  @Property({ type: 'json' })
  dynamicVariables: Opt<DynamicVariable[]> = [];

  @Property({ type: 'json' })
  criteria: Opt<unknown[]> = [];
}
