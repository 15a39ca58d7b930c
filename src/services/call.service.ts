import { Call } from '../entities';
import type { AgentService } from './agent.service';
import { PreconditionError } from './errors';
import { page as pageInput } from './input/common';
import { listCallsInput, makeCallInput } from './input/call.input';
import type { EventPublisher } from './events';
import { countPerParent, newestFirst, newestFirstPerParent, type Page, type PerParent } from './pagination';
import type { PhoneNumberService } from './phone-number.service';
import type { PhoneParser } from './phone';
import { findOwned, parseId } from './records';
import type { Caller, Scope } from './scope';
import { parseInput } from './validation';

export interface CallServiceOptions {
  provider: string;
  priceUnit: string;
}

/** Calls: placing test calls, reading them. */
export class CallService {
  private readonly makeCallInput;

  constructor(
    phones: PhoneParser,
    private readonly agents: AgentService,
    private readonly numbers: PhoneNumberService,
    private readonly options: CallServiceOptions,
    private readonly events: EventPublisher,
  ) {
    this.makeCallInput = makeCallInput(phones);
  }

  /**
   * Creates a test call (`pstn-queued`, `is_test` true) with one of the company's agents,
   * from a number the company owns, to any valid number. Publishes `call.updated` once
   * the call is stored.
   */
  async makeCall(caller: Caller, input: unknown): Promise<Call> {
    const body = parseInput(this.makeCallInput, input);
    const agent = await this.agents.getOwn(caller, body.ai_agent_id);
    const from = await this.numbers.findOwnedNumber(caller, body.call_from.e164);
    if (!from) throw new PreconditionError('call_from is not a phone number of this company', 'call_from');
    const call = caller.em.create(Call, {
      company: caller.scope.companyId,
      aiAgent: agent,
      workspaceId: body.workspace,
      callProvider: this.options.provider,
      callFrom: from.phoneNumber,
      callTo: body.call_to.e164,
      isTest: true,
      callDirection: 'outgoing',
      priceUnit: this.options.priceUnit,
      agentDynamicVariables: body.dynamic_variables ?? [],
    });
    await caller.em.flush();
    await this.published(call);
    return call;
  }

  /** Tells every replica's subscribers that `call` changed; call after the change is committed. */
  private async published(call: Call): Promise<void> {
    await this.events.publish('call.updated', {
      companyId: call.company.id,
      callId: call.id,
      campaignId: call.campaign?.id ?? null,
      workspace: call.workspaceId,
    });
  }

  async get({ scope, em }: Caller, id: unknown): Promise<Call> {
    return findOwned(em, Call, 'Call', { id: parseId(id), company: scope.companyId, deletedAt: null });
  }

  async list({ scope, em }: Caller, input: unknown): Promise<Page<Call>> {
    const { campaign_id, workspace, status, ...page } = parseInput(listCallsInput, input);
    return newestFirst(em, Call, this.filters(scope, { campaign_id, workspace, status }), page);
  }

  /** How many calls `list` would page through with the same filters. */
  async count({ scope, em }: Caller, input: unknown): Promise<number> {
    const { campaign_id, workspace, status } = parseInput(listCallsInput, input);
    return em.count(Call, this.filters(scope, { campaign_id, workspace, status }));
  }

  /** The latest calls of each campaign, a page per campaign, in one query. */
  async pageByCampaigns({ scope, em }: Caller, campaignIds: readonly string[], input: unknown): Promise<Map<string, Page<Call>>> {
    return newestFirstPerParent(em, Call, this.perCampaign(scope, campaignIds), parseInput(pageInput(), input));
  }

  async countByCampaigns({ scope, em }: Caller, campaignIds: readonly string[]): Promise<Map<string, number>> {
    return countPerParent(em, Call, this.perCampaign(scope, campaignIds));
  }

  private filters(scope: Scope, { campaign_id, workspace, status }: { campaign_id?: string; workspace?: string; status?: string }) {
    return {
      company: scope.companyId,
      deletedAt: null,
      ...(campaign_id ? { campaign: campaign_id } : {}),
      ...(workspace ? { workspaceId: workspace } : {}),
      ...(status ? { callStatus: status } : {}),
    };
  }

  private perCampaign(scope: Scope, parentIds: readonly string[]): PerParent {
    return { parentColumn: 'campaign_id', parentIds, where: 'company_id = ? AND deleted_at IS NULL', params: [scope.companyId] };
  }
}
