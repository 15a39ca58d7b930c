import { AgentScenario } from '../../entities';
import type { AgentService } from '../agents/agent.service';
import { PreconditionError } from '../shared/errors';
import { findOwned, parseId } from '../shared/records';
import type { Caller } from '../shared/scope';
import { parseInput } from '../shared/validation';
import { type CallerPersona, type CallerTurn, type Criterion, createScenarioWrite, type ScenarioCreateInput, type ScenarioUpdateInput, updateScenarioWrite } from './scenario.input';

/** A scenario as the services return it. */
export interface ScenarioView {
  id: string;
  agentId: string;
  name: string;
  /** The caller's script; null for a persona. */
  callerTurns: CallerTurn[] | null;
  /** The persona a model plays; null for a script. */
  callerPersona: CallerPersona | null;
  dynamicVariables: { name: string; value: string }[];
  criteria: Criterion[];
  createdAt: Date;
  updatedAt: Date;
}

export const toScenarioView = (s: AgentScenario): ScenarioView => ({
  id: s.id,
  agentId: s.aiAgent.id,
  name: s.name,
  callerTurns: s.callerTurns as CallerTurn[] | null,
  callerPersona: s.callerPersona as CallerPersona | null,
  dynamicVariables: s.dynamicVariables,
  criteria: s.criteria as Criterion[],
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

/** Most scenarios one agent may hold. */
export const MAX_SCENARIOS_PER_AGENT = 200;

/**
 * Test scenarios of the company's own agents (docs/agents.md, "Test suites"). A scenario of
 * another company, or of an agent that is not the caller's, answers not found.
 */
export class ScenarioService {
  constructor(private readonly agents: AgentService) {}

  async create(caller: Caller, agentId: unknown, input: ScenarioCreateInput): Promise<ScenarioView> {
    const scenarioWrite = parseInput(createScenarioWrite, input);
    const agent = await this.agents.getOwn(caller, parseId(agentId));
    const held = await caller.em.count(AgentScenario, { company: caller.scope.companyId, aiAgent: agent.id });
    if (held >= MAX_SCENARIOS_PER_AGENT) throw new PreconditionError(`An agent holds at most ${MAX_SCENARIOS_PER_AGENT} scenarios: delete one first`);
    const scenario = caller.em.create(AgentScenario, {
      company: caller.scope.companyId,
      aiAgent: agent,
      name: scenarioWrite.name,
      callerTurns: scenarioWrite.callerTurns ?? null,
      callerPersona: scenarioWrite.callerPersona ? { ...scenarioWrite.callerPersona } : null,
      dynamicVariables: scenarioWrite.dynamicVariables,
      criteria: scenarioWrite.criteria,
    });
    await caller.em.flush();
    return toScenarioView(scenario);
  }

  /** The agent's scenarios, oldest first (the order a run takes them in). */
  async list(caller: Caller, agentId: unknown): Promise<ScenarioView[]> {
    const agent = await this.agents.getOwn(caller, parseId(agentId));
    const scenarios = await caller.em.find(AgentScenario, { company: caller.scope.companyId, aiAgent: agent.id }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: MAX_SCENARIOS_PER_AGENT });
    return scenarios.map(toScenarioView);
  }

  async get(caller: Caller, id: unknown): Promise<ScenarioView> {
    return toScenarioView(await this.own(caller, id));
  }

  /** The fields given replace the stored ones; a script given drops the persona, and the other way round. */
  async update(caller: Caller, id: unknown, input: ScenarioUpdateInput): Promise<ScenarioView> {
    const { callerTurns, callerPersona, ...rest } = parseInput(updateScenarioWrite, input);
    const scenario = await this.own(caller, id);
    caller.em.assign(scenario, {
      ...rest,
      ...(callerTurns ? { callerTurns, callerPersona: null } : {}),
      ...(callerPersona ? { callerPersona: { ...callerPersona }, callerTurns: null } : {}),
    });
    await caller.em.flush();
    return toScenarioView(scenario);
  }

  async delete(caller: Caller, id: unknown): Promise<void> {
    const scenario = await this.own(caller, id);
    await caller.em.remove(scenario).flush();
  }

  private own({ scope, em }: Caller, id: unknown): Promise<AgentScenario> {
    return findOwned(em, AgentScenario, 'Scenario', { id: parseId(id), company: scope.companyId, aiAgent: { company: scope.companyId, deletedAt: null } });
  }
}
