import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../logger';
import type { Clock } from '../shared/clock';
import { insertNumbers } from '../do-not-call/do-not-call.store';
import type { OptOutList } from './call-tools';

/** The `reason` of a number the callee asked, during a call, to put on the do-not-call list. */
export const CALLER_OPT_OUT = 'caller_opt_out';

const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * The do-not-call list of a call's company, for its `do_not_call` tool: the other party's
 * number (`call_to` of an outgoing call, `call_from` of an incoming one) is listed with the
 * reason `caller_opt_out`, once (a number already listed keeps its first reason and date). A
 * caller without a number (anonymous, a SIP address) has nothing to list.
 */
export class CallOptOut implements OptOutList {
  constructor(
    private readonly orm: MikroORM,
    private readonly logger: Logger,
    private readonly clock: Clock,
    private readonly call: { id: string; companyId: string; callDirection: string; callFrom: string; callTo: string },
  ) {}

  async optOut(): Promise<'listed' | 'withheld'> {
    const { id: callId, companyId } = this.call;
    const number = this.call.callDirection === 'incoming' ? this.call.callFrom : this.call.callTo;
    if (!E164.test(number)) return 'withheld';
    try {
      await insertNumbers(this.orm.em.fork(), companyId, [number], CALLER_OPT_OUT, this.clock.now());
    } catch (err) {
      this.logger.error({ err, callId }, 'the number of a caller who opted out could not be put on the do-not-call list');
      throw err;
    }
    this.logger.info({ callId }, 'the caller opted out: number put on the do-not-call list');
    return 'listed';
  }
}
