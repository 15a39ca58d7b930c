import type { EntityManager } from '@mikro-orm/postgresql';
import { within } from '../../db/statements';
import { Call, Campaign, Contact } from '../../entities';
import type { Logger } from '../../logger';
import { AppError } from '../shared/errors';
import type { FlowRunner } from '../flows/flow-runner';
import { readsOutcomes, type RecordViews, webhookVariables } from './contact-mapping';

export interface CampaignWebhookDeps {
  flows: FlowRunner;
  views: RecordViews;
  logger: Logger;
  /**
   * Whether an ended call will be analysed (a model is configured and the call is one the
   * analysis takes): a flow that reads its outcomes is then triggered by the analysis.
   */
  willBeAnalyzed(call: Call): boolean;
}

/** An ended call of the campaign and its contact. */
export interface EndedCall {
  callId: string;
  contactId: string;
}

/** A JSON value that should be an object (a call's post-call outcomes), as one: {} otherwise. */
const asObject = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/**
 * Triggers the campaign's flow for each ended call, in the tick's transaction (so exactly
 * once per call), with variables mapped from the REST shapes of the call, its contact and
 * the campaign (docs/campaigns.md). A flow that reads the post-call outcomes skips the calls
 * the analysis will take: `afterAnalysis` triggers it for them, in the analysis's own
 * transaction. Returns what announces the executions after commit.
 */
export async function triggerCampaignWebhook(deps: CampaignWebhookDeps, tx: EntityManager, c: Campaign, ended: EndedCall[]): Promise<(() => void)[]> {
  if (!c.webhook || ended.length === 0) return [];
  const waits = readsOutcomes(c.webhookMappingVariables, c.webhookMappingVariablesSources);
  const entities = await tx.find(Call, { id: ended.map((e) => e.callId), company: c.company.id });
  const due = new Set(entities.filter((k) => !(waits && deps.willBeAnalyzed(k))).map((k) => k.id));
  return triggerFor(
    deps,
    tx,
    c,
    c.webhook.id,
    entities.filter((k) => due.has(k.id)),
    ended,
  );
}

/**
 * The analysis of a campaign call was stored: triggers the campaign's flow when it reads
 * the outcomes (it was skipped when the call ended), in the analysis's transaction.
 */
export async function afterAnalysis(deps: CampaignWebhookDeps, tx: EntityManager, c: Campaign, call: Call): Promise<(() => void)[]> {
  if (!c.webhook || !readsOutcomes(c.webhookMappingVariables, c.webhookMappingVariablesSources) || !call.contact) return [];
  return triggerFor(deps, tx, c, c.webhook.id, [call], [{ callId: call.id, contactId: call.contact.id }]);
}

async function triggerFor(deps: CampaignWebhookDeps, tx: EntityManager, c: Campaign, flowId: string, entities: Call[], ended: EndedCall[]): Promise<(() => void)[]> {
  if (entities.length === 0) return [];
  const { views } = deps;
  const campaign = views.campaign(c);
  const calls = new Map(entities.map((k) => [k.id, views.call(k)]));
  const contacts = new Map((await tx.find(Contact, { id: ended.map((e) => e.contactId), company: c.company.id })).map((k) => [k.id, views.contact(k)]));
  const announcements: (() => void)[] = [];
  for (const attempt of ended) {
    const call = calls.get(attempt.callId);
    if (!call) continue;
    const records = { call, contact: contacts.get(attempt.contactId) ?? {}, campaign, agent_post_call_outcomes: asObject(call.agent_post_call_outcomes) };
    const mapped = webhookVariables(c.webhookMappingVariables, c.webhookMappingVariablesSources, records);
    const announce = await trigger(deps, tx, c, flowId, attempt.callId, mapped);
    if (announce) announcements.push(announce);
  }
  return announcements;
}

/**
 * Starts one execution. A mapping path that leads nowhere is logged here (a step that uses
 * its variable names it in its `unresolved_variables`). A flow that refuses (stopped,
 * deleted, no steps, bad variable names) is logged and skipped: the campaign goes on.
 */
async function trigger(deps: CampaignWebhookDeps, tx: EntityManager, c: Campaign, flowId: string, callId: string, mapped: ReturnType<typeof webhookVariables>): Promise<(() => void) | null> {
  if (mapped.unresolved.length > 0) {
    deps.logger.info({ campaignId: c.id, callId, unresolved: mapped.unresolved }, 'campaign webhook mapping: paths that lead nowhere');
  }
  try {
    const { announce } = await deps.flows.start({ scope: { companyId: c.company.id, userId: null }, em: tx }, within(tx), flowId, { variables: mapped.variables });
    return announce;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    deps.logger.warn({ err, campaignId: c.id, callId }, 'campaign webhook not triggered');
    return null;
  }
}
