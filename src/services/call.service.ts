import { Call } from '../entities';
import type { AgentService } from './agent.service';
import { PreconditionError } from './errors';
import { listCallsInput, makeCallInput } from './input/call.input';
import { newestFirst, type Page } from './pagination';
import type { PhoneNumberService } from './phone-number.service';
import type { PhoneParser } from './phone';
import { findOwned, parseId } from './records';
import type { Caller } from './scope';
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
  ) {
    this.makeCallInput = makeCallInput(phones);
  }

  /**
   * Creates a test call (`pstn-queued`, `is_test` true) with one of the company's agents,
   * from a number the company owns, to any valid number.
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
    return call;
  }

  async get({ scope, em }: Caller, id: unknown): Promise<Call> {
    return findOwned(em, Call, 'Call', { id: parseId(id), company: scope.companyId, deletedAt: null });
  }

  async list({ scope, em }: Caller, input: unknown): Promise<Page<Call>> {
    const { campaign_id, workspace, status, ...page } = parseInput(listCallsInput, input);
    return newestFirst(
      em,
      Call,
      {
        company: scope.companyId,
        deletedAt: null,
        ...(campaign_id ? { campaign: campaign_id } : {}),
        ...(workspace ? { workspaceId: workspace } : {}),
        ...(status ? { callStatus: status } : {}),
      },
      page,
    );
  }
}
