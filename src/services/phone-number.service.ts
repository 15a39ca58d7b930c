import { ref, UniqueConstraintViolationException } from '@mikro-orm/core';
import { PhoneNumber } from '../entities';
import type { AgentService } from './agent.service';
import { ConflictError } from './errors';
import { createPhoneNumberWrite, updatePhoneNumberWrite } from './input/phone-number.input';
import type { Naming } from './naming';
import type { PhoneParser } from './phone';
import { type PhoneNumberView, toPhoneNumberView } from './phone-number.contract';
import { findOwned, parseId } from './records';
import type { Caller } from './scope';
import { parseWrite } from './validation';

/** Numbers a company owns: the only numbers it may call from. */
export class PhoneNumberService {
  /** Input schemas built with this service's phone parser, under both namings; /openapi.json describes the documented one. */
  private readonly createWrite;
  readonly createInput;

  constructor(
    phones: PhoneParser,
    private readonly agents: AgentService,
  ) {
    this.createWrite = createPhoneNumberWrite(phones);
    this.createInput = this.createWrite.snake_case;
  }

  async list({ scope, em }: Caller): Promise<PhoneNumberView[]> {
    return (await em.find(PhoneNumber, { company: scope.companyId }, { orderBy: { createdAt: 'desc', id: 'desc' } })).map(toPhoneNumberView);
  }

  /** `input` is named as `naming` says. */
  async create({ scope, em }: Caller, input: unknown, naming: Naming = 'snake_case'): Promise<PhoneNumberView> {
    const { phoneNumber, label } = parseWrite(this.createWrite, input, naming);
    const number = em.create(PhoneNumber, {
      company: scope.companyId,
      phoneNumber: phoneNumber.e164,
      countryCode: phoneNumber.countryCode,
      label: label ?? '',
    });
    try {
      await em.flush();
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) throw new ConflictError('Phone number already added');
      throw err;
    }
    return toPhoneNumberView(number);
  }

  /**
   * Relabels the number or names its answering agent, which must be the company's (else
   * NotFound, as any foreign id). `input` is named as `naming` says.
   */
  async update(caller: Caller, id: unknown, input: unknown, naming: Naming = 'snake_case'): Promise<PhoneNumberView> {
    const { scope, em } = caller;
    const number = await findOwned(em, PhoneNumber, 'Phone number', { id: parseId(id), company: scope.companyId });
    const { label, inboundAgentId } = parseWrite(updatePhoneNumberWrite, input, naming);
    if (label !== undefined) number.label = label;
    if (inboundAgentId !== undefined) number.inboundAgent = inboundAgentId === null ? null : ref(await this.agents.getOwn(caller, inboundAgentId));
    await em.flush();
    return toPhoneNumberView(number);
  }

  async delete({ scope, em }: Caller, id: unknown): Promise<void> {
    const number = await findOwned(em, PhoneNumber, 'Phone number', { id: parseId(id), company: scope.companyId });
    await em.remove(number).flush();
  }
}
