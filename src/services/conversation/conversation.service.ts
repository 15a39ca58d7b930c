import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { AiAgent, Call } from '../../entities';
import { LIVE_STATUSES } from '../../entities/call.entity';
import type { Logger } from '../../logger';
import type { Clock } from '../shared/clock';
import type { EventPublisher } from '../platform/events';
import type { FlowRunner } from '../flows/flow-runner';
import type { VoicemailAction } from '../../entities/ai-agent.entity';
import type { EventBus } from '../platform/events';
import { machineMomentOf } from '../telephony/answering-machine';
import { engineSettingsOf, voicemailMessageOf } from './agent-settings';
import type { Conversation, ConversationOpener, ConversationOpening, ConversationSink } from './conversation';
import { ConversationEngine, type TranscriptRecorder, type TurnRecord } from './engine';
import { CompanyFlowInvoker } from './flow-tools';
import { CallOptOut } from './opt-out';
import type { LanguageModel, TokenUsage } from './language-model';
import { resumptionOf, storedTurnsOf } from './resumption';
import type { StoredTurn } from './transcript';
import { storedTurnOf, writeTranscript } from './transcript.store';
import { readOpeningCall } from './conversation.store';
import type { AgentSettings } from '../agents/agent.contract';
import type { ViewReads } from '../../db/statements';
import { settingsOfVersion } from '../agents/agent-version.store';
import type { CallPrices } from '../calls/call-cost';
import { readableAgents } from '../agents/agent-ownership';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The settings a call runs with (docs/agents.md, "Versions"): its agent's published version
 * when it names one, else the agent's draft (the company's own agent, or a catalogue
 * template); null when there is no such agent (deleted since).
 */
export async function agentOfCall(em: EntityManager, call: Pick<Call, 'aiAgent' | 'aiAgentVersion' | 'company'>): Promise<AgentSettings | null> {
  if (call.aiAgentVersion !== null) return settingsOfVersion(em, call.company.id, call.aiAgent.id, call.aiAgentVersion);
  return em.findOne(AiAgent, { id: call.aiAgent.id, ...readableAgents(call.company.id) });
}

interface CallRef {
  id: string;
  companyId: string;
  campaignId: string | null;
  workspace: string;
  language: string;
}

/**
 * Writes a call's transcript as it grows, one write at a time and in order; while one is
 * under way only the newest transcript waits (it contains the others). Each write is
 * published as `call.updated`. A failed write is logged: the next turn writes everything again.
 * A session that takes the conversation up again writes after the turns stored before it
 * (`prior`, kept as stored), and no write replaces a transcript of more turns than this writer
 * last wrote (a dropped session's late write never erases the turns of the one after it, while
 * a session may still leave out a turn of its own the callee never heard).
 */
class TranscriptWriter implements TranscriptRecorder {
  private waiting: { turns: readonly StoredTurn[]; usage: TokenUsage } | null = null;
  private writing: Promise<void> | null = null;
  /** How many turns this writer's last write stored. */
  private written = 0;
  /** The model's tokens of this conversation already added to the call's. */
  private stored: TokenUsage = { input: 0, output: 0 };
  /**
   * Each turn as stored, while the transcript holds it: a turn that changes is replaced, never
   * changed in place (LiveTranscript), so each save converts only the turns new since the last.
   */
  private readonly storedTurns = new WeakMap<TurnRecord, StoredTurn>();

  constructor(
    private readonly reads: ViewReads,
    private readonly events: EventPublisher,
    private readonly logger: Logger,
    private readonly call: CallRef,
    private readonly prior: readonly StoredTurn[],
    private readonly prices: CallPrices,
  ) {}

  save(turns: readonly TurnRecord[], usage: TokenUsage): void {
    this.waiting = { turns: [...this.prior, ...turns.map((turn) => this.storedTurn(turn))], usage };
    this.writing ??= this.drain();
  }

  private storedTurn(turn: TurnRecord): StoredTurn {
    let stored = this.storedTurns.get(turn);
    if (!stored) this.storedTurns.set(turn, (stored = storedTurnOf(turn)));
    return stored;
  }

  /** Resolves once every transcript given so far is written. */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    while (this.waiting) {
      const { turns, usage } = this.waiting;
      this.waiting = null;
      await this.write(turns, usage).catch((err: unknown) => this.logger.warn({ err, callId: this.call.id }, 'transcript write failed'));
    }
    this.writing = null;
  }

  private async write(turns: readonly StoredTurn[], usage: TokenUsage): Promise<void> {
    const { id, companyId, campaignId, workspace } = this.call;
    const added = { input: usage.input - this.stored.input, output: usage.output - this.stored.output };
    await writeTranscript(this.reads, this.call, { turns, atMost: Math.max(turns.length, this.written) }, added, this.prices);
    this.written = turns.length;
    this.stored = usage;
    await this.events.publish('call.updated', { companyId, callId: id, campaignId, workspace });
  }
}

/** A conversation held by this process, with what it does when a machine answers. */
interface LiveConversation {
  conversation: Conversation;
  companyId: string;
  voicemailAction: VoicemailAction;
  /** The agent's voicemail message for this call, filled. */
  voicemailMessage: string;
}

/**
 * Opens the conversation of a live call with its agent (docs/agents.md): the call and its
 * agent are read in the call's company (or the agent is a template), and every turn lands
 * on the call as it happens. Answering-machine verdicts reach the conversations this process
 * holds through the bus (`call.machine`, `listen`), or are found stored when one opens.
 */
export class ConversationService implements ConversationOpener {
  private readonly live = new Map<string, LiveConversation>();

  constructor(
    private readonly orm: MikroORM,
    /** Where the transcripts' writes run (the side pool's prepared statements). */
    private readonly reads: ViewReads,
    private readonly model: LanguageModel,
    private readonly events: EventPublisher,
    private readonly logger: Logger,
    private readonly flows: FlowRunner,
    /** What a call's parts cost: each transcript write prices its model tokens. */
    private readonly prices: CallPrices,
    /** When a caller's opt-out is listed. */
    private readonly clock: Clock,
  ) {}

  async open(callId: string, sink: ConversationSink, opening: ConversationOpening = 'new', providerSid?: string): Promise<Conversation | null> {
    if (!UUID.test(callId)) return null;
    // One statement on the reads' pool: the call, by id alone (the relay's setup names only the call), and its agent's settings.
    const call = await readOpeningCall(this.reads, callId);
    if (!call || !LIVE_STATUSES.includes(call.callStatus)) return null;
    if (providerSid !== undefined && (call.callSid === '' || call.callSid !== providerSid)) return null;
    const { agent } = call;
    if (!agent) return null;
    const prior = opening === 'new' ? [] : storedTurnsOf(call.transcriptObject);
    const writer = new TranscriptWriter(
      this.reads,
      this.events,
      this.logger,
      { id: call.id, companyId: call.companyId, campaignId: call.campaignId, workspace: call.workspace, language: agent.language },
      prior,
      this.prices,
    );
    const context = { call_id: call.id, contact_id: call.contactId, call_from: call.callFrom, call_to: call.callTo };
    const flows = new CompanyFlowInvoker(this.orm, this.flows, call.companyId, context);
    const settings = { ...engineSettingsOf(agent, call, { flows, optOut: new CallOptOut(this.orm, this.logger, this.clock, call) }), resumption: resumptionOf(opening, prior) };
    const engine = new ConversationEngine(settings, {
      model: this.model,
      sink,
      recorder: writer,
      onClose: () => this.live.delete(call.id),
    });
    const live: LiveConversation = {
      conversation: engine,
      companyId: call.companyId,
      voicemailAction: agent.voicemailAction,
      voicemailMessage: voicemailMessageOf(agent, call),
    };
    this.live.set(call.id, live);
    if (call.machineDetection) void this.answeringMachine(call.id, live, call.machineDetection);
    return engine;
  }

  /** Acts on the answering-machine verdicts the bus announces for the conversations of this process. */
  listen(bus: Pick<EventBus, 'subscribe'>): void {
    bus.subscribe('call.machine', ({ callId }) => {
      const live = this.live.get(callId);
      if (!live) return;
      void this.orm.em
        .fork()
        .findOne(Call, { id: callId, company: live.companyId }, { fields: ['machineDetection'] })
        .then((call) => call?.machineDetection && this.answeringMachine(callId, live, call.machineDetection))
        .catch((err: unknown) => this.logger.warn({ err, callId }, 'answering-machine verdict not applied'));
    });
  }

  /**
   * What the agent does on a machine (docs/agents.md, "Answering machines"): under `continue`,
   * nothing; else it stops at the greeting and, at its end, leaves the message under
   * `leave_message` (`hangup` and fax are hung up through the provider, not here).
   */
  private async answeringMachine(callId: string, live: LiveConversation, verdict: string): Promise<void> {
    const moment = machineMomentOf(verdict);
    if (moment === null || live.voicemailAction === 'continue') return;
    if (moment === 'message_end' && live.voicemailAction !== 'leave_message') return;
    this.logger.info({ callId, verdict }, 'answering machine on the call');
    await live.conversation.answeringMachine(moment, live.voicemailAction === 'leave_message' ? live.voicemailMessage : null);
  }
}
