import { ref, UniqueConstraintViolationException } from '@mikro-orm/core';
import { PhoneNumber } from '../../entities';
import type { AgentService } from '../agents/agent.service';
import { ConflictError, ValidationError } from '../shared/errors';
import { createPhoneNumberInput, createPhoneNumberWrite, type PhoneNumberCreateInput, type PhoneNumberUpdateInput, updatePhoneNumberWrite } from './phone-number.input';
import type { PhoneParser } from '../shared/phone';
import { type PhoneNumberView, toPhoneNumberView } from './phone-number.contract';
import { findOwned, parseId } from '../shared/records';
import type { Caller } from '../shared/scope';
import type { TelephonyAdapter } from '../telephony/telephony';
import { parseInput } from '../shared/validation';

/**
 * Numbers a company owns: the only numbers it may call from, and the numbers whose incoming
 * calls it receives. A number belongs to one company at a time (docs/calls.md, "Phone numbers").
 */
export class PhoneNumberService {
  /** Input schemas built with this service's phone parser: the one it validates, and REST's documented body. */
  private readonly createWrite;
  readonly createInput;

  constructor(
    phones: PhoneParser,
    private readonly agents: AgentService,
    /** The telephony provider, whose account must hold a number before it is added. */
    private readonly provider: TelephonyAdapter,
  ) {
    this.createWrite = createPhoneNumberWrite(phones);
    this.createInput = createPhoneNumberInput(phones);
  }

  async list({ scope, em }: Caller): Promise<PhoneNumberView[]> {
    return (await em.find(PhoneNumber, { company: scope.companyId }, { orderBy: { createdAt: 'desc', id: 'desc' } })).map(toPhoneNumberView);
  }

  /**
   * Adds a number the provider's account holds (else a field error on `phoneNumber`). A
   * number another company holds is refused by the database's unique index (Conflict `Phone
   * number is in use`), so two companies adding it at once cannot both succeed.
   */
  async create({ scope, em }: Caller, input: PhoneNumberCreateInput): Promise<PhoneNumberView> {
    const { phoneNumber, label } = parseInput(this.createWrite, input);
    if (!(await this.provider.holdsNumber(phoneNumber.e164))) {
      throw ValidationError.of('phoneNumber', "Not a number of the platform's telephony account");
    }
    const number = em.create(PhoneNumber, {
      company: scope.companyId,
      phoneNumber: phoneNumber.e164,
      countryCode: phoneNumber.countryCode,
      label: label ?? '',
    });
    try {
      await em.flush();
    } catch (err) {
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      const own = await em.fork().count(PhoneNumber, { company: scope.companyId, phoneNumber: phoneNumber.e164 });
      throw new ConflictError(own > 0 ? 'Phone number already added' : 'Phone number is in use');
    }
    return toPhoneNumberView(number);
  }

  /**
   * Relabels the number or names its answering agent, which must be the company's (else
   * NotFound, as any foreign id).
   */
  async update(caller: Caller, id: string, input: PhoneNumberUpdateInput): Promise<PhoneNumberView> {
    const { scope, em } = caller;
    const number = await findOwned(em, PhoneNumber, 'Phone number', { id: parseId(id), company: scope.companyId });
    const { label, inboundAgentId } = parseInput(updatePhoneNumberWrite, input);
    if (label !== undefined) number.label = label;
    if (inboundAgentId !== undefined) number.inboundAgent = inboundAgentId === null ? null : ref(await this.agents.getOwn(caller, inboundAgentId));
    await em.flush();
    return toPhoneNumberView(number);
  }

  async delete({ scope, em }: Caller, id: string): Promise<void> {
    const number = await findOwned(em, PhoneNumber, 'Phone number', { id: parseId(id), company: scope.companyId });
    await em.remove(number).flush();
  }
}
