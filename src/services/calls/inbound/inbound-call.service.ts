import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { AiAgent, Call, Campaign, PhoneNumber } from '../../../entities';
import { latestVersion, settingsOfVersion } from '../../agents/agent-version.store';
import { chooseVersion } from '../../agents/version-choice';
import type { DynamicVariable } from '../../../entities/call.entity';
import { INBOUND_CAMPAIGN_TYPE } from '../../../entities/campaign.entity';
import type { CallLifecycleService } from '../call-lifecycle.service';
import { dynamicVariables, type RecordViews } from '../../campaigns/contact-mapping';
import { relayAgentOf } from '../../conversation/agent-settings';
import { PreconditionError } from '../../shared/errors';
import { type SimulateInboundInput, simulateInboundInput } from '../call.input';
import type { PhoneParser } from '../../shared/phone';
import { type CallView, toCallView } from '../call.contract';
import type { Caller } from '../../shared/scope';
import type { SimulatedTelephony } from '../../telephony/simulated.telephony';
import type { TelephonyAdapter } from '../../telephony/telephony';
import { verifiedTwilio } from '../../telephony/twilio-callback';
import { parseInput } from '../../shared/validation';
import { contactWithNumber } from './inbound-call.store';
import { type InboundAnswer, inboundTwiml } from './inbound-twiml';
import { usableAgents } from '../../agents/agent-ownership';

/** An incoming call as the provider announces it. */
interface Ring {
  /** The caller, as the provider sends it (`anonymous` and SIP addresses are kept as they come). */
  from: string;
  callSid: string;
  provider: string;
  isTest: boolean;
}

/** Who answers a number: its active inbound campaign's agent, else the number's own. */
interface Answerer {
  agent: AiAgent;
  campaign: Campaign | null;
}

export interface InboundOptions {
  priceUnit: string;
}

/**
 * Incoming calls (issue 13, docs/calls.md): a call to a number is answered by the agent of
 * the number's active inbound campaign, else by the number's `inbound_agent_id`; with
 * neither it is rejected and nothing is stored. The call is matched to the caller's
 * contact and counts against the company's concurrent-call limit. Do-not-call does not
 * apply: the caller chose to call.
 */
export class InboundCallService {
  readonly simulateInput;

  constructor(
    private readonly orm: MikroORM,
    private readonly phones: PhoneParser,
    private readonly lifecycle: CallLifecycleService,
    private readonly provider: TelephonyAdapter,
    private readonly simulated: SimulatedTelephony,
    /** The contact as the campaign's variable mapping reads it: its REST shape, as for outbound calls. */
    private readonly views: RecordViews,
    private readonly options: InboundOptions,
  ) {
    this.simulateInput = simulateInboundInput(phones);
  }

  /**
   * Twilio's incoming-call webhook, trusted only with its signature of `url` and `params`.
   * The number is found by `To` among every company's numbers: the one company holding it
   * (numbers are unique across companies; a removed number has no row). Answers the TwiML.
   */
  async receiveTwilio(url: string, params: Record<string, string>, signature: string): Promise<string> {
    const twilio = verifiedTwilio(this.provider, url, params, signature);
    const em = this.orm.em.fork();
    const to = this.phones.parse(params.To ?? '');
    // The called number names its company: a lookup across companies by nature (docs/scaling.md).
    const number = to ? await em.findOne(PhoneNumber, { phoneNumber: to.e164 }, { comments: ['inbound:number'] }) : null;
    if (!number || !params.CallSid) return inboundTwiml({ kind: 'reject' }, twilio);
    const ring = { from: params.From ?? '', callSid: params.CallSid, provider: twilio.name, isTest: false };
    return inboundTwiml(await this.answer(em, number, ring), twilio);
  }

  /**
   * simulate-inbound: the same path with the simulated provider (a test call), so inbound
   * works without Twilio. `to` must be a number of the caller's company with an answerer.
   */
  async simulate(caller: Caller, input: SimulateInboundInput): Promise<CallView> {
    const { to, from } = parseInput(this.simulateInput, input);
    const number = await caller.em.findOne(PhoneNumber, { company: caller.scope.companyId, phoneNumber: to.e164 });
    if (!number) throw new PreconditionError('to is not a phone number of this company', 'to');
    const ring = { from: from.e164, callSid: `SIM${randomUUID().replace(/-/g, '')}`, provider: this.simulated.name, isTest: true };
    const answer = await this.answer(caller.em, number, ring);
    if (answer.kind === 'reject') throw new PreconditionError('No agent answers this number: set its inbound_agent_id, or activate an inbound campaign on it', 'to');
    if (answer.kind === 'connect') await this.lifecycle.answeredSimulated(caller.scope.companyId, answer.callId);
    return toCallView(await caller.em.findOneOrFail(Call, { id: answer.callId, company: caller.scope.companyId }, { refresh: true }));
  }

  private async answer(em: EntityManager, number: PhoneNumber, ring: Ring): Promise<InboundAnswer> {
    const companyId = number.company.id;
    const answerer = await this.answererOf(em, number);
    if (!answerer) return { kind: 'reject' };
    const { agent, campaign } = answerer;
    const from = this.phones.parse(ring.from)?.e164 ?? null;
    const contact = from ? await contactWithNumber(em, companyId, from) : null;
    const variables: DynamicVariable[] = campaign && contact ? dynamicVariables(campaign.agentVariablesContactMetadataMapping, this.views.contact(contact)) : [];
    const facts = { callFrom: from ?? ring.from.slice(0, 20), callTo: number.phoneNumber, callDirection: 'incoming', agentDynamicVariables: variables };
    const version = await this.versionOf(em, companyId, answerer);
    const settings = version === null ? agent : ((await settingsOfVersion(em, companyId, agent.id, version)) ?? agent);
    const { callId, admitted } = await this.lifecycle.admitInbound({
      companyId,
      aiAgentId: agent.id,
      aiAgentVersion: version,
      campaignId: campaign?.id ?? null,
      contactId: contact?.id ?? null,
      workspace: campaign?.workspace ?? agent.workspaceId,
      provider: ring.provider,
      callSid: ring.callSid,
      from: facts.callFrom,
      to: facts.callTo,
      isTest: ring.isTest,
      dynamicVariables: variables,
      priceUnit: this.options.priceUnit,
    });
    return admitted ? { kind: 'connect', callId, agent: relayAgentOf(settings, facts) } : { kind: 'busy', callId };
  }

  /** The version an incoming call runs: its campaign's when the campaign's agent answers, else the agent's latest published (docs/agents.md, "Versions"). */
  private async versionOf(em: EntityManager, companyId: string, { agent, campaign }: Answerer): Promise<number | null> {
    const pin = campaign?.aiAgent?.id === agent.id ? { version: campaign.aiAgentVersion, weights: campaign.aiAgentVersions } : {};
    if (pin.version != null || pin.weights) return chooseVersion(pin, null);
    return latestVersion(em, companyId, agent.id);
  }

  /** The active inbound campaign on the number (the latest changed, if several) and the agent answering. */
  private async answererOf(em: EntityManager, number: PhoneNumber): Promise<Answerer | null> {
    const company = number.company.id;
    const campaign = await em.findOne(
      Campaign,
      { company, campaignType: INBOUND_CAMPAIGN_TYPE, status: 'active', inboundPhoneNumber: number.id, deletedAt: null },
      { orderBy: { updatedAt: 'desc', id: 'desc' } },
    );
    for (const agentId of [campaign?.aiAgent?.id, number.inboundAgent?.id]) {
      const agent = agentId ? await em.findOne(AiAgent, { id: agentId, ...usableAgents(company) }) : null;
      if (agent) return { agent, campaign };
    }
    return null;
  }
}
