import { AiAgent, Campaign, PhoneNumber, WebhookFlow } from '../entities';
import { INBOUND_CAMPAIGN_TYPE } from '../entities/campaign.entity';
import { type FieldError, NotFoundError, ValidationError } from './errors';
import { byWorkspaceInput, pageCampaignsInput } from './input/campaign.input';
import { isValidTimeZone, nextOpening, windowOf } from './campaigns/calling-window';
import { type CampaignView, createCampaignInput, toCampaignView, type UpdateCampaignInput, updateCampaignInput } from './campaign.contract';
import { campaignById, type CampaignCounts, countsOf } from './campaigns/campaign.store';
import type { Clock } from './clock';
import { newestFirst, type Page } from './pagination';
import { camelKeys, findOwned, parseId } from './records';
import type { Caller, Scope } from './scope';
import { parseInput } from './validation';

/** Related records a campaign may name, each of which must belong to the caller's company. */
const RELATIONS = [
  { field: 'ai_agent_id', property: 'aiAgent', entity: AiAgent, name: 'Agent', softDeleted: true },
  { field: 'inbound_phone_number_id', property: 'inboundPhoneNumber', entity: PhoneNumber, name: 'Phone number', softDeleted: false },
  { field: 'outbound_phone_number_id', property: 'outboundPhoneNumber', entity: PhoneNumber, name: 'Phone number', softDeleted: false },
  { field: 'webhook_id', property: 'webhook', entity: WebhookFlow, name: 'Webhook', softDeleted: true },
] as const;

/** How far a campaign has got (docs/campaigns.md): its counters, with its status and progress. */
export interface CampaignStats extends Omit<CampaignCounts, 'selected' | 'nextAttemptAt'> {
  campaignId: string;
  status: string;
  callProgress: number;
  contactsSelected: number;
  /** When the next attempt is due, window permitting; null when none is waiting or the campaign is not active. */
  nextAttemptAt: Date | null;
}

/** What the campaign service asks of the dialer. */
export interface DialerControl {
  kick(companyId: string, campaignId: string): Promise<void>;
}

/** Campaigns: calling jobs over contact lists. */
export class CampaignService {
  constructor(
    private readonly dialer: DialerControl,
    private readonly clock: Clock,
  ) {}

  async listAll({ scope, em }: Caller): Promise<CampaignView[]> {
    const campaigns = await em.find(Campaign, { company: scope.companyId, deletedAt: null }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    return campaigns.map(toCampaignView);
  }

  async listByWorkspace({ scope, em }: Caller, workspace: unknown): Promise<CampaignView[]> {
    const input = parseInput(byWorkspaceInput, { workspace });
    const campaigns = await em.find(
      Campaign,
      { company: scope.companyId, workspace: input.workspace, deletedAt: null },
      { orderBy: { createdAt: 'desc', id: 'desc' } },
    );
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

  /** One campaign by one store query: no entity is built for a read that only shows it (the by-id hot path). */
  async get({ scope, em }: Caller, id: unknown): Promise<CampaignView> {
    const found = await campaignById(em, scope.companyId, parseId(id));
    if (!found) throw new NotFoundError('Campaign');
    return toCampaignView(found);
  }

  async create(caller: Caller, input: unknown): Promise<CampaignView> {
    const { workspace, ...fields } = parseInput(createCampaignInput, input);
    const campaign = caller.em.create(Campaign, { company: caller.scope.companyId, workspace, name: fields.name });
    await this.apply(caller, campaign, fields);
    await this.save(caller, campaign);
    return toCampaignView(campaign);
  }

  /**
   * Partial update (interface 4.2): fields left out stay as they were; a nullable field
   * sent as null is cleared. `company_id`, when sent, must be the caller's own company.
   */
  async update(caller: Caller, id: unknown, input: unknown): Promise<CampaignView> {
    const campaign = await this.find(caller, id);
    await this.apply(caller, campaign, parseInput(updateCampaignInput, input));
    await this.save(caller, campaign);
    return toCampaignView(campaign);
  }

  /** Counters of the campaign's contacts; NotFoundError for another company's campaign. */
  async stats(caller: Caller, id: unknown): Promise<CampaignStats> {
    const campaign = await this.find(caller, id);
    return (await this.statsOfCampaigns(caller, [campaign])).get(campaign.id)!;
  }

  /** Stats of many campaigns of the company in one query (GraphQL lists); ids of others are left out. */
  async statsMany(caller: Caller, ids: readonly string[]): Promise<Map<string, CampaignStats>> {
    return this.statsOfCampaigns(caller, await this.findMany(caller, ids));
  }

  private async statsOfCampaigns({ scope, em }: Caller, campaigns: Campaign[]): Promise<Map<string, CampaignStats>> {
    const rows = await countsOf(em, scope.companyId, campaigns.map((c) => c.id));
    const now = this.clock.now();
    return new Map(campaigns.map((c) => [c.id, toStats(c, rows.get(c.id), now)]));
  }

  /**
   * Stores the campaign; an active one is (re)started: its contact selection is refreshed
   * and the dialer asked for a tick, so activation, resumption and edits of a running
   * campaign take effect at once.
   */
  private async save(caller: Caller, campaign: Campaign): Promise<void> {
    const active = campaign.status === 'active' && campaign.deletedAt === null;
    if (active) campaign.selectedAt = null;
    await caller.em.flush();
    if (active) await this.dialer.kick(caller.scope.companyId, campaign.id);
  }

  /** Soft delete: `deleted_at` set, gone from lists and reads. */
  async delete(caller: Caller, id: unknown): Promise<void> {
    const campaign = await this.find(caller, id);
    campaign.deletedAt = new Date();
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

  private async apply(caller: Caller, campaign: Campaign, input: UpdateCampaignInput): Promise<void> {
    const { company_id, created_at: _created, updated_at: _updated, deleted_at, ...fields } = input;
    const errors: FieldError[] = [];
    if (company_id !== undefined && company_id !== caller.scope.companyId) {
      errors.push({ field: 'company_id', message: 'Must be your own company' });
    }
    const relations: Record<string, string | null> = {};
    for (const rel of RELATIONS) {
      const id = fields[rel.field];
      delete fields[rel.field];
      if (id === undefined) continue;
      if (id !== null && !(await this.owns(caller, rel, id))) errors.push({ field: rel.field, message: `${rel.name} not found` });
      relations[rel.property] = id;
    }
    if (errors.length > 0) throw new ValidationError(errors);
    caller.em.assign(campaign, {
      ...camelKeys(fields),
      ...relations,
      ...(deleted_at !== undefined ? { deletedAt: deleted_at === null ? null : new Date(deleted_at) } : {}),
    });
    this.checkConsistency(campaign);
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
    if (!agentId || (await em.count(AiAgent, { id: agentId, company: scope.companyId, deletedAt: null })) === 0) {
      errors.push({ field: 'ai_agent_id', message: 'An active campaign needs an agent of your company' });
    }
    if (c.campaignType === INBOUND_CAMPAIGN_TYPE) {
      if (!c.inboundPhoneNumber) errors.push({ field: 'inbound_phone_number_id', message: 'An active inbound campaign needs an inbound phone number of your company' });
    } else if (!c.outboundPhoneNumber) {
      errors.push({ field: 'outbound_phone_number_id', message: 'An active campaign needs an outbound phone number of your company' });
    }
    if (!isValidTimeZone(c.timeZone)) errors.push({ field: 'time_zone', message: 'Must be an IANA time zone such as America/New_York' });
    if (errors.length > 0) throw new ValidationError(errors);
  }

  private async owns(
    { scope, em }: Caller,
    rel: (typeof RELATIONS)[number],
    id: string,
  ): Promise<boolean> {
    const where = { id, company: scope.companyId, ...(rel.softDeleted ? { deletedAt: null } : {}) };
    return (await em.count(rel.entity, where as never)) > 0;
  }

  /** Rules across fields, checked on the merged record so that partial updates obey them too. */
  private checkConsistency(c: Campaign): void {
    const errors: FieldError[] = [];
    const tiers = c.numberOfCallAttempts.length;
    if (c.retryDelay.length !== tiers) errors.push({ field: 'retry_delay', message: 'Must have one entry per number_of_call_attempts entry' });
    if (c.retryDelayUnit.length !== tiers) errors.push({ field: 'retry_delay_unit', message: 'Must have one entry per number_of_call_attempts entry' });
    if (c.startedAt && c.endedAt && c.startedAt > c.endedAt) errors.push({ field: 'ended_at', message: 'Must not be before started_at' });
    if (errors.length > 0) throw new ValidationError(errors);
  }
}

function toStats(c: Campaign, counts: CampaignCounts | undefined, now: Date): CampaignStats {
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
