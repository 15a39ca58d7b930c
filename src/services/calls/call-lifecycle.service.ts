import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Call } from '../../entities';
import { type CallStatus, type DynamicVariable, LIVE_STATUSES } from '../../entities/call.entity';
import { PREDECESSORS, type Transitioned, transitionFields } from './call-transitions';
import { alone, type ViewReads, within, type Within } from '../../db/statements';
import {
  applyTransition,
  type CallToPlace,
  companiesWithUndispatchedCalls,
  claimStrandedCall,
  dispatchWaitingCalls,
  lockCompanyCalls,
  overdueSimulatedCalls,
  sidsInUse,
  simulatedCall,
  slotsTaken,
  storeCallSid,
} from './call.store';
import type { FlowEventName } from '../../entities/webhook-flow.entity';
import type { Logger } from '../../logger';
import type { Clock } from '../shared/clock';
import type { EventPublisher } from '../platform/events';
import { AppError, ConflictError } from '../shared/errors';
import { KeptWrites } from './kept-writes';
import type { FlowEvents } from '../flows/flow-outbox';
import type { JobQueue } from '../platform/jobs/job-queue';
import type { Caller, RecordKey } from '../shared/scope';
import type { SimulatedCallee } from '../conversation/simulated-callee';
import {
  NEXT_STEP,
  type SimulatedCallRecord,
  type SimulatedLiveStatus,
  type SimulatedStepRun,
  type SimulatedTelephony,
  simulatedTransferStatus,
  talksWithCallee,
} from '../telephony/simulated.telephony';
import { startTransfer } from './call-transfer.store';
import type { StatusUpdate, TelephonyAdapter } from '../telephony/telephony';
import { forgetRelaySessions } from '../telephony/relay-session.store';
import { signedTwilioCall, verifiedTwilio } from '../telephony/twilio-callback';
import type { CallPrices } from './call-cost';

/** The flow event a transition to `status` is: the first `in-progress` starts a call, a terminal status ends it. */
function callEventOf(status: CallStatus): FlowEventName | null {
  if (status === 'in-progress') return 'call.started';
  return LIVE_STATUSES.includes(status) ? null : 'call.ended';
}

/** An incoming call to store, as the inbound service resolved it. */
export interface NewInboundCall {
  companyId: string;
  aiAgentId: string;
  /** The agent's version the call runs; null: the draft. */
  aiAgentVersion: number | null;
  campaignId: string | null;
  contactId: string | null;
  workspace: string;
  provider: string;
  callSid: string;
  from: string;
  to: string;
  isTest: boolean;
  dynamicVariables: DynamicVariable[];
  priceUnit: string;
}

/** A stored incoming call: `admitted` when it took a concurrent-call slot, else it was refused busy. */
export interface AdmittedInbound {
  callId: string;
  admitted: boolean;
}

export interface LifecycleOptions {
  /** What a call's parts cost (its end stamps them: calls/call-cost.ts). */
  prices: CallPrices;
  /** Outgoing calls of a company live at once (make-call and campaigns); more wait. */
  maxConcurrentPerCompany: number;
  /** Incoming calls of a company live at once, counted apart, so callers cannot stall its campaigns; more are refused busy. */
  maxConcurrentInboundPerCompany: number;
  maxCallDurationS: number;
  /** The call sweep's period: a simulated call's step overdue by more than this is taken by the sweep. */
  sweepMs: number;
}

/** Most calls of each kind one pass of the call sweep takes. */
const SWEEP_LIMIT = 500;
/** A dispatched call not placed for this long is placed again by the call sweep. */
const STRANDED_AFTER_MS = 30_000;
/** A live Twilio call without news for this long is checked with Twilio by the call sweep. */
const RECONCILE_AFTER_MS = 60_000;

/**
 * Moves calls through their statuses, durably: dispatching within the company's
 * concurrency limit, placing through the provider, applying provider updates (duplicates
 * and out-of-order updates change nothing), ending calls that outlive the maximum duration.
 */
export class CallLifecycleService {
  private readonly endedListeners: ((call: Transitioned) => Promise<void>)[] = [];
  private readonly endingListeners: ((tx: EntityManager, call: Transitioned) => Promise<void>)[] = [];
  private simulatedCallee: SimulatedCallee | null = null;
  private readonly simulatedConversations = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  /**
   * Provider sids of calls placed while the database refused to store them, by call id: kept
   * and stored again until stored (docs/calls.md, "Outages"), so that the sweep does not dial
   * these calls again and cancel can hang them up.
   */
  private readonly unstoredSids: KeptWrites;
  /** Provider callbacks the database refused, kept and applied again (Twilio does not retry them). */
  private readonly unstoredCallbacks: KeptWrites;
  private callbacksKept = 0;

  constructor(
    private readonly orm: MikroORM,
    /** The pool the lifecycle's hot statements run on outside transactions (`hotStatement`). */
    private readonly reads: ViewReads,
    private readonly jobs: JobQueue,
    private readonly provider: TelephonyAdapter,
    /** The simulated provider: `provider` itself, or beside Twilio for simulate-inbound. */
    private readonly simulated: SimulatedTelephony,
    private readonly events: EventPublisher,
    private readonly clock: Clock,
    private readonly options: LifecycleOptions,
    private readonly logger: Logger,
    private readonly flowEvents: FlowEvents,
  ) {
    this.unstoredSids = new KeptWrites(logger, 'call placed but its sid');
    this.unstoredCallbacks = new KeptWrites(logger, 'provider callback');
    simulated.drive((step) => {
      this.advanceSimulated(step).catch((err: unknown) =>
        this.logger.warn({ err, callId: step.callId, company_id: step.companyId, step: step.step }, 'simulated call step failed; the call sweep takes it again'),
      );
    });
  }

  /** Queues new calls of one company for dialing: each is announced, one dispatch gives them slots. */
  async enqueueMany(companyId: string, calls: { id: string; campaignId: string | null; workspace: string }[]): Promise<void> {
    if (calls.length === 0) return;
    await Promise.all(calls.map((c) => this.events.publish('call.updated', { companyId, callId: c.id, campaignId: c.campaignId, workspace: c.workspace })));
    await this.jobs.send('call.dispatch', { companyId }, { singletonKey: companyId });
  }

  /**
   * Registers what runs after a call reaches a terminal status (the campaign dialer counts
   * the attempt). Best effort: a listener that fails, or a crash before it runs, is made up
   * for by the listener's own sweep.
   */
  onEnded(listener: (call: Transitioned) => Promise<void>): void {
    this.endedListeners.push(listener);
  }

  /**
   * Registers what is written in the transaction that stores a call's terminal status (the
   * post-call analysis job): it exists if and only if the call ended. A failure rolls the
   * transition back, as for `alongside`.
   */
  onEnding(listener: (tx: EntityManager, call: Transitioned) => Promise<void>): void {
    this.endingListeners.push(listener);
  }

  /**
   * Job handler: gives waiting calls of the caller's company the free concurrent-call slots,
   * oldest first, and places them. A per-company advisory lock makes two replicas dispatching
   * at once count the same slots. A call dispatched but not placed (this process died, or its
   * placing failed) is placed again by the call sweep.
   */
  async dispatch({ scope, em }: Caller): Promise<void> {
    const { companyId } = scope;
    const picked = await em.transactional(async (tx) => {
      await lockCompanyCalls(tx, companyId);
      return dispatchWaitingCalls(tx, companyId, this.options.maxConcurrentPerCompany, this.clock.now());
    });
    const placed = await Promise.allSettled(picked.map((call) => this.placeDispatched(companyId, call)));
    placed.forEach((result, i) => {
      if (result.status === 'rejected') this.logger.warn({ err: result.reason, callId: picked[i].id }, 'call not placed; the call sweep places it again');
    });
  }

  /**
   * Takes the company's concurrent-call slots (locked until `tx` ends, so two replicas count
   * the same slots) and answers how many incoming-call slots are free.
   */
  private async freeInboundSlots(tx: EntityManager, companyId: string): Promise<number> {
    await lockCompanyCalls(tx, companyId);
    return this.options.maxConcurrentInboundPerCompany - (await slotsTaken(tx, companyId, 'incoming'));
  }

  /**
   * Stores an incoming call, ringing, and answers it (`in-progress`) when its company has a
   * free incoming-call slot (`maxConcurrentInboundPerCompany`; outgoing calls hold their own),
   * else ends it `busy` (disconnect_reason `concurrency_limit`).
   * Both through `applyUpdate`, as any provider update. The provider's CallSid makes it
   * idempotent: a repeated webhook finds the call stored the first time.
   */
  async admitInbound(spec: NewInboundCall): Promise<AdmittedInbound> {
    const em = this.orm.em.fork();
    const now = this.clock.now();
    const stored = await em.transactional(async (tx) => {
      const free = await this.freeInboundSlots(tx, spec.companyId);
      const known = await tx.findOne(Call, { company: spec.companyId, callSid: spec.callSid, callDirection: 'incoming' }, { fields: ['id', 'dispatchedAt'] });
      if (known) return { callId: known.id, admitted: known.dispatchedAt !== null, fresh: false };
      const call = tx.create(Call, {
        company: spec.companyId,
        aiAgent: spec.aiAgentId,
        aiAgentVersion: spec.aiAgentVersion,
        campaign: spec.campaignId,
        contact: spec.contactId,
        workspaceId: spec.workspace,
        callProvider: spec.provider,
        callSid: spec.callSid,
        callFrom: spec.from,
        callTo: spec.to,
        callStatus: 'ringing',
        callDirection: 'incoming',
        isTest: spec.isTest,
        priceUnit: spec.priceUnit,
        agentDynamicVariables: spec.dynamicVariables,
        dispatchedAt: free > 0 ? now : null,
        createdAt: now,
        updatedAt: now,
      });
      return { callId: call.id, admitted: free > 0, fresh: true };
    });
    if (stored.fresh) {
      const update: StatusUpdate = stored.admitted ? { status: 'in-progress', at: now } : { status: 'busy', at: now, disconnectReason: 'concurrency_limit' };
      await this.applyUpdate({ id: stored.callId, companyId: spec.companyId }, update);
    }
    return { callId: stored.callId, admitted: stored.admitted };
  }

  /**
   * Job handler: places again a call the sweep found stranded (dispatched over
   * STRANDED_AFTER_MS ago, no provider sid), once: it claims the call first, so that two jobs
   * or two replicas placing it at once dial it once; a call placed meanwhile, or ended, is
   * left alone. Dispatch places the calls it picks.
   */
  async place({ scope, em }: Caller, callId: string): Promise<void> {
    if (this.unstoredSids.has(callId)) return;
    const now = this.clock.now();
    const call = await claimStrandedCall(em, { id: callId, companyId: scope.companyId }, new Date(now.getTime() - STRANDED_AFTER_MS), now);
    if (!call) return;
    const adopted = await this.placedBefore(em, scope.companyId, call);
    if (adopted) {
      this.logger.warn({ callId, sid: adopted }, 'call found already placed at the provider: its sid is adopted, not dialled again');
      await storeCallSid(alone, this.reads, { id: callId, companyId: scope.companyId }, adopted);
      return;
    }
    await this.placeDispatched(scope.companyId, call);
  }

  /**
   * A provider call placed for `call` whose sid was never stored (its process lost it with the
   * database down, or died): placed since its dispatch, from and to its numbers, and held by no
   * other call of the company; the oldest such. Null: none, the call may be dialled.
   */
  private async placedBefore(em: EntityManager, companyId: string, call: CallToPlace): Promise<string | null> {
    const candidates = await this.provider.placedSince(call, call.dispatchedAt);
    const taken = await sidsInUse(em, companyId, candidates);
    return candidates.find((sid) => !taken.has(sid)) ?? null;
  }

  /** Asks the provider to dial a call just dispatched and stores its sid; a call the provider refuses ends `failed`. */
  private async placeDispatched(companyId: string, call: CallToPlace): Promise<void> {
    const key = { id: call.id, companyId };
    let sid: string;
    try {
      sid = await this.provider.place({ callId: call.id, companyId, from: call.from, to: call.to, agent: call.agent, recording: call.recording });
    } catch (err) {
      this.logger.warn({ err, callId: call.id }, 'provider refused the call');
      await this.applyUpdate(key, { status: 'failed', at: this.clock.now(), disconnectReason: 'provider_error' });
      return;
    }
    await this.unstoredSids.run(call.id, () => storeCallSid(alone, this.reads, key, sid), { callId: call.id, sid });
  }

  /**
   * Stores a status change if the call's current status allows it (stamping the fields of
   * the new status, mirroring it on the contact and writing the flow event it is,
   * `call.started` or `call.ended`, atomically: `applyTransition`), publishes it, asks for
   * the delivery of its flow events and, when the call ends, frees its slot. The ending
   * listeners write in the transition's own transaction. Returns false when the update was
   * stale or a duplicate.
   */
  async applyUpdate(call: RecordKey, update: StatusUpdate): Promise<boolean> {
    if (PREDECESSORS[update.status].length === 0) return false;
    const em = this.orm.em.fork();
    const fields = transitionFields(update);
    const store = (on: Within) => applyTransition(on, this.reads, call, fields, update, callEventOf(update.status), this.options.prices, this.clock.now());
    const ending = !LIVE_STATUSES.includes(update.status) && this.endingListeners.length > 0;
    const done = ending
      ? await em.transactional(async (tx) => {
          const stored = await store(within(tx));
          if (stored) for (const listener of this.endingListeners) await listener(tx, stored);
          return stored;
        })
      : await store(alone);
    if (!done) return false;
    await Promise.all([
      this.events.publish('call.updated', { companyId: done.companyId, callId: done.id, campaignId: done.campaignId, workspace: done.workspace }),
      done.flowEvents ? this.flowEvents.queue(done.companyId) : undefined,
    ]);
    if (!LIVE_STATUSES.includes(done.status)) {
      await this.jobs.send('call.dispatch', { companyId: done.companyId }, { singletonKey: done.companyId });
      for (const listener of this.endedListeners) {
        await listener(done).catch((err: unknown) => this.logger.warn({ err, callId: done.id }, 'call-ended listener failed'));
      }
    }
    return true;
  }

  /**
   * Takes one step of a simulated call (its timer fired, or the sweep found it overdue) and
   * schedules the next in this process. Idempotent: a step the call's status no longer allows
   * changes nothing, so a timer and a sweep taking the same step store it once.
   */
  private async advanceSimulated({ call: known, ...step }: SimulatedStepRun): Promise<void> {
    const key = { id: step.callId, companyId: step.companyId };
    const call = known ?? (await simulatedCall(alone, this.reads, key));
    if (!call || !LIVE_STATUSES.includes(call.callStatus)) return;
    const now = this.clock.now();
    const { update, next } = this.simulated.outcome(step.step, call, call.agent, now);
    if (!(await this.applyUpdate(key, { ...update, at: now }))) return;
    const after: SimulatedCallRecord = { ...call, callStatus: update.status, startedAt: update.status === 'in-progress' ? now : call.startedAt };
    if (next) this.simulated.schedule({ ...step, step: next.step, call: after }, next.delayMs);
    if (step.step === 'answer' && update.status === 'in-progress') this.converseSimulated(key, after);
  }

  /**
   * A simulated incoming call was answered (simulate-inbound): its 'hangup' step is scheduled
   * and, with a model, it talks with the simulated caller as an answered outgoing call does.
   */
  async answeredSimulated(companyId: string, callId: string): Promise<void> {
    this.simulated.answered(companyId, callId);
    const key = { id: callId, companyId };
    const call = await simulatedCall(alone, this.reads, key);
    if (call?.callStatus === 'in-progress') this.converseSimulated(key, call);
  }

  /** Starts the conversation of an answered simulated call with its simulated callee, when a model is configured. */
  private converseSimulated(key: RecordKey, call: SimulatedCallRecord): void {
    if (!this.simulated.conversations || !this.simulatedCallee || this.stopping.signal.aborted) return;
    if (!talksWithCallee(call)) return;
    this.startSimulatedConversation(this.simulatedCallee, key, call.contact, call.agent.language);
  }

  /**
   * With a language model, answered simulated calls talk with a simulated callee
   * (docs/calls.md, "Simulated provider").
   */
  useSimulatedCallee(callee: SimulatedCallee): void {
    this.simulatedCallee = callee;
  }

  /** Resolves once every simulated conversation under way in this process has ended its call. */
  async simulatedConversationsSettled(): Promise<void> {
    while (this.simulatedConversations.size) await Promise.all(this.simulatedConversations);
  }

  /**
   * Shutting down: the simulated calls' steps not yet taken are dropped, and the conversations
   * under way stop where they are, keeping what is stored; the call sweep of a worker replica
   * takes each call's next step once it is overdue.
   */
  async stopSimulated(): Promise<void> {
    this.simulated.stop();
    this.stopping.abort();
    this.unstoredSids.stop();
    this.unstoredCallbacks.stop();
    await this.simulatedConversationsSettled();
  }

  /**
   * Runs the conversation in this process's memory, beside the call's safety-net 'hangup' step
   * (the call is answered), then completes the call with how it ended.
   */
  private startSimulatedConversation(callee: SimulatedCallee, key: RecordKey, contact: Parameters<SimulatedCallee['run']>[1], language: string): void {
    const run = (async () => {
      const live = async () => {
        const call = await this.orm.em.fork().findOne(Call, { id: key.id, company: key.companyId }, { fields: ['callStatus'] });
        return !!call && LIVE_STATUSES.includes(call.callStatus);
      };
      const transferred = (number: string, summary: string | null) => this.simulatedTransfer(key, number, summary);
      const reason = await callee.run(key.id, contact, language, { signal: this.stopping.signal, live, transferred });
      if (reason) await this.applyUpdate(key, { status: 'completed', at: this.clock.now(), disconnectReason: reason });
    })()
      .catch((err: unknown) => this.logger.warn({ err, callId: key.id }, 'simulated conversation failed'))
      .finally(() => this.simulatedConversations.delete(run));
    this.simulatedConversations.add(run);
  }

  /**
   * The agent of a simulated call transferred it (a warm transfer has its `summary`): the
   * transfer is recorded with its result at once (`simulatedTransferStatus`); answers whether
   * the agent comes back, as on Twilio: a warm transfer nobody took (docs/calls.md, "Transfers").
   */
  private async simulatedTransfer(key: RecordKey, to: string, summary: string | null): Promise<boolean> {
    const mode = summary === null ? 'cold' : 'warm';
    const status = simulatedTransferStatus(to);
    await startTransfer(this.orm.em.fork(), key, { to, mode, status, started_at: this.clock.now().toISOString() }, summary);
    const call = await this.orm.em.fork().findOne(Call, { id: key.id, company: key.companyId }, { fields: ['campaign', 'workspaceId'] });
    if (call) await this.events.publish('call.updated', { companyId: key.companyId, callId: key.id, campaignId: call.campaign?.id ?? null, workspace: call.workspaceId });
    return mode === 'warm' && status !== 'completed';
  }

  /**
   * A Twilio status callback: trusted only with a valid signature of the exact URL Twilio
   * called (`url`) and its parameters; then applied like any provider update. The call is
   * the one named by `call_id` in the URL (outgoing calls: we set the URL when placing
   * them), else the one with the posted CallSid (incoming calls: the number's status
   * callback is one URL set in the Twilio console, docs/calls.md).
   */
  async receiveTwilioStatus(url: string, params: Record<string, string>, signature: string): Promise<void> {
    verifiedTwilio(this.provider, url, params, signature);
    const receivedAt = this.clock.now();
    // An answer of ours (an unknown call) is Twilio's to hear; anything else is an outage: the
    // callback is kept and applied again, and answered 200 (Twilio would not send it again).
    await this.unstoredCallbacks.run(
      `${++this.callbacksKept}`,
      () => this.applyTwilioStatus(url, params, signature, receivedAt),
      { url, callStatus: params.CallStatus },
      (err) => err instanceof AppError,
    );
  }

  private async applyTwilioStatus(url: string, params: Record<string, string>, signature: string, receivedAt: Date): Promise<void> {
    const em = this.orm.em.fork();
    const { twilio, call } = await signedTwilioCall(this.provider, em, url, params, signature);
    const key = { id: call.id, companyId: call.company.id };
    // A call whose sid was lost (placed while the database was down) learns it from its first callback.
    if (call.callSid === '' && params.CallSid) await storeCallSid(alone, this.reads, key, params.CallSid);
    const update = twilio.toUpdate(params, receivedAt);
    if (update) await this.applyUpdate(key, update);
  }

  /** Cancels a call not yet ended: hung up when answered, else canceled. */
  async cancel(caller: Caller, call: Call): Promise<Call> {
    if (!LIVE_STATUSES.includes(call.callStatus)) throw new ConflictError(`Call already ended (${call.callStatus})`);
    const live = call.callStatus === 'in-progress';
    // A simulated inbound call on a Twilio deployment has nothing to hang up at Twilio.
    if (call.callSid && call.callProvider === this.provider.name) await this.provider.cancel(call.callSid, live);
    const update: StatusUpdate = live ? { status: 'completed', at: this.clock.now(), disconnectReason: 'canceled' } : { status: 'canceled', at: this.clock.now(), disconnectReason: 'canceled' };
    if (!(await this.applyUpdate({ id: call.id, companyId: call.company.id }, update))) throw new ConflictError('Call already ended');
    // Reloads the managed entity (as em.refresh would, but naming its company: docs/scaling.md).
    await caller.em.findOneOrFail(Call, { id: call.id, company: call.company.id }, { refresh: true });
    return call;
  }

  /**
   * Asks the provider for the status of its live calls without news for a minute (a callback
   * lost in an outage, or with a process that died) and applies what it says, as its callback
   * would have. The simulated provider's calls are the sweep's own (their overdue steps).
   */
  private async reconcile(em: EntityManager, now: Date): Promise<void> {
    if (this.provider.name === this.simulated.name) return;
    const quiet = await em.find(
      Call,
      { callProvider: this.provider.name, callStatus: { $in: [...LIVE_STATUSES] }, callSid: { $ne: '' }, updatedAt: { $lt: new Date(now.getTime() - RECONCILE_AFTER_MS) } },
      { fields: ['id', 'company', 'callSid', 'callStatus'], limit: SWEEP_LIMIT, comments: ['sweep:calls.reconcile'] },
    );
    for (const c of quiet) {
      try {
        const update = await this.provider.currentStatus(c.callSid, now);
        if (update && update.status !== c.callStatus) await this.applyUpdate({ id: c.id, companyId: c.company.id }, update);
      } catch (err) {
        this.logger.warn({ err, callId: c.id }, 'call not reconciled with its provider; the next sweep tries again');
      }
    }
  }

  /**
   * Ends calls with no update for longer than the maximum duration as `failed` (`timeout`),
   * stores the sids and callbacks an outage kept in memory, reconciles quiet provider calls
   * with the provider, re-queues the dispatch and placing of calls a crash may have stranded, and takes the
   * overdue steps of simulated calls whose timers were lost with their process.
   */
  async sweep(): Promise<void> {
    const em = this.orm.em.fork();
    const now = this.clock.now();
    const stale = await em.find(
      Call,
      { callStatus: { $in: [...LIVE_STATUSES] }, updatedAt: { $lt: new Date(now.getTime() - this.options.maxCallDurationS * 1000) } },
      { fields: ['id', 'company'], limit: SWEEP_LIMIT, comments: ['sweep:calls.stale'] },
    );
    for (const c of stale) await this.applyUpdate({ id: c.id, companyId: c.company.id }, { status: 'failed', at: now, disconnectReason: 'timeout' });
    await Promise.all([this.unstoredSids.flush(), this.unstoredCallbacks.flush()]);
    await this.reconcile(em, now);
    await forgetRelaySessions(em, now);
    const stranded = await em.find(
      Call,
      { callStatus: 'pstn-queued', callSid: '', dispatchedAt: { $ne: null, $lt: new Date(now.getTime() - STRANDED_AFTER_MS) } },
      { fields: ['id', 'company'], limit: SWEEP_LIMIT, comments: ['sweep:calls.stranded'] },
    );
    for (const c of stranded) if (!this.unstoredSids.has(c.id)) await this.jobs.send('call.place', { companyId: c.company.id, callId: c.id });
    for (const companyId of await companiesWithUndispatchedCalls(em, new Date(now.getTime() - 5_000))) {
      await this.jobs.send('call.dispatch', { companyId }, { singletonKey: companyId });
    }
    const due = (status: SimulatedLiveStatus) => new Date(now.getTime() - this.simulated.dueAfterMs(status) - this.options.sweepMs);
    const cutoffs = { 'pstn-queued': due('pstn-queued'), ringing: due('ringing'), 'in-progress': due('in-progress') };
    for (const c of await overdueSimulatedCalls(em, this.simulated.name, cutoffs, SWEEP_LIMIT)) {
      await this.advanceSimulated({ companyId: c.companyId, callId: c.id, step: NEXT_STEP[c.status] });
    }
  }
}
