import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Call, Campaign, Contact } from '../../entities';
import type { DynamicVariable } from '../../entities/call.entity';
import { latestVersion } from '../agents/agent-version.store';
import { chooseVersion } from '../agents/version-choice';
import type { Logger } from '../../logger';
import { INBOUND_CAMPAIGN_TYPE } from '../../entities/campaign.entity';
import type { CallService } from '../calls/call.service';
import type { CampaignCallBatch, NewCampaignCall } from '../calls/call.store';
import type { Transitioned } from '../calls/call-transitions';
import type { Clock } from '../shared/clock';
import type { EventPublisher } from '../platform/events';
import type { FlowEvents } from '../flows/flow-outbox';
import type { FlowRunner } from '../flows/flow-runner';
import type { JobQueue } from '../platform/jobs/job-queue';
import type { Caller } from '../shared/scope';
import { isOpen, isOver, windowOf } from './calling-window';
import { afterAnalysis, triggerCampaignWebhook } from './campaign-webhook';
import { dynamicVariables, type RecordViews } from './contact-mapping';
import {
  applyChanges,
  campaignsWithWork,
  dueEntries,
  type EndedAttempt,
  endedAttempts,
  type EntryChange,
  expireQueued,
  liveAttempts,
  loadCampaign,
  markCalling,
  outboundNumberOf,
  recordProgress,
  selectContacts,
  type SliceSizes,
  tryLockCampaign,
} from './campaign.store';
import { delayBefore, tiersOf } from './retry-tiers';

export const CAMPAIGN_TICK_JOB = 'campaign.tick';

/** How long the call-ended listener gathers ended calls of a campaign into one tick request. */
const KICK_COALESCE_MS = 20;

/** How long a tick that found its campaign busy (another tick under way) waits to try again. */
const BUSY_RETRY_MS = 100;

/** How long a job goes on with the next slices of a selection pass before it queues the rest (`run`). */
const PASS_CONTINUE_MS = 5000;

export interface DialerOptions {
  /** How often newly matching contacts are added to a running campaign's selection. */
  selectionRefreshMs: number;
  /** How many contacts the slices of a selection pass read: the first, then each as many as all before it, up to the largest. */
  selectionSlices: SliceSizes;
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
  /** A selection pass is under way: the next tick reads its next slice. */
  selecting: boolean;
}

/** What a campaign that can call calls with: the shared settings of its calls and its number's country. */
interface Dialing {
  batch: CampaignCallBatch;
  countryCode: string;
}

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
  private stopping = false;

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

  /**
   * Forgets kicks not yet sent, and ends the selection passes jobs are going on with after
   * their current slice (the process is stopping; the sweep of another replica makes up for them).
   */
  stop(): void {
    this.stopping = true;
    for (const timer of this.kicking.values()) clearTimeout(timer);
    this.kicking.clear();
  }

  /**
   * Job handler: a tick of one campaign of the caller's company, then, while its selection
   * pass has slices left, the next tick at once (each in a unit of work of its own; the pass's
   * cursor is committed with each slice), for up to PASS_CONTINUE_MS: then the rest is
   * queued. Between slices, the queue cost a pass a wait each time: the ticks its ending calls
   * asked for meanwhile found the campaign busy and waited BUSY_RETRY_MS, and the pass's own
   * request, finding one of them waiting, was dropped into it.
   */
  async run(caller: Caller, campaignId: string): Promise<void> {
    const until = performance.now() + PASS_CONTINUE_MS;
    let unit = caller;
    while (await this.tick(unit, campaignId)) {
      if (this.stopping) return;
      if (performance.now() >= until) return this.kick(caller.scope.companyId, campaignId);
      unit = { scope: caller.scope, em: caller.em.fork() };
    }
  }

  /** Asks for a tick of every campaign with due work at the clock's now. */
  async sweep(): Promise<void> {
    const due = await campaignsWithWork(this.deps.orm.em.fork(), this.deps.clock.now());
    for (const c of due) await this.kick(c.companyId, c.id);
  }

  /** One tick of one campaign of the caller's company; answers whether its selection pass has slices left. Idempotent. */
  async tick({ scope, em }: Caller, campaignId: string): Promise<boolean> {
    const { companyId } = scope;
    const result = await em.transactional(async (tx) => {
      if (!(await tryLockCampaign(tx, campaignId))) return 'busy' as const;
      const campaign = await loadCampaign(tx, { id: campaignId, companyId });
      if (!campaign || campaign.deletedAt) return null;
      return this.work(tx, campaign);
    });
    // Another tick holds the campaign (on this replica or another): try again after it,
    // rather than hold a connection waiting for the lock.
    if (result === 'busy') {
      await this.deps.jobs.send(CAMPAIGN_TICK_JOB, { companyId, campaignId }, { singletonKey: campaignId, delayMs: BUSY_RETRY_MS });
      return false;
    }
    if (!result) return false;
    if (result.batch && result.placed.length > 0) {
      this.deps.dials.inc(result.placed.length);
      await this.deps.calls.queueCampaignCalls(result.batch, result.placed);
    }
    for (const announce of result.announcements) announce();
    if (result.completed) await this.deps.flowEvents.queue(result.companyId);
    for (const call of result.counted) {
      await this.deps.events.publish('call.updated', { companyId: result.companyId, callId: call.id, campaignId, workspace: call.workspace });
    }
    return result.selecting;
  }

  private async work(tx: EntityManager, campaign: Campaign): Promise<TickResult> {
    const now = this.deps.clock.now();
    const key = { id: campaign.id, companyId: campaign.company.id };
    const ended = await endedAttempts(tx, key);
    await applyChanges(
      tx,
      key,
      ended.map((attempt) => this.afterCall(campaign, attempt, now)),
      now,
    );
    const announcements = await triggerCampaignWebhook(this.deps, tx, campaign, ended);
    const dialing = this.dialingOf(campaign);
    let placed: string[] = [];
    let selecting = false;
    // An inbound campaign answers calls to its number (src/services/calls/inbound); it never dials.
    if (campaign.status === 'active' && campaign.campaignType !== INBOUND_CAMPAIGN_TYPE) {
      if (this.selectionDue(campaign, now)) selecting = !(await selectContacts(tx, campaign, now, this.options.selectionSlices)).done;
      const window = windowOf(campaign);
      if (isOver(now, window)) await expireQueued(tx, key, now);
      else if (dialing && isOpen(now, window)) placed = await this.dial(tx, campaign, dialing, now);
    }
    const { completed } = await recordProgress(tx, campaign, now, selecting);
    if (completed) await this.deps.flowEvents.record(tx, 'campaign.completed', key, now);
    const counted = ended.map((e) => ({ id: e.callId, workspace: e.workspace }));
    return { companyId: key.companyId, batch: dialing?.batch ?? null, placed, counted, announcements, completed, selecting };
  }

  /**
   * Whether this tick reads a slice of the selection: a pass is under way, none has completed
   * (activation, an edit), or the last complete one began at least the refresh interval ago.
   */
  private selectionDue(c: Campaign, now: Date): boolean {
    if (c.selectionStartedAt !== null || c.selectedAt === null) return true;
    return now.getTime() - c.selectedAt.getTime() >= this.options.selectionRefreshMs;
  }

  /**
   * What the campaign's calls share; null when it cannot call: no agent, or a deleted one;
   * no outbound number, or one of another company.
   */
  private dialingOf(c: Campaign): Dialing | null {
    const agent = c.aiAgent?.unwrap();
    const number = outboundNumberOf(c);
    if (!agent || agent.deletedAt !== null || !number) return null;
    return {
      batch: { companyId: c.company.id, campaignId: c.id, aiAgentId: agent.id, from: number.phoneNumber, workspace: c.workspace },
      countryCode: number.countryCode,
    };
  }

  /**
   * What an ended attempt makes of its contact: answered by a person settles it
   * (`picked-up`); a cancel settles it (`canceled`: someone decided); busy, no-answer,
   * failed and voicemail queue the next attempt after its tier's delay, or settle it as
   * `failed` once every tier is used up.
   */
  private afterCall(c: Campaign, attempt: EndedAttempt, now: Date): EntryChange {
    const { callStatus: status, disconnectReason: reason } = attempt;
    if (status === 'completed' && reason !== 'voicemail_reached' && reason !== 'timeout') return { contactId: attempt.contactId, state: 'settled', outcome: 'picked-up', reason: null };
    if (status === 'canceled') return { contactId: attempt.contactId, state: 'settled', outcome: 'canceled', reason: null };
    const delay = delayBefore(tiersOf(c), attempt.attempts + 1);
    if (delay === null) return { contactId: attempt.contactId, state: 'settled', outcome: 'failed', reason: reason || status };
    return { contactId: attempt.contactId, state: 'queued', nextAttemptAt: new Date(now.getTime() + delay) };
  }

  /**
   * Places the due attempts that fit in the campaign's free slots, skipping (and settling)
   * contacts on the do-not-call list, non-local ones when the campaign forbids them, and
   * contacts deleted or made inactive since they were selected. Returns the new calls.
   */
  private async dial(tx: EntityManager, c: Campaign, { batch, countryCode }: Dialing, now: Date): Promise<string[]> {
    const rules = { allowNonLocalCalls: c.allowNonLocalCalls, countryCode };
    const placed: string[] = [];
    const key = { id: c.id, companyId: c.company.id };
    let free = c.maxConcurrentCalls - (await liveAttempts(tx, key));
    // The version each call runs (docs/agents.md, "Versions"): the latest is read once per tick, and only when nothing is pinned.
    const pin = { version: c.aiAgentVersion, weights: c.aiAgentVersions };
    const latest = free > 0 && pin.version === null && !pin.weights ? await latestVersion(tx, key.companyId, batch.aiAgentId) : null;
    while (free > 0) {
      const wanted = free;
      const due = await dueEntries(tx, key, rules, now, wanted);
      if (due.length === 0) break;
      const skips: EntryChange[] = [];
      const attempts: NewCampaignCall[] = [];
      for (const entry of due) {
        if (entry.skip !== null) skips.push({ contactId: entry.contactId, state: 'settled', outcome: 'skipped', reason: entry.skip });
        else {
          attempts.push({
            contactId: entry.contactId,
            attempt: entry.attempts + 1,
            to: entry.contact.phoneNumber,
            dynamicVariables: this.agentVariables(c, entry.contact),
            aiAgentVersion: chooseVersion(pin, latest),
          });
        }
      }
      await applyChanges(tx, key, skips, now);
      const stored = await this.deps.calls.createCampaignCalls(tx, batch, attempts, now);
      const byContact = new Map(stored.map((s) => [`${s.contactId}:${s.attempt}`, s]));
      const calling = attempts.flatMap((a) => {
        const call = byContact.get(`${a.contactId}:${a.attempt}`);
        return call ? [{ contactId: a.contactId, callId: call.id, attempt: a.attempt }] : [];
      });
      await markCalling(tx, key, calling, now);
      placed.push(...stored.filter((s) => s.created).map((s) => s.id));
      free -= calling.length;
      if (due.length < wanted) break;
    }
    return placed;
  }

  /** A call's dynamic variables, read from the contact's REST shape, as for the webhook mapping. */
  private agentVariables(c: Campaign, contact: Contact): DynamicVariable[] {
    const mapping = c.agentVariablesContactMetadataMapping;
    if (Object.keys(mapping).length === 0) return [];
    return dynamicVariables(mapping, this.deps.views.contact(contact));
  }
}
