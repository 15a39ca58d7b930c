import type { EntityManager } from '@mikro-orm/postgresql';
import { Call } from '../../entities';
import type { AgentSettings } from '../agents/agent.contract';
import { agentOfCall } from './conversation.service';
import type { Logger } from '../../logger';
import type { Transitioned } from '../calls/call-transitions';
import type { Clock } from '../shared/clock';
import type { EventPublisher } from '../platform/events';
import type { JobAttempt } from '../platform/jobs/job-catalogue';
import type { JobQueue } from '../platform/jobs/job-queue';
import type { Caller } from '../shared/scope';
import { jobSql } from '../platform/jobs/job-sql';
import { describeError } from '../shared/errors';
import type { FlowEvents } from '../flows/flow-outbox';
import { type AnalysisAnswer, analysisAnswerSchema, analysisJsonSchema, outcomeDefinitions } from './analysis-schema';
import { type LanguageModel, LanguageModelError, type LanguageModelErrorKind } from './language-model';
import { type StoredTurn, transcriptText } from './transcript';
import { storableValue } from '../../db/storable';

export const ANALYZE_CALL_JOB = 'call.analyze';
/** Answers asked for before an analysis is recorded as failed. */
const MAX_ANSWERS = 3;
/** Failures of the model that a later retry of the job may not meet. */
const PASSING_FAILURES = new Set<LanguageModelErrorKind>(['http', 'unreachable', 'timeout']);

const INSTRUCTIONS =
  'You analyse a finished phone call between an AI agent and a callee. The agent was told:\n\n{prompt}\n\n' +
  'Answer with the JSON the schema asks for: a short summary, the callee sentiment, whether the agent completed its task and why, and each outcome.';

export type Analysis = { ok: true; answer: AnalysisAnswer } | { ok: false; reason: string };

/** The turns of a call's transcript. */
const turnsOf = (call: Call): StoredTurn[] => ((call.transcriptObject?.turns ?? []) as StoredTurn[]).filter((t) => t && typeof t.text === 'string');

/** Whether the analysis takes an ended call: answered, with at least one word from the callee. */
export const analyzable = (call: Call): boolean => call.callStatus === 'completed' && turnsOf(call).some((t) => t.role === 'user');

/** Runs in the transaction that stores a call's analysis; returns what announces its work after commit. */
export type AnalysisListener = (tx: EntityManager, call: Call) => Promise<(() => void)[]>;

/**
 * Post-call analysis (docs/agents.md): once a call with at least one user turn has ended, a
 * durable job asks the model once for a JSON answer fitting the agent's outcomes; an answer
 * that does not fit is asked again, then recorded as failed with its reason.
 */
export class PostCallAnalysisService {
  private readonly storedListeners: AnalysisListener[] = [];

  constructor(
    private readonly jobs: JobQueue,
    private readonly model: LanguageModel,
    private readonly events: EventPublisher,
    private readonly flowEvents: FlowEvents,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** How long after a call ends it is read (LLM_ANALYSIS_DELAY_MS): the conversation's last turn lands on the call first. */
    private readonly delayMs: number,
  ) {}

  /** Registers what runs in the transaction that stores an analysis (the campaign's flow). */
  onStored(listener: AnalysisListener): void {
    this.storedListeners.push(listener);
  }

  /** In the transaction that ends a call: queues the analysis of an answered call (once per call; it exists if and only if the call ended). */
  async callEnded(tx: EntityManager, call: Transitioned): Promise<void> {
    if (call.status !== 'completed') return;
    await this.jobs.prepare(ANALYZE_CALL_JOB);
    await this.jobs.send(ANALYZE_CALL_JOB, { companyId: call.companyId, callId: call.id }, { db: jobSql(tx), singletonKey: call.id, delayMs: this.delayMs });
  }

  /**
   * Job handler: analyses a call of the caller's company. Idempotent: a call already
   * analyzed (or failed) is left alone.
   */
  async analyze({ scope, em }: Caller, callId: string, attempt: JobAttempt = { last: true }): Promise<void> {
    const { companyId } = scope;
    const call = await em.findOne(Call, { id: callId, company: companyId });
    if (!call || call.agentTaskStatus !== '' || !analyzable(call)) return;
    const turns = turnsOf(call);
    const agent = await agentOfCall(em, call);
    if (!agent) return;
    const result = await analyzeTranscript(this.model, agent, turns, attempt, this.logger);
    const answered = result.ok
      ? {
          agentPostCallOutcomes: result.answer.outcomes,
          analysisSentiment: result.answer.sentiment,
          agentTaskStatus: result.answer.task_status,
          agentTaskFeedback: result.answer.task_feedback,
          notes: result.answer.summary,
        }
      : { agentTaskStatus: 'analysis_failed', agentTaskFeedback: result.reason.slice(0, 2000) };
    // A model's words are stored as PostgreSQL can hold them (a NUL becomes U+FFFD).
    const fields = storableValue(answered);
    // The flows subscribed to `call.analyzed`, and the campaign's flow when it reads the
    // outcomes, are triggered if and only if the analysis is stored.
    const announcements = await em.transactional(async (tx) => {
      const stored = await tx.nativeUpdate(Call, { id: callId, company: companyId, agentTaskStatus: '' }, fields);
      if (stored === 0) return null;
      await this.flowEvents.record(tx, 'call.analyzed', { id: callId, companyId }, this.clock.now());
      const analysed = tx.assign(call, fields);
      const announced: (() => void)[] = [];
      for (const listener of this.storedListeners) announced.push(...(await listener(tx, analysed)));
      return announced;
    });
    if (!announcements) return;
    await this.flowEvents.queue(companyId);
    announcements.forEach((announce) => announce());
    const event = { companyId, callId, campaignId: call.campaign?.id ?? null, workspace: call.workspaceId };
    await this.events.publish('call.updated', event);
    await this.events.publish('call.analyzed', event);
  }
}

/**
 * The post-call analysis of a transcript by `agent`'s outcomes: asks until an answer fits, up
 * to MAX_ANSWERS. A model that fails for a moment (429, 5xx, unreachable, too slow) is left to
 * the job's next retry, minutes later, rather than asked again at once, unless this is the
 * job's last attempt. Test calls are analysed so too (docs/agents.md, "Criteria").
 */
export async function analyzeTranscript(
  model: LanguageModel,
  agent: Pick<AgentSettings, 'prompt' | 'agentPostCallOutcomes'>,
  turns: readonly StoredTurn[],
  attempt: JobAttempt,
  logger?: Logger,
): Promise<Analysis> {
  const outcomes = outcomeDefinitions(agent.agentPostCallOutcomes);
  const schema = analysisJsonSchema(outcomes);
  const check = analysisAnswerSchema(outcomes);
  const messages = [
    { role: 'system' as const, content: INSTRUCTIONS.replace('{prompt}', agent.prompt || '(no prompt)') },
    { role: 'user' as const, content: transcriptText(turns) },
  ];
  let reason = '';
  for (let i = 0; i < MAX_ANSWERS; i++) {
    try {
      const parsed = check.safeParse(await model.structured({ messages, schemaName: 'post_call_analysis', schema }));
      if (parsed.success) return { ok: true, answer: parsed.data };
      reason = `The answer did not fit the schema: ${parsed.error.issues.map((iss) => `${iss.path.join('.') || 'answer'}: ${iss.message}`).join('; ')}`;
    } catch (err) {
      if (!attempt.last && err instanceof LanguageModelError && PASSING_FAILURES.has(err.kind)) throw err;
      reason = describeError(err);
    }
    logger?.warn({ reason, attempt: i + 1 }, 'post-call analysis answer refused');
  }
  return { ok: false, reason };
}
