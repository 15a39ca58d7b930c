import { AiAgent, WebhookFlow } from '../../entities';
import { agentContract, type AgentView, toAgentView } from './agent.contract';
import { agentsByIds } from './agent.store';
import type { ViewReads } from '../../db/statements';
import { viewOfStored } from '../shared/contract';
import { type AgentCreateInput, type AgentListInput, type AgentUpdateInput, createAgentWrite, listAgentsInput, updateAgentWrite } from './agent.input';
import { findOwned, parseId } from '../shared/records';
import type { Caller } from '../shared/scope';
import { ValidationError } from '../shared/errors';
import type { Clock } from '../shared/clock';
import { parseInput } from '../shared/validation';
import { readableAgents, usableAgents } from './agent-ownership';

/**
 * The flows an agent's flow tools name are flows of the caller's company: another
 * company's (or a deleted or missing one) is refused like any bad input, naming the field,
 * and reveals nothing.
 */
async function checkFlowTools({ scope, em }: Caller, agentFlow: { tools?: { webhook_id: string }[] } | undefined): Promise<void> {
  const tools = agentFlow?.tools ?? [];
  if (tools.length === 0) return;
  const owned = await em.find(WebhookFlow, { id: tools.map((t) => t.webhook_id), company: scope.companyId, deletedAt: null }, { fields: ['id'] });
  const ids = new Set(owned.map((f) => f.id));
  const fields = tools.flatMap((t, i) => (ids.has(t.webhook_id) ? [] : [{ field: `agentFlow.tools[${i}].webhook_id`, message: 'Must name a flow of your company' }]));
  if (fields.length > 0) throw new ValidationError(fields);
}

/** AI agents of a company, and the built-in template catalogue every company can read. */
export class AgentService {
  constructor(
    /** Where `getMany` reads: the side pool (docs/performance.md, "Volume"). */
    private readonly reads: ViewReads,
    private readonly clock: Clock,
  ) {}

  async list({ scope, em }: Caller, input: AgentListInput): Promise<AgentView[]> {
    const { workspace } = parseInput(listAgentsInput, input);
    const agents = await em.find(AiAgent, { company: scope.companyId, workspaceId: workspace, deletedAt: null }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    return agents.map(toAgentView);
  }

  async templates({ em }: Caller): Promise<AgentView[]> {
    return (await em.find(AiAgent, { isTemplate: true, company: null }, { orderBy: { name: 'asc' } })).map(toAgentView);
  }

  /** One of the company's agents, or a template. */
  async get({ scope, em }: Caller, id: string): Promise<AgentView> {
    const agent = await findOwned(em, AiAgent, 'Agent', {
      id: parseId(id),
      deletedAt: null,
      ...readableAgents(scope.companyId),
    });
    return toAgentView(agent);
  }

  /**
   * The company's agents and templates by id, soft-deleted ones included: for records that
   * link to an agent (calls keep theirs). Ids of other companies are left out.
   */
  async getMany({ scope }: Caller, ids: readonly string[]): Promise<AgentView[]> {
    return (await agentsByIds(this.reads, scope.companyId, ids)).map((row) => viewOfStored(agentContract.view, row));
  }

  /** An agent the company may place calls with: its own, not deleted. */
  async getOwn({ scope, em }: Caller, id: string): Promise<AiAgent> {
    return findOwned(em, AiAgent, 'Agent', { id, ...usableAgents(scope.companyId) });
  }

  async create(caller: Caller, input: AgentCreateInput): Promise<AgentView> {
    const { workspace, ...fields } = parseInput(createAgentWrite, input);
    await checkFlowTools(caller, fields.agentFlow);
    const agent = caller.em.create(AiAgent, { ...fields, name: fields.name, company: caller.scope.companyId, workspaceId: workspace });
    await caller.em.flush();
    return toAgentView(agent);
  }

  /** Partial update. */
  async update(caller: Caller, id: string, input: AgentUpdateInput): Promise<AgentView> {
    const agent = await this.getOwn(caller, parseId(id));
    const { workspace, ...fields } = parseInput(updateAgentWrite, input);
    await checkFlowTools(caller, fields.agentFlow);
    caller.em.assign(agent, { ...fields, ...(workspace ? { workspaceId: workspace } : {}) });
    if (agent.reminderFrequencyFrom > agent.reminderFrequencyTo) {
      throw ValidationError.of('reminderFrequencyFrom', 'Must not be greater than reminderFrequencyTo');
    }
    await caller.em.flush();
    return toAgentView(agent);
  }

  /** Soft delete: the agent disappears from lists; calls made with it keep their link. */
  async delete(caller: Caller, id: string): Promise<void> {
    const agent = await this.getOwn(caller, parseId(id));
    agent.deletedAt = this.clock.now();
    await caller.em.flush();
  }
}
