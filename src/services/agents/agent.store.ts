import { AiAgent } from '../../entities';
import { type StoredView, type ViewReads, viewQuery } from '../../db/statements';
import { agentContract, type AgentView } from './agent.contract';
import { readableAgentSql } from './agent-ownership';

/** `readableAgents` (agent-ownership.ts) as the condition of a prepared statement: the company's agents and the templates. */
const byIds = viewQuery<AgentView>('agents-by-ids', AiAgent, agentContract.view, `id = ANY($1::uuid[]) AND ${readableAgentSql('ai_agents', '$2')}`);

/**
 * The company's agents and the templates of `ids` (deleted ones too) as stored views: one
 * prepared statement on the reads' pool, no entity (GraphQL's batched `aiAgent` of a page of
 * calls; docs/performance.md, "Volume").
 */
export function agentsByIds(reads: ViewReads, companyId: string, ids: readonly string[]): Promise<StoredView<AgentView>[]> {
  return byIds(reads, [[...ids], companyId]);
}
