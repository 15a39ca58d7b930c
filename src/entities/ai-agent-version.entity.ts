import { Entity, Index, ManyToOne, type Opt, Property, type Ref, Unique } from '@mikro-orm/core';
import type { AgentSettings } from '../services/agents/agent.contract';
import { AiAgent } from './ai-agent.entity';
import { BaseEntity } from './base.entity';
import { Company } from './company.entity';

/**
 * A published version of an agent (docs/agents.md, "Versions"): immutable, numbered 1, 2,
 * 3... per agent, with a snapshot of the agent's settings as they were when published.
 * `createdAt` is the publication instant.
 */
@Entity({ tableName: 'ai_agent_versions' })
@Unique({ properties: ['agent', 'version'] })
@Index({ properties: ['agent', 'createdAt'] })
export class AiAgentVersion extends BaseEntity {
  @ManyToOne({ entity: () => Company, ref: true, deleteRule: 'cascade' })
  company!: Ref<Company>;

  @ManyToOne({ entity: () => AiAgent, ref: true, deleteRule: 'cascade' })
  agent!: Ref<AiAgent>;

  @Property({ type: 'integer' })
  version!: number;

  @Property({ type: 'text', nullable: true })
  note: Opt<string> | null = null;

  /** Every agent setting (`AGENT_SETTINGS`), camelCase, as published. */
  @Property({ type: 'json' })
  settings!: AgentSettings;
}
