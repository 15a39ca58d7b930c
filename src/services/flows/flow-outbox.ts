import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { within } from '../../db/statements';
import { Call, Campaign } from '../../entities';
import type { FlowEventName } from '../../entities/webhook-flow.entity';
import type { Logger } from '../../logger';
import { AppError } from '../shared/errors';
import type { Caller, RecordKey } from '../shared/scope';
import type { JobQueue } from '../platform/jobs/job-queue';
import { jobSql } from '../platform/jobs/job-sql';
import type { RecordViews } from '../campaigns/contact-mapping';
import type { FlowRunner } from './flow-runner';
import { insertFlowEvents, lockPending, markDelivered, type PendingEvent, pendingCompanies, SUBJECT_OF } from './flow-outbox.store';

export const FLOW_EVENTS_JOB = 'flow.events';

/** Events delivered per transaction. */
const BATCH = 50;

/** How old an undelivered event must be for the sweep to ask for its delivery again. */
const STRANDED_AFTER_MS = 30_000;

export interface FlowEventsDeps {
  orm: MikroORM;
  jobs: JobQueue;
  flows: FlowRunner;
  /** The REST shapes of the records events carry. */
  views: RecordViews;
  logger: Logger;
}

/**
 * Event subscriptions of flows (docs/flows.md, "Event subscriptions"): an outbox written in
 * the transaction of the state change, delivered by a durable job that starts each
 * subscribed flow's execution in the same transaction that marks the event delivered. So
 * every event triggers each matching flow exactly once, through crashes and replicas.
 */
export class FlowEvents {
  constructor(private readonly deps: FlowEventsDeps) {}

  /**
   * Records `event` of the call or campaign `subject` for every subscribed flow whose
   * filters match it, and queues its delivery, all in `tx`: call it in the transaction
   * that stores the state change (`call.analyzed`: the one storing the analysis). After
   * that transaction commits, call `queue(companyId)`: a delivery job already waiting when
   * `tx` sent its own (which it then replaces) may have started before the commit, and
   * `queue` asks for one that sees the events, at once rather than at the next sweep.
   * An event recorded twice for the same record is delivered once.
   */
  async record(tx: EntityManager, event: FlowEventName, subject: RecordKey, occurredAt: Date): Promise<void> {
    await this.deps.jobs.prepare(FLOW_EVENTS_JOB);
    const companies = await insertFlowEvents(tx, event, subject, occurredAt);
    for (const companyId of companies) await this.deps.jobs.send(FLOW_EVENTS_JOB, { companyId }, { db: jobSql(tx), singletonKey: companyId });
  }

  /**
   * Asks for the delivery of the company's events recorded (by `record`, or by a statement
   * of their own: a call's transition, `flowEventsInsert`), after they committed. Lost with
   * a crash before it is sent, the delivery is asked for by the sweep. This process's
   * workers start at once.
   */
  async queue(companyId: string): Promise<void> {
    await this.deps.jobs.send(FLOW_EVENTS_JOB, { companyId }, { singletonKey: companyId });
    this.deps.jobs.wake(FLOW_EVENTS_JOB);
  }

  /**
   * Job handler: delivers every pending event of the caller's company, a batch per
   * transaction, each on a fork of the caller's unit of work (what a batch loads is not
   * kept for the next). Idempotent.
   */
  async deliver(caller: Caller): Promise<void> {
    for (;;) {
      const { count, announcements } = await caller.em.fork().transactional(async (tx) => {
        const pending = await lockPending(tx, caller.scope.companyId, BATCH);
        const started: (() => void)[] = [];
        for (const event of pending) {
          const announce = await this.deliverOne({ scope: caller.scope, em: tx }, event);
          if (announce) started.push(announce);
        }
        return { count: pending.length, announcements: started };
      });
      for (const announce of announcements) announce();
      if (count < BATCH) return;
    }
  }

  /** Asks again for the delivery of events a failed job left behind. */
  async sweep(): Promise<void> {
    const companies = await pendingCompanies(this.deps.orm.em.fork(), STRANDED_AFTER_MS);
    for (const companyId of companies) await this.deps.jobs.send(FLOW_EVENTS_JOB, { companyId }, { singletonKey: companyId });
  }

  /**
   * Starts the flow with `{event, occurred_at, call | campaign}` in the caller's
   * transaction. A flow that refuses (stopped or deleted since, no steps) marks the event
   * delivered with the reason.
   */
  private async deliverOne(caller: Caller, pending: PendingEvent): Promise<(() => void) | null> {
    const tx = caller.em;
    const subject = SUBJECT_OF[pending.event];
    const variables = { event: pending.event, occurred_at: pending.occurredAt.toISOString(), [subject]: this.shape(pending) };
    try {
      const { execution, announce } = await this.deps.flows.start(caller, within(tx), pending.flowId, { variables });
      await markDelivered(tx, pending.id, { executionId: execution.id });
      return announce;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      this.deps.logger.info({ err, flowId: pending.flowId, event: pending.event }, 'flow refused an event');
      await markDelivered(tx, pending.id, { refusal: err.message });
      return null;
    }
  }

  /**
   * The record as it was when the event happened, in its REST shape. Hydrated on an
   * EntityManager of its own, never flushed: the snapshot must not be written back.
   */
  private shape(pending: PendingEvent): object {
    const em = this.deps.orm.em.fork();
    return SUBJECT_OF[pending.event] === 'call' ? this.deps.views.call(em.map(Call, pending.record)) : this.deps.views.campaign(em.map(Campaign, pending.record));
  }
}
