import { AiAgent, AiAgentVersion } from '../../entities';
import type { AgentSettings } from './agent.contract';
import { type AgentVersionView, toAgentVersionView } from './agent-version.contract';
import { agentVersionParam, listAgentVersionsInput, type PublishAgentInput, publishAgentWrite } from './agent-version.input';
import { insertAgentVersion, latestVersions, settingsOfVersion } from './agent-version.store';
import { draftSettings } from './version-choice';
import { NotFoundError, ValidationError } from '../shared/errors';
import { countPerParent, newestFirst, newestFirstPerParent, type Page, type PerParent } from '../shared/pagination';
import { findOwned, parseId } from '../shared/records';
import type { Caller, Scope } from '../shared/scope';
import { parseInput } from '../shared/validation';

const pageOfViews = (page: Page<AiAgentVersion>): Page<AgentVersionView> => ({ ...page, items: page.items.map(toAgentVersionView) });

const perAgent = (scope: Scope, agentIds: readonly string[]): PerParent<AiAgentVersion> => ({ parent: 'agent', parentIds: agentIds, where: { company: scope.companyId } });

/**
 * The settings `agent` (the caller's company's, already read) runs with: version `version`,
 * or its draft when null; a version it does not have is a validation error on `field`.
 */
export async function settingsOfAgent({ scope, em }: Caller, agent: AiAgent, version: number | null, field = 'version'): Promise<AgentSettings> {
  if (version === null) return draftSettings(agent);
  const settings = await settingsOfVersion(em, scope.companyId, agent.id, version);
  if (!settings) throw ValidationError.of(field, 'No such version of this agent');
  return settings;
}

/**
 * Published versions of agents (docs/agents.md, "Versions"): immutable snapshots of an
 * agent's settings, numbered 1, 2, 3... per agent, which calls run instead of the draft.
 * Versions belong to the company that published them: a template's are never shown to
 * another company (nobody publishes a template: it answers 404 like its updates).
 */
export class AgentVersionService {
  /** Publishes the draft (`{note}`), or an older version again (`{fromVersion}`: a rollback, a new number with its content). No input: the draft without a note. */
  async publish(caller: Caller, agentId: unknown, input: PublishAgentInput | null): Promise<AgentVersionView> {
    const { scope, em } = caller;
    const agent = await findOwned(em, AiAgent, 'Agent', { id: parseId(agentId), company: scope.companyId, deletedAt: null });
    const { note, fromVersion: from } = parseInput(publishAgentWrite, input ?? {});
    const settings = from == null ? draftSettings(agent) : await settingsOfVersion(em, scope.companyId, agent.id, from);
    if (!settings) throw ValidationError.of('fromVersion', 'No such version of this agent');
    return toAgentVersionView(await insertAgentVersion(em, { companyId: scope.companyId, agentId: agent.id, note: note ?? null, settings }));
  }

  /** The agent's versions, newest first, a page at a time. */
  async page(caller: Caller, agentId: unknown, input: unknown): Promise<Page<AgentVersionView>> {
    const agent = await this.readable(caller, agentId);
    const page = parseInput(listAgentVersionsInput, input);
    return pageOfViews(await newestFirst(caller.em, AiAgentVersion, { agent: agent.id, company: caller.scope.companyId }, page));
  }

  /** One version of the agent by its number. */
  async get(caller: Caller, agentId: unknown, version: unknown): Promise<AgentVersionView> {
    const agent = await this.readable(caller, agentId);
    const number = parseInput(agentVersionParam, { version }).version;
    const where = { agent: agent.id, company: caller.scope.companyId, version: number };
    return toAgentVersionView(await findOwned(caller.em, AiAgentVersion, 'Version', where));
  }

  /**
   * The settings a call or a simulated call of the company's agent runs with: version
   * `version`, or the draft when null. A version the agent does not have is a validation
   * error on `field`; an agent that is not the company's (or is deleted) is NotFound.
   */
  async settingsFor(caller: Caller, agentId: string, version: number | null, field = 'version'): Promise<AgentSettings> {
    const { scope, em } = caller;
    const agent = await findOwned(em, AiAgent, 'Agent', { id: parseId(agentId), company: scope.companyId, deletedAt: null });
    return settingsOfAgent(caller, agent, version, field);
  }

  /** The versions of each of the company's agents, a page per agent, in one query (GraphQL `AiAgent.versions`). */
  async pageByAgents({ scope, em }: Caller, agentIds: readonly string[], input: unknown): Promise<Map<string, Page<AgentVersionView>>> {
    const pages = await newestFirstPerParent(em, AiAgentVersion, perAgent(scope, agentIds), parseInput(listAgentVersionsInput, input));
    return new Map([...pages].map(([id, page]) => [id, pageOfViews(page)]));
  }

  async countByAgents({ scope, em }: Caller, agentIds: readonly string[]): Promise<Map<string, number>> {
    return countPerParent(em, AiAgentVersion, perAgent(scope, agentIds));
  }

  /** The latest version of each agent, in two queries; null for an agent never published (GraphQL `AiAgent.publishedVersion`). */
  async latestMany({ scope, em }: Caller, agentIds: readonly string[]): Promise<Map<string, AgentVersionView | null>> {
    const latest = await latestVersions(em, scope.companyId, agentIds);
    const found = latest.size === 0 ? [] : await em.find(AiAgentVersion, { company: scope.companyId, $or: [...latest].map(([agent, version]) => ({ agent, version })) });
    const views = new Map(found.map((v) => [v.agent.id, toAgentVersionView(v)]));
    return new Map(agentIds.map((id) => [id, views.get(id) ?? null]));
  }

  /** An agent whose versions the caller may read: its own, not deleted, or a template (which has none of the caller's versions). */
  private async readable({ scope, em }: Caller, id: unknown): Promise<AiAgent> {
    const agent = await em.findOne(AiAgent, { id: parseId(id), deletedAt: null, $or: [{ company: scope.companyId }, { isTemplate: true, company: null }] });
    if (!agent) throw new NotFoundError('Agent');
    return agent;
  }
}
