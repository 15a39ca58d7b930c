import DataLoader from 'dataloader';
import type { Services } from '../services';
import type { AgentView } from '../services/agents/agent.contract';
import type { AgentVersionView } from '../services/agents/agent-version.contract';
import type { CallView } from '../services/calls/call.contract';
import type { CampaignView } from '../services/campaigns/campaign.contract';
import type { CampaignStatsView } from '../services/campaigns/campaign-stats.contract';
import type { ContactView } from '../services/contacts/contact.contract';
import type { Page } from '../services/shared/pagination';
import type { Caller } from '../services/shared/scope';
import type { ExecutionView, StepRunView } from '../services/flows/flow-execution.contract';

/** A page request for one parent: the parent's id plus the page arguments. */
export interface PageKey {
  parentId: string;
  limit: number;
  cursor?: string;
}

/** Records by id, in key order; ids the caller may not see load as null. */
function byId<T extends { id: string }>(load: (ids: readonly string[]) => Promise<T[]>): DataLoader<string, T | null> {
  return new DataLoader(async (ids) => {
    const found = new Map((await load(ids)).map((r) => [r.id, r]));
    return ids.map((id) => found.get(id) ?? null);
  });
}

/** One value per parent id from a batch method answering a map. */
function perParent<V>(load: (ids: readonly string[]) => Promise<Map<string, V>>): DataLoader<string, V> {
  return new DataLoader(async (ids) => {
    const found = await load(ids);
    return ids.map((id) => found.get(id)!);
  });
}

/**
 * Pages per parent: keys asking for the same page size and cursor (every parent of one
 * list, typically) are fetched in one call.
 */
function pages<T>(load: (ids: readonly string[], page: { limit: number; cursor?: string }) => Promise<Map<string, Page<T>>>): DataLoader<PageKey, Page<T>, string> {
  return new DataLoader(
    async (keys) => {
      const groups = new Map<string, PageKey[]>();
      for (const key of keys) {
        const group = `${key.limit}:${key.cursor ?? ''}`;
        groups.set(group, [...(groups.get(group) ?? []), key]);
      }
      const results = new Map<PageKey, Page<T>>();
      for (const group of groups.values()) {
        const { limit, cursor } = group[0];
        const found = await load(
          group.map((k) => k.parentId),
          cursor ? { limit, cursor } : { limit },
        );
        for (const key of group) results.set(key, found.get(key.parentId)!);
      }
      return keys.map((key) => results.get(key)!);
    },
    { cacheKeyFn: (key) => `${key.parentId}:${key.limit}:${key.cursor ?? ''}` },
  );
}

/**
 * The request's DataLoaders: every relation a list of N records resolves costs one query
 * per relation, not N. Built per request (and per subscription event), over the caller's
 * scope, so that a cached record never crosses from one caller to another.
 */
export function createLoaders(caller: Caller, s: Services) {
  return {
    agent: byId<AgentView>((ids) => s.agents.getMany(caller, ids)),
    agentVersions: pages<AgentVersionView>((ids, page) => s.agentVersions.pageByAgents(caller, ids, page)),
    agentVersionCount: perParent<number>((ids) => s.agentVersions.countByAgents(caller, ids)),
    publishedVersion: perParent<AgentVersionView | null>((ids) => s.agentVersions.latestMany(caller, ids)),
    campaign: byId<CampaignView>((ids) => s.campaigns.getMany(caller, ids)),
    contact: byId<ContactView>((ids) => s.contacts.getMany(caller, ids)),
    campaignStats: perParent<CampaignStatsView>((ids) => s.campaigns.statsMany(caller, ids)),
    campaignCalls: pages<CallView>((ids, page) => s.calls.pageByParents(caller, 'campaign', ids, page)),
    campaignCallCount: perParent<number>((ids) => s.calls.countByParents(caller, 'campaign', ids)),
    contactCalls: pages<CallView>((ids, page) => s.calls.pageByParents(caller, 'contact', ids, page)),
    contactCallCount: perParent<number>((ids) => s.calls.countByParents(caller, 'contact', ids)),
    flowExecutions: pages<ExecutionView>((ids, page) => s.executions.pageByFlows(caller, ids, page)),
    flowExecutionCount: perParent<number>((ids) => s.executions.countByFlows(caller, ids)),
    stepLogs: perParent<StepRunView[]>((ids) => s.executions.stepLogsOf(caller, ids)),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
