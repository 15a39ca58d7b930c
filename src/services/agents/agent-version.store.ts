import type { EntityManager } from '@mikro-orm/postgresql';
import { AiAgentVersion } from '../../entities';
import { lockUntilCommit } from '../platform/advisory-lock.store';
import type { AgentSettings } from './agent.contract';

/** A version to store: whose, why, and its settings. */
export interface NewAgentVersion {
  companyId: string;
  agentId: string;
  note: string | null;
  settings: AgentSettings;
}

/**
 * Stores the agent's next version in its own transaction: numbers are taken under a lock on
 * the agent, so concurrent publishes get 1, 2, 3... with neither gap nor clash (the unique
 * key on (agent, version) stands behind it). Stamped with the database's clock after the
 * lock, so that newest-first order is the numbers' order.
 */
export async function insertAgentVersion(em: EntityManager, v: NewAgentVersion): Promise<AiAgentVersion> {
  return em.transactional(async (tx) => {
    await lockUntilCommit(tx, `agent-versions:${v.agentId}`);
    const [row] = await tx.execute(
      `INSERT INTO ai_agent_versions (id, created_at, updated_at, company_id, agent_id, version, note, settings)
       SELECT gen_random_uuid(), clock_timestamp(), clock_timestamp(), ?, ?, COALESCE(MAX(version), 0) + 1, ?, ?::jsonb
       FROM ai_agent_versions WHERE agent_id = ? AND company_id = ?
       RETURNING *`,
      [v.companyId, v.agentId, v.note, JSON.stringify(v.settings), v.agentId, v.companyId],
    );
    return tx.map(AiAgentVersion, row);
  });
}

/** The agent's latest version number per agent of the company, in one query; agents never published are left out. */
export async function latestVersions(em: EntityManager, companyId: string, agentIds: readonly string[]): Promise<Map<string, number>> {
  if (agentIds.length === 0) return new Map();
  const rows = await em.execute<{ agent_id: string; version: number }[]>(`SELECT agent_id, MAX(version) AS version FROM ai_agent_versions WHERE company_id = ? AND agent_id IN (?) GROUP BY agent_id`, [
    companyId,
    [...agentIds],
  ]);
  return new Map(rows.map((r) => [r.agent_id, r.version]));
}

/** The latest version number of the company's agent; null when never published. */
export async function latestVersion(em: EntityManager, companyId: string, agentId: string): Promise<number | null> {
  return (await latestVersions(em, companyId, [agentId])).get(agentId) ?? null;
}

/** The settings of version `version` of the company's agent; null when it has no such version. */
export async function settingsOfVersion(em: EntityManager, companyId: string, agentId: string, version: number): Promise<AgentSettings | null> {
  const found = await em.findOne(AiAgentVersion, { company: companyId, agent: agentId, version }, { fields: ['settings'] });
  return found?.settings ?? null;
}

/** Which of `versions` the company's agent lacks. */
export async function missingVersions(em: EntityManager, companyId: string, agentId: string, versions: readonly number[]): Promise<number[]> {
  if (versions.length === 0) return [];
  const found = await em.find(AiAgentVersion, { company: companyId, agent: agentId, version: [...versions] }, { fields: ['version'] });
  const known = new Set(found.map((v) => v.version));
  return versions.filter((v) => !known.has(v));
}
