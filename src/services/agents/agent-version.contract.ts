import { z } from 'zod';
import type { AiAgentVersion } from '../../entities';
import { AGENT_SETTINGS, agentContract } from './agent.contract';
import { defineContract, described as d, field, namedObject, type ViewOf, viewOf } from '../shared/contract';

const settingsShape = agentContract.view.pick(Object.fromEntries(AGENT_SETTINGS.map((k) => [k, true])) as { [K in (typeof AGENT_SETTINGS)[number]]: true }).shape;

/**
 * A published version of an agent (docs/agents.md, "Versions"): its number, when and why it
 * was published, and every agent setting as it was then. REST shows it as
 * `{version, published_at, note, ...agent fields}`; GraphQL as `AiAgentVersion`.
 */
export const agentVersionContract = defineContract({
  name: 'AiAgentVersion',
  view: z.object({
    id: d(field.id(), 'Id of the version record (UUID).'),
    agentId: d(field.id(), 'Id of the agent.'),
    version: d(z.int(), 'The version number: 1, 2, 3... per agent.'),
    publishedAt: d(z.date(), 'When the version was published.'),
    note: d(z.string().nullable(), 'What changed, as given at publish; null when none.'),
    ...settingsShape,
    createdAt: d(z.date(), 'When the version was published (the pagination key).'),
  }),
  rest: { omit: ['id', 'createdAt'] },
  graphql: { omit: ['createdAt'] },
});

export type AgentVersionView = ViewOf<typeof agentVersionContract>;

/** The view of a stored version: its settings spread beside its own fields. */
export const toAgentVersionView = (v: AiAgentVersion): AgentVersionView =>
  viewOf(agentVersionContract, { ...v.settings, id: v.id, agentId: v.agent.id, version: v.version, publishedAt: v.createdAt, note: v.note, createdAt: v.createdAt });

/** One side of a campaign's A/B split, as campaigns show it. */
export const versionWeight = namedObject(
  z.object({ version: d(z.int(), 'A published version of the agent.'), weight: d(z.int(), 'Its share of the calls, relative to the others.') }),
  'VersionWeight',
  'One side of an A/B split: a version of the agent and its weight.',
);
