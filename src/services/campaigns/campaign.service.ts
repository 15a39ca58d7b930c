import { AiAgent, Campaign, PhoneNumber, WebhookFlow } from '../../entities';
import { INBOUND_CAMPAIGN_TYPE } from '../../entities/campaign.entity';
import { type FieldError, NotFoundError, ValidationError } from '../shared/errors';
import { createUnderKey } from '../platform/idempotency.service';
import { missingVersions } from '../agents/agent-version.store';
import { type AudienceInput, audienceInput, byWorkspaceInput, pageCampaignsInput } from './campaign.input';
import { isValidTimeZone, nextOpening, windowOf } from './calling-window';
import {
  campaignContract,
  type CampaignCreateInput,
  type CampaignUpdateInput,
  type CampaignView,
  type CampaignWrite,
  createCampaignWrite,
  toCampaignView,
  updateCampaignWrite,
} from './campaign.contract';
import { viewOfStored } from '../shared/contract';
import { alone, type StoredView, type ViewReads } from '../../db/statements';
import type { CampaignStatsView } from './campaign-stats.contract';
import { audienceCounts, audienceSample, campaignById, type CampaignCounts, countsOf, loadCampaign, outboundNumberOf, selectsEveryContact } from './campaign.store';
import { liveContactsCount } from '../contacts/contact.store';
import type { CampaignAudienceView } from './campaign-audience.contract';
import { toContactView } from '../contacts/contact.contract';
import type { Clock } from '../shared/clock';
import { newestFirst, type Page } from '../shared/pagination';
import { findOwned, parseId } from '../shared/records';
import type { Caller, Scope } from '../shared/scope';
import { parseInput } from '../shared/validation';
import { usableAgents } from '../agents/agent-ownership';

/** Related records a campaign may name, each of which must belong to the caller's company. */
const RELATIONS = [
  { field: 'aiAgentId', property: 'aiAgent', entity: AiAgent, name: 'Agent', softDeleted: true },
  { field: 'inboundPhoneNumberId', property: 'inboundPhoneNumber', entity: PhoneNumber, name: 'Phone number', softDeleted: false },
  { field: 'outboundPhoneNumberId', property: 'outboundPhoneNumber', entity: PhoneNumber, name: 'Phone number', softDeleted: false },
  { field: 'webhookId', property: 'webhook', entity: WebhookFlow, name: 'Webhook', softDeleted: true },
] as const;

/** What the campaign service asks of the dialer. */
export interface DialerControl {
  kick(companyId: string, campaignId: string): Promise<void>;
}

export interface CampaignServiceOptions {
  /** The most matched contacts the audience preview counts (AUDIENCE_COUNT_LIMIT). */
  audienceCountLimit: number;
}

/** Campaigns: calling jobs over contact lists. */
export class CampaignService {
  constructor(
    private readonly dialer: DialerControl,
    private readonly clock: Clock,
    /** Where `show` reads: the side pool (docs/performance.md, "by-id fast path"). */
    private readonly reads: ViewReads,
    private readonly options: CampaignServiceOptions,
  ) {}

  async listAll({ scope, em }: Caller): Promise<CampaignView[]> {
    const campaigns = await em.find(Campaign, { company: scope.companyId, deletedAt: null }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    return campaigns.map(toCampaignView);
  }

  async listByWorkspace({ scope, em }: Caller, workspace: unknown): Promise<CampaignView[]> {
    const input = parseInput(byWorkspaceInput, { workspace });
    const campaigns = await em.find(Campaign, { company: scope.companyId, workspace: input.workspace, deletedAt: null }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    return campaigns.map(toCampaignView);
  }

  /** Newest first, a page at a time; `workspace` optional. */
  async page({ scope, em }: Caller, input: unknown): Promise<Page<CampaignView>> {
    const { workspace, ...page } = parseInput(pageCampaignsInput, input);
    const found = await newestFirst(em, Campaign, this.filters(scope, workspace), page);
    return { ...found, items: found.items.map(toCampaignView) };
  }

  /** How many campaigns `page` would page through with the same filters. */
  async count({ scope, em }: Caller, input: unknown): Promise<number> {
    const { workspace } = parseInput(pageCampaignsInput, input);
    return em.count(Campaign, this.filters(scope, workspace));
  }

  /**
   * Campaigns of the company by id, soft-deleted ones included: for records that link to
   * a campaign (a call keeps its campaign). Ids of other companies are left out.
   */
  async getMany(caller: Caller, ids: readonly string[]): Promise<CampaignView[]> {
    return (await this.findMany(caller, ids)).map(toCampaignView);
  }

  /**
   * One campaign of the company as stored (instants as ISO text), by one prepared statement
   * on the reads' pool: no EntityManager, no entity. The by-id hot read, which REST writes
   * as it is; missing, deleted and foreign ids alike answer NotFoundError.
   */
  async show(scope: Scope, id: unknown): Promise<StoredView<CampaignView>> {
    const found = await campaignById(this.reads, scope.companyId, parseId(id));
    if (!found) throw new NotFoundError('Campaign');
    return found;
  }

  /** One campaign of the company, as its view (`show`, instants as Dates). */
  async get({ scope }: Caller, id: unknown): Promise<CampaignView> {
    return viewOfStored(campaignContract.view, await this.show(scope, id));
  }

  async create(caller: Caller, input: CampaignCreateInput): Promise<CampaignView> {
    const { workspace, ...fields } = parseInput(createCampaignWrite, input);
    const campaign = caller.em.create(Campaign, { company: caller.scope.companyId, workspace, name: fields.name });
    await this.apply(caller, campaign, fields);
    await this.save(caller, campaign, () =>
      createUnderKey(
        caller,
        alone,
        () => caller.em.flush(),
        () => [campaign.id],
      ),
    );
    return toCampaignView(campaign);
  }

  /**
   * Partial update (interface 4.2): fields left out stay as they were; a nullable field
   * sent as null is cleared. `companyId`, when sent, must be the caller's own company.
   */
  async update(caller: Caller, id: string, input: CampaignUpdateInput): Promise<CampaignView> {
    const campaign = await this.find(caller, id);
    await this.apply(caller, campaign, parseInput(updateCampaignWrite, input));
    await this.save(caller, campaign);
    return toCampaignView(campaign);
  }

  /** Counters of the campaign's contacts; NotFoundError for another company's campaign. */
  async stats(caller: Caller, id: unknown): Promise<CampaignStatsView> {
    const campaign = await this.find(caller, id);
    return (await this.statsOfCampaigns(caller, [campaign])).get(campaign.id)!;
  }

  /**
   * Who the campaign will call if it dials now (docs/campaigns.md, "Audience preview"): the
   * contacts its selection matches, those the dialer would skip by reason, and a sample of
   * the rest (`audienceInput`), counted with the dialer's own selection and skip rules, up to
   * `audienceCountLimit` matched contacts: past it, `capped`, the counts are of the first that
   * many, and `matched` is a lower bound, unless the campaign selects every contact (then the
   * kept count of the company's live contacts, exact).
   */
  async audience({ scope, em }: Caller, id: string, input: AudienceInput): Promise<CampaignAudienceView> {
    const { limit } = parseInput(audienceInput, input);
    const campaign = await loadCampaign(em, { id: parseId(id), companyId: scope.companyId });
    if (!campaign || campaign.deletedAt !== null) throw new NotFoundError('Campaign');
    const number = outboundNumberOf(campaign);
    const rules = number && { allowNonLocalCalls: campaign.allowNonLocalCalls, countryCode: number.countryCode };
    const counts = await audienceCounts(em, campaign, rules, this.options.audienceCountLimit);
    // Past the limit, a selection of every contact is still matched exactly: it matches every live contact, whose count is kept.
    const everyContact = counts.capped && selectsEveryContact(campaign);
    const matched = everyContact ? await liveContactsCount(this.reads, scope.companyId) : counts.counted;
    const sample = await audienceSample(em, campaign, rules, limit);
    const { contact_inactive: inactive, ...skipped } = counts.skipped;
    return {
      matched,
      matched_exact: !counts.capped || everyContact,
      callable: counts.callable,
      skipped: { ...skipped, inactive },
      capped: counts.capped,
      sample: sample.map(toContactView),
    };
  }

  /** Stats of many campaigns of the company in one query (GraphQL lists); ids of others are left out. */
  async statsMany(caller: Caller, ids: readonly string[]): Promise<Map<string, CampaignStatsView>> {
    return this.statsOfCampaigns(caller, await this.findMany(caller, ids));
  }

  private async statsOfCampaigns({ scope, em }: Caller, campaigns: Campaign[]): Promise<Map<string, CampaignStatsView>> {
    const rows = await countsOf(
      em,
      scope.companyId,
      campaigns.map((c) => c.id),
    );
    const now = this.clock.now();
    return new Map(campaigns.map((c) => [c.id, toStats(c, rows.get(c.id), now)]));
  }

  /**
   * Stores the campaign; an active one is (re)started: its contact selection is refreshed
   * and the dialer asked for a tick, so activation, resumption and edits of a running
   * campaign take effect at once.
   */
  /** Writes the campaign (with `flush`, the caller's flush unless said), then starts its dialer when active. */
  private async save(caller: Caller, campaign: Campaign, flush = () => caller.em.flush()): Promise<void> {
    const active = campaign.status === 'active' && campaign.deletedAt === null;
    if (active) Object.assign(campaign, { selectedAt: null, selectionStartedAt: null, selectionAfterCreatedAt: null, selectionAfterId: null, selectionRead: null, selectionFresh: null });
    await flush();
    if (active) await this.dialer.kick(caller.scope.companyId, campaign.id);
  }

  /** Soft delete: `deleted_at` set, gone from lists and reads. */
  async delete(caller: Caller, id: unknown): Promise<void> {
    const campaign = await this.find(caller, id);
    campaign.deletedAt = this.clock.now();
    await caller.em.flush();
  }

  private async find({ scope, em }: Caller, id: unknown): Promise<Campaign> {
    return findOwned(em, Campaign, 'Campaign', { id: parseId(id), company: scope.companyId, deletedAt: null });
  }

  private async findMany({ scope, em }: Caller, ids: readonly string[]): Promise<Campaign[]> {
    return em.find(Campaign, { id: [...ids], company: scope.companyId });
  }

  private filters(scope: Scope, workspace: string | undefined) {
    return { company: scope.companyId, deletedAt: null, ...(workspace ? { workspace } : {}) };
  }

  private async apply(caller: Caller, campaign: Campaign, input: CampaignWrite): Promise<void> {
    const { companyId, createdAt: _created, updatedAt: _updated, deletedAt, ...fields } = input;
    const errors: FieldError[] = [];
    if (companyId !== undefined && companyId !== caller.scope.companyId) {
      errors.push({ field: 'companyId', message: 'Must be your own company' });
    }
    const relations: Record<string, string | null> = {};
    for (const rel of RELATIONS) {
      const id = fields[rel.field];
      delete fields[rel.field];
      if (id === undefined) continue;
      if (id !== null && !(await this.owns(caller, rel, id))) errors.push({ field: rel.field, message: `${rel.name} not found` });
      relations[rel.property] = id;
    }
    if (fields.aiAgentVersion != null && fields.aiAgentVersions != null) {
      errors.push({ field: 'aiAgentVersions', message: 'Give aiAgentVersion or aiAgentVersions, not both' });
    }
    if (errors.length > 0) throw new ValidationError(errors);
    caller.em.assign(campaign, {
      ...fields,
      // Pinning one version ends a split, and a split ends a pin.
      ...(fields.aiAgentVersion != null ? { aiAgentVersions: null } : {}),
      ...(fields.aiAgentVersions != null ? { aiAgentVersion: null } : {}),
      ...relations,
      ...(deletedAt !== undefined ? { deletedAt: deletedAt === null ? null : new Date(deletedAt) } : {}),
    });
    this.checkConsistency(campaign);
    await this.checkVersions(caller, campaign);
    if (campaign.status === 'active') await this.checkActivation(caller, campaign);
  }

  /**
   * An active campaign must be able to call: a usable agent of the company, an outbound
   * number the company owns (ownership is checked when the id is set) and a valid zone. An
   * inbound campaign needs its inbound number instead of an outbound one (docs/calls.md).
   */
  private async checkActivation({ scope, em }: Caller, c: Campaign): Promise<void> {
    const errors: FieldError[] = [];
    const agentId = c.aiAgent?.id;
    if (!agentId || (await em.count(AiAgent, { id: agentId, ...usableAgents(scope.companyId) })) === 0) {
      errors.push({ field: 'aiAgentId', message: 'An active campaign needs an agent of your company' });
    }
    if (c.campaignType === INBOUND_CAMPAIGN_TYPE) {
      if (!c.inboundPhoneNumber) errors.push({ field: 'inboundPhoneNumberId', message: 'An active inbound campaign needs an inbound phone number of your company' });
    } else if (!c.outboundPhoneNumber) {
      errors.push({ field: 'outboundPhoneNumberId', message: 'An active campaign needs an outbound phone number of your company' });
    }
    if (!isValidTimeZone(c.timeZone)) errors.push({ field: 'timeZone', message: 'Must be an IANA time zone such as America/New_York' });
    if (errors.length > 0) throw new ValidationError(errors);
  }

  private async owns({ scope, em }: Caller, rel: (typeof RELATIONS)[number], id: string): Promise<boolean> {
    const where = { id, company: scope.companyId, ...(rel.softDeleted ? { deletedAt: null } : {}) };
    return (await em.count(rel.entity, where)) > 0;
  }

  /** The versions a campaign pins or splits between are published versions of its agent (docs/agents.md, "Versions"). */
  private async checkVersions({ scope, em }: Caller, c: Campaign): Promise<void> {
    const named =
      c.aiAgentVersion !== null ? [{ field: 'aiAgentVersion', version: c.aiAgentVersion }] : (c.aiAgentVersions ?? []).map((w, i) => ({ field: `aiAgentVersions[${i}].version`, version: w.version }));
    if (named.length === 0) return;
    const agentId = c.aiAgent?.id;
    if (!agentId) throw ValidationError.of(named[0].field, "A version needs the campaign's ai_agent_id");
    const missing = new Set(
      await missingVersions(
        em,
        scope.companyId,
        agentId,
        named.map((n) => n.version),
      ),
    );
    const errors = named.filter((n) => missing.has(n.version)).map((n) => ({ field: n.field, message: "No such version of the campaign's agent" }));
    if (errors.length > 0) throw new ValidationError(errors);
  }

  /** Rules across fields, checked on the merged record so that partial updates obey them too. */
  private checkConsistency(c: Campaign): void {
    const errors: FieldError[] = [];
    const tiers = c.numberOfCallAttempts.length;
    if (c.retryDelay.length !== tiers) errors.push({ field: 'retryDelay', message: 'Must have one entry per numberOfCallAttempts entry' });
    if (c.retryDelayUnit.length !== tiers) errors.push({ field: 'retryDelayUnit', message: 'Must have one entry per numberOfCallAttempts entry' });
    if (c.startedAt && c.endedAt && c.startedAt > c.endedAt) errors.push({ field: 'endedAt', message: 'Must not be before startedAt' });
    if (errors.length > 0) throw new ValidationError(errors);
  }
}

function toStats(c: Campaign, counts: CampaignCounts | undefined, now: Date): CampaignStatsView {
  const waiting = counts?.nextAttemptAt ? new Date(Math.max(counts.nextAttemptAt.getTime(), now.getTime())) : null;
  return {
    campaignId: c.id,
    status: c.status,
    // From the same read as the counts, so the two always agree.
    callProgress: counts && counts.selected > 0 ? Math.floor((counts.settled * 100) / counts.selected) : c.callProgress,
    contactsSelected: counts?.selected ?? 0,
    settled: counts?.settled ?? 0,
    pickedUp: counts?.pickedUp ?? 0,
    failed: counts?.failed ?? 0,
    inProgress: counts?.inProgress ?? 0,
    queued: counts?.queued ?? 0,
    skipped: counts?.skipped ?? 0,
    skippedReasons: counts?.skippedReasons ?? {},
    nextAttemptAt: waiting && c.status === 'active' && isValidTimeZone(c.timeZone) ? nextOpening(waiting, windowOf(c)) : null,
  };
}
