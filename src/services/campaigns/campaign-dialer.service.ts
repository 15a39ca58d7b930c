import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { type Call, Contact } from '../../entities';
import type { DynamicVariable } from '../../entities/call.entity';
import type { Logger } from '../../logger';
import { INBOUND_CAMPAIGN_TYPE } from '../../entities/campaign.entity';
import type { CallService, CampaignCallBatch, NewCampaignCall } from '../call.service';
import type { Transitioned } from '../call-transitions';
import type { Clock } from '../clock';
import type { EventPublisher } from '../events';
import type { FlowEvents } from '../flows/flow-events';
import type { FlowRunner } from '../flows/flow-runner';
import { coalesceBySingletonKey, type JobQueue } from '../jobs/job-queue';
import { type CallingWindow, isOpen, isOver } from './calling-window';
import { afterAnalysis, triggerCampaignWebhook } from './campaign-webhook';
import { dynamicVariables, type RecordViews } from './contact-mapping';
import {
  applyChanges, type CampaignRow, campaignsWithWork, type DueEntry, dueEntries, type EndedAttempt, endedAttempts, type EntryChange, expireQueued,
  liveAttempts, loadCampaign, markCalling, recordProgress, selectContacts,
} from './dialer-store';
import { delayBefore, type RetryTiers } from './retry-tiers';

export interface CampaignTickJob {
  companyId: string;
  campaignId: string;
}

declare module '../jobs/job-queue' {
  interface JobMap {
    'campaign.tick': CampaignTickJob;
  }
}

export const CAMPAIGN_TICK_JOB = 'campaign.tick';

/** How long the call-ended listener gathers ended calls of a campaign into one tick request. */
const KICK_COALESCE_MS = 20;

/** How long a tick that found its campaign busy (another tick under way) waits to try again. */
const BUSY_RETRY_MS = 100;

// One waiting tick per campaign is enough: a tick does everything that is due.
coalesceBySingletonKey(CAMPAIGN_TICK_JOB);

export interface DialerOptions {
  /** How often newly matching contacts are added to a running campaign's selection. */
  selectionRefreshMs: number;
}

export interface DialerDeps {
  orm: MikroORM;
  jobs: JobQueue;
  calls: CallService;
  flows: FlowRunner;
  /** Records `campaign.completed` in the tick that completes a campaign. */
  flowEvents: FlowEvents;
  events: EventPublisher;
  clock: Clock;
  logger: Logger;
  /** Counts the calls this replica's dialer places (`switchboard_campaign_dials_total`). */
  dials: { inc(n: number): void };
  /** The records as integrators see them: what the webhook mapping reads. */
  views: RecordViews;
  /** Whether the post-call analysis will take an ended call (false without a model). */
  willBeAnalyzed(call: Call): boolean;
}

/** What one tick did, for what follows its commit. */
interface TickResult {
  companyId: string;
  /** Calls stored for new attempts, to queue for dialing. */
  batch: CampaignCallBatch | null;
  placed: string[];
  /** Ended calls counted by this tick: announced again, as the campaign's progress moved. */
  counted: { id: string; workspace: string }[];
  /** Flow executions started, to announce. */
  announcements: (() => void)[];
  /** This tick completed the campaign (its `campaign.completed` event is recorded). */
  completed: boolean;
}

const windowOf = (c: CampaignRow): CallingWindow => ({
  timeZone: c.time_zone,
  from: c.call_time_of_day_from,
  to: c.call_time_of_day_to,
  daysOfWeek: c.days_of_week,
  startDate: c.started_at,
  endDate: c.ended_at,
});

const tiersOf = (c: CampaignRow): RetryTiers => ({ attempts: c.number_of_call_attempts, delays: c.retry_delay, units: c.retry_delay_unit });

/**
 * The campaign dialer (docs/campaigns.md). All its work is one idempotent job, the tick of
 * a campaign, run under the campaign's advisory lock in one transaction (a tick that finds
 * the lock taken asks for another shortly after, instead of waiting on a connection): count the attempts
 * whose calls ended (settle or schedule a retry, trigger the campaign's webhook), add newly
 * matching contacts, then, while the campaign is active and its window open, place the due
 * attempts up to its concurrency limit. Calls are stored with the attempt they make, under
 * a unique key, in the same transaction that marks the attempt made: a crash, a second
 * replica or a pause can never make an attempt twice.
 *
 * Ticks are asked for when a campaign is activated and when one of its calls ends; a
 * periodic sweep on every worker replica asks for the ticks that time makes due (retries,
 * window openings) and any a crash lost.
 */
export class CampaignDialer {
  /** Campaigns with a tick about to be asked for, by the call-ended listener. */
  private readonly kicking = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly deps: DialerDeps,
    private readonly options: DialerOptions,
  ) {}

  /**
   * Analysis-stored listener: a campaign flow that reads the post-call outcomes was left out
   * when the call ended, and is triggered now, in the analysis's transaction (so once).
   */
  async callAnalyzed(tx: EntityManager, call: Call): Promise<(() => void)[]> {
    const campaign = call.campaign && (await loadCampaign(tx, { id: call.campaign.id, companyId: call.company.id }));
    return campaign ? afterAnalysis(this.deps, tx, campaign, call) : [];
  }

  /** Asks for a tick of the campaign now. */
  async kick(companyId: string, campaignId: string): Promise<void> {
    await this.deps.jobs.send(CAMPAIGN_TICK_JOB, { companyId, campaignId }, { singletonKey: campaignId });
  }

  /**
   * Call-ended listener: a campaign call ended, so its campaign has an attempt to count and
   * a slot free. Calls of one campaign ending within KICK_COALESCE_MS ask for one tick
   * (lost with the process if it dies first: the sweep then asks for it).
   */
  async callEnded(call: Transitioned): Promise<void> {
    const { campaignId, companyId } = call;
    if (!campaignId || this.kicking.has(campaignId)) return;
    const timer = setTimeout(() => {
      this.kicking.delete(campaignId);
      this.kick(companyId, campaignId).catch((err: unknown) => this.deps.logger.warn({ err, campaignId }, 'campaign tick not asked for; the sweep will'));
    }, KICK_COALESCE_MS);
    timer.unref();
    this.kicking.set(campaignId, timer);
  }

  /** Forgets kicks not yet sent (the process is stopping; the sweep of another replica makes up for them). */
  stop(): void {
    for (const timer of this.kicking.values()) clearTimeout(timer);
    this.kicking.clear();
  }

  /** Asks for a tick of every campaign with due work at the clock's now. */
  async sweep(): Promise<void> {
    const due = await campaignsWithWork(this.deps.orm.em.fork(), this.deps.clock.now());
    for (const c of due) await this.kick(c.company_id, c.id);
  }

  /** Job handler: one tick of one campaign. Idempotent. */
  async tick({ companyId, campaignId }: CampaignTickJob): Promise<void> {
    const em = this.deps.orm.em.fork();
    const result = await em.transactional(async (tx) => {
      const [{ locked }] = await tx.execute('SELECT pg_try_advisory_xact_lock(hashtext(?)) AS locked', [`campaign:${campaignId}`]);
      if (!locked) return 'busy' as const;
      const campaign = await loadCampaign(tx, { id: campaignId, companyId });
      if (!campaign || campaign.deleted_at) return null;
      return this.work(tx, campaign);
    });
    // Another tick holds the campaign (on this replica or another): try again after it,
    // rather than hold a connection waiting for the lock.
    if (result === 'busy') return this.deps.jobs.send(CAMPAIGN_TICK_JOB, { companyId, campaignId }, { singletonKey: campaignId, delayMs: BUSY_RETRY_MS });
    if (!result) return;
    if (result.batch && result.placed.length > 0) {
      this.deps.dials.inc(result.placed.length);
      await this.deps.calls.queueCampaignCalls(result.batch, result.placed);
    }
    for (const announce of result.announcements) announce();
    if (result.completed) this.deps.flowEvents.wake();
    for (const call of result.counted) {
      await this.deps.events.publish('call.updated', { companyId: result.companyId, callId: call.id, campaignId, workspace: call.workspace });
    }
  }

  private async work(tx: EntityManager, campaign: CampaignRow): Promise<TickResult> {
    const now = this.deps.clock.now();
    const ended = await endedAttempts(tx, campaign);
    await applyChanges(tx, campaign, ended.map((attempt) => this.afterCall(campaign, attempt, now)), now);
    const announcements = await triggerCampaignWebhook(this.deps, tx, campaign, ended);
    const batch = this.batchOf(campaign);
    let placed: string[] = [];
    // An inbound campaign answers calls to its number (src/services/inbound); it never dials.
    if (campaign.status === 'active' && campaign.campaign_type !== INBOUND_CAMPAIGN_TYPE) {
      const stale = campaign.selected_at === null || now.getTime() - new Date(campaign.selected_at).getTime() >= this.options.selectionRefreshMs;
      if (stale) await selectContacts(tx, campaign, now);
      const window = windowOf(campaign);
      if (isOver(now, window)) await expireQueued(tx, campaign, now);
      else if (batch && isOpen(now, window)) placed = await this.dial(tx, campaign, batch, now);
    }
    const { completed } = await recordProgress(tx, campaign, now);
    if (completed) await this.deps.flowEvents.record(tx, 'campaign.completed', { id: campaign.id, companyId: campaign.company_id }, now);
    const counted = ended.map((e) => ({ id: e.call_id, workspace: e.workspace_id }));
    return { companyId: campaign.company_id, batch, placed, counted, announcements, completed };
  }

  /** The shared settings of the campaign's calls; null when it cannot call (no usable agent or number). */
  private batchOf(c: CampaignRow): CampaignCallBatch | null {
    if (!c.ai_agent_id || !c.agent_usable || !c.outbound_number) return null;
    return { companyId: c.company_id, campaignId: c.id, aiAgentId: c.ai_agent_id, from: c.outbound_number, workspace: c.workspace };
  }

  /**
   * What an ended attempt makes of its contact: answered by a person settles it
   * (`picked-up`); a cancel settles it (`canceled`: someone decided); busy, no-answer,
   * failed and voicemail queue the next attempt after its tier's delay, or settle it as
   * `failed` once every tier is used up.
   */
  private afterCall(c: CampaignRow, attempt: EndedAttempt, now: Date): EntryChange {
    const { call_status: status, disconnect_reason: reason } = attempt;
    if (status === 'completed' && reason !== 'voicemail_reached' && reason !== 'timeout') return { id: attempt.entry_id, state: 'settled', outcome: 'picked-up', reason: null };
    if (status === 'canceled') return { id: attempt.entry_id, state: 'settled', outcome: 'canceled', reason: null };
    const delay = delayBefore(tiersOf(c), attempt.attempts + 1);
    if (delay === null) return { id: attempt.entry_id, state: 'settled', outcome: 'failed', reason: reason || status };
    return { id: attempt.entry_id, state: 'queued', nextAttemptAt: new Date(now.getTime() + delay) };
  }

  /**
   * Places the due attempts that fit in the campaign's free slots, skipping (and settling)
   * contacts on the do-not-call list, non-local ones when the campaign forbids them, and
   * contacts deleted or made inactive since they were selected. Returns the new calls.
   */
  private async dial(tx: EntityManager, c: CampaignRow, batch: CampaignCallBatch, now: Date): Promise<string[]> {
    const placed: string[] = [];
    let free = c.max_concurrent_calls - (await liveAttempts(tx, c));
    while (free > 0) {
      const wanted = free;
      const due = await dueEntries(tx, c, now, wanted);
      if (due.length === 0) break;
      const skips: EntryChange[] = [];
      const attempts: (NewCampaignCall & { entryId: string })[] = [];
      for (const entry of due) {
        const skip = this.skipReason(c, entry.contact, entry.suppressed);
        if (skip) skips.push({ id: entry.entry_id, state: 'settled', outcome: 'skipped', reason: skip });
        else {
          attempts.push({
            entryId: entry.entry_id,
            contactId: entry.contact.id,
            attempt: entry.attempts + 1,
            to: entry.contact.phone_number,
            dynamicVariables: this.agentVariables(tx, c, entry.contact),
          });
        }
      }
      await applyChanges(tx, c, skips, now);
      const stored = await this.deps.calls.createCampaignCalls(tx, batch, attempts, now);
      const byContact = new Map(stored.map((s) => [`${s.contactId}:${s.attempt}`, s]));
      const calling = attempts.flatMap((a) => {
        const call = byContact.get(`${a.contactId}:${a.attempt}`);
        return call ? [{ entryId: a.entryId, callId: call.id, attempt: a.attempt }] : [];
      });
      await markCalling(tx, c, calling, now);
      placed.push(...stored.filter((s) => s.created).map((s) => s.id));
      free -= calling.length;
      if (due.length < wanted) break;
    }
    return placed;
  }

  /** A call's dynamic variables, read from the contact's REST shape, as for the webhook mapping. */
  private agentVariables(tx: EntityManager, c: CampaignRow, contact: DueEntry['contact']): DynamicVariable[] {
    const mapping = c.agent_variables_contact_metadata_mapping;
    if (Object.keys(mapping).length === 0) return [];
    return dynamicVariables(mapping, this.deps.views.contact(tx.map(Contact, contact)));
  }

  private skipReason(c: CampaignRow, contact: { status: string; deleted_at: string | null; number_country_code: string }, suppressed: boolean): string | null {
    if (contact.deleted_at !== null || contact.status !== 'active') return 'contact_inactive';
    if (suppressed) return 'do_not_call';
    if (!c.allow_non_local_calls && contact.number_country_code !== c.outbound_country_code) return 'non_local';
    return null;
  }
}
