import { DoNotCallNumber } from '../../entities';
import { type DoNotCallView, toDoNotCallView } from './do-not-call.contract';
import { insertNumbers } from './do-not-call.store';
import { NotFoundError } from '../shared/errors';
import { addDoNotCallInput, type DoNotCallAddInput, type DoNotCallListInput, listDoNotCallInput, removeDoNotCallInput } from './do-not-call.input';
import { newestFirst, type Page } from '../shared/pagination';
import type { Clock } from '../shared/clock';
import type { PhoneParser } from '../shared/phone';
import type { Caller } from '../shared/scope';
import { parseInput } from '../shared/validation';

/**
 * A company's do-not-call list: numbers it must never call. make-call refuses them
 * (`isSuppressed`); the campaign dialer checks the table in its own SQL.
 */
export class DoNotCallService {
  readonly addInput;
  private readonly removeInput;

  constructor(
    phones: PhoneParser,
    private readonly clock: Clock,
  ) {
    this.addInput = addDoNotCallInput(phones);
    this.removeInput = removeDoNotCallInput(phones);
  }

  /**
   * Lists up to 10,000 numbers in one statement. Idempotent: a number already listed stays
   * as it was (its first reason and date are kept). Answers the entries for the numbers
   * given, in the order first given, whether listed now or before.
   */
  async add({ scope, em }: Caller, input: DoNotCallAddInput): Promise<DoNotCallView[]> {
    const { numbers, reason } = parseInput(this.addInput, input);
    const wanted = [...new Set(numbers.map((n) => n.e164))];
    await insertNumbers(em, scope.companyId, wanted, reason ?? null, this.clock.now());
    const listed = await em.find(DoNotCallNumber, { company: scope.companyId, phoneNumber: { $in: wanted } });
    const byNumber = new Map(listed.map((entry) => [entry.phoneNumber, toDoNotCallView(entry)]));
    return wanted.flatMap((n) => byNumber.get(n) ?? []);
  }

  /** The list, newest first, a page at a time. */
  async list({ scope, em }: Caller, input: DoNotCallListInput): Promise<Page<DoNotCallView>> {
    const found = await newestFirst(em, DoNotCallNumber, { company: scope.companyId }, parseInput(listDoNotCallInput, input));
    return { ...found, items: found.items.map(toDoNotCallView) };
  }

  /** How many numbers the company has listed. */
  async count({ scope, em }: Caller): Promise<number> {
    return em.count(DoNotCallNumber, { company: scope.companyId });
  }

  /** Takes `number` (any accepted format) off the list; NotFoundError when it is not listed. */
  async remove({ scope, em }: Caller, number: string): Promise<DoNotCallView> {
    const { number: parsed } = parseInput(this.removeInput, { number });
    const entry = await em.findOne(DoNotCallNumber, { company: scope.companyId, phoneNumber: parsed.e164 });
    if (!entry) throw new NotFoundError('Do-not-call number');
    await em.remove(entry).flush();
    return toDoNotCallView(entry);
  }
}
