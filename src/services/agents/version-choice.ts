import type { VersionWeight } from '../../entities/campaign.entity';
import { AGENT_SETTINGS, type AgentSettings } from './agent.contract';

/** What a call names of its agent's version: one version, or a weighted split (a campaign's A/B test); neither: the latest. */
export interface VersionPin {
  version?: number | null;
  weights?: readonly VersionWeight[] | null;
}

/**
 * The version a call runs (docs/agents.md, "Versions"): the pinned one; else one of the split
 * drawn by weight; else the latest published; else null, the draft.
 */
export function chooseVersion(pin: VersionPin, latest: number | null, random: () => number = Math.random): number | null {
  if (pin.version != null) return pin.version;
  const weights = pin.weights ?? [];
  const total = weights.reduce((sum, w) => sum + w.weight, 0);
  let draw = random() * total;
  for (const w of weights) {
    draw -= w.weight;
    if (draw < 0) return w.version;
  }
  return weights.at(-1)?.version ?? latest;
}

/** An agent's draft settings: what it is edited to now. */
export const draftSettings = (agent: AgentSettings): AgentSettings => Object.fromEntries(AGENT_SETTINGS.map((k) => [k, agent[k]])) as AgentSettings;
