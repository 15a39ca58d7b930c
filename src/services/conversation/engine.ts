import { setTimeout as sleep } from 'node:timers/promises';
import type { TransferMode } from '../../entities/ai-agent.entity';
import type { StateMachine } from './agent-flow';
import { type CallAction, type CallTool, runTools } from './call-tools';
import { chatHistory, historyOfTurns } from './chat-history';
import type { Conversation, ConversationEndReason, ConversationSink, MachineMoment } from './conversation';
import { type ChatMessage, type LanguageModel, LanguageModelError } from './language-model';
import type { Resumption } from './resumption';
import { spokenTurns, transferSummary } from './transfer-summary';
import { SilenceWatch, type SilenceSettings } from './silence';

/** One turn of the transcript, as stored on the call (docs/agents.md, "Transcript"). */
export interface TurnRecord {
  role: 'agent' | 'user';
  text: string;
  at: Date;
  /** Agent turns answering a final user utterance: ms from that utterance to the first token sent. */
  latencyMs?: number;
}

/** What the engine needs of the agent, already resolved for this call. */
export interface EngineSettings {
  /** The system prompt, placeholders filled. */
  systemPrompt: string;
  /** The states of `agent_flow`: the current one's prompt joins the system prompt. */
  states: StateMachine;
  agentTalksFirst: boolean;
  /** On the provider's scale; undefined leaves the server's default. */
  temperature: number | undefined;
  tools: CallTool[];
  silence: SilenceSettings;
  /** Said before anything else, not interruptible; empty: none. */
  openingDisclosure: string;
  /** The agent's first turn instead of the model's greeting (only when it talks first); empty: none. */
  welcomeGreeting: string;
  /** Waited before answering the callee (`responsiveness`), so that an utterance that follows joins the same answer. */
  answerDelayMs: number;
  /** Set for a session that takes the call's conversation up again: it starts from these turns. */
  resumption?: Resumption;
  /** How `transfer_call` hands the caller over: `warm` plays the hold audio (when set) while a summary is made for the person. */
  transfer: { mode: TransferMode; holdAudioUrl: string | null };
}

/** Where the transcript goes: told the whole of it after each change (a turn added, an agent turn cut short). */
export interface TranscriptRecorder {
  save(turns: readonly TurnRecord[]): void;
  /** Resolves once everything saved so far is stored. */
  settled(): Promise<void>;
}

export interface EngineDeps {
  model: LanguageModel;
  sink: ConversationSink;
  recorder: TranscriptRecorder;
  now?: () => number;
  /** Told once the conversation is closed. */
  onClose?: () => void;
}

/** The system prompt and tools of the agent's next answer: the current state's prompt and go_to_state join them. */
export function turnContext(settings: EngineSettings): { system: string; tools: CallTool[] } {
  const { states } = settings;
  const stateTool = states.tool();
  return {
    system: [settings.systemPrompt, states.prompt()].filter((p) => p !== '').join('\n\n'),
    tools: stateTool ? [...settings.tools, stateTool] : settings.tools,
  };
}

/** Said when the model fails, before the call ends with `llm_error`. */
export const APOLOGY = "I'm sorry, I'm having technical trouble and have to end the call. Goodbye.";
/** Said when the model's answer has neither words nor tool calls (an empty or refused answer), instead of silence. */
export const EMPTY_ANSWER_LINE = "Sorry, I didn't catch that. Could you say it again?";
/**
 * Said to the model on the callee's side, for one answer only, when the callee has been silent
 * (a user turn: mid-history system messages are refused by common chat templates).
 */
export const REMINDER = '[The caller has said nothing for a while. In one short sentence, check whether they are still there.]';
/** Rounds of tool calls one agent turn may take before it must end. */
const MAX_TOOL_ROUNDS = 4;

interface Turn {
  controller: AbortController;
  /** Text sent to the sink so far. */
  sent: string;
  /** Tool calls the model made in this turn. */
  toolCalls: number;
  /** Set when the callee spoke over the turn: what they heard. */
  heard?: string;
  historyStart: number;
}

/** Whether `action` ends the call only after a goodbye the turn has not said yet. */
const waitsForGoodbye = (action: CallAction, turn: Turn) => action.kind === 'end' && action.afterGoodbye === true && turn.sent.trim() === '';

/**
 * The agent on a call, knowing no transport. Inputs are serialised (one turn at a time); an
 * input that starts a new turn cancels the turn in flight first. The history keeps what the
 * callee heard: a turn cut short keeps only `spokenSoFar`.
 */
export class ConversationEngine implements Conversation {
  private readonly history: ChatMessage[] = [];
  private readonly transcript: TurnRecord[] = [];
  private turn: Turn | null = null;
  /** The last agent turn, while it may still be cut by an interruption. */
  private lastAgent: { historyStart: number; transcriptIndex: number } | null = null;
  private queue: Promise<void> = Promise.resolve();
  /** Callee inputs (utterances, keys) queued and not yet taken: while one is, the one before it is not answered. */
  private newerInputs = 0;
  private promptAt: number | null = null;
  private ended = false;
  /** Aborted by `close`: what is still asked of the model once the conversation ended (a transfer's summary) stops. */
  private readonly closing = new AbortController();
  /** An answering machine answered: the callee's side is no longer heard. */
  private machine = false;
  private readonly silenceWatch: SilenceWatch;
  private readonly now: () => number;

  constructor(
    private readonly settings: EngineSettings,
    private readonly deps: EngineDeps,
  ) {
    this.now = deps.now ?? Date.now;
    this.silenceWatch = new SilenceWatch(settings.silence, () => void this.silence(), this.now);
    if (settings.resumption) this.history.push(...historyOfTurns(settings.resumption.turns));
  }

  start(): Promise<void> {
    return this.enqueue(async () => {
      if (this.settings.resumption) return this.takeUp(this.settings.resumption);
      const { openingDisclosure: disclosure, welcomeGreeting } = this.settings;
      if (disclosure !== '') {
        this.record({ role: 'agent', text: disclosure, at: new Date(this.now()) });
        this.deps.sink.say(disclosure);
      }
      if (welcomeGreeting !== '') this.greet(welcomeGreeting);
      else if (this.settings.agentTalksFirst) await this.respond();
      else this.silenceWatch.arm();
    });
  }

  /**
   * The welcome greeting as the agent's first turn, without asking the model: sent unless the
   * transport has said it itself (Twilio's `welcomeGreeting`); kept, and cut when interrupted,
   * like any agent turn.
   */
  private greet(greeting: string): void {
    if (!this.deps.sink.welcomeGreetingSpoken) this.deps.sink.text(greeting, true);
    this.history.push({ role: 'assistant', content: greeting });
    const transcriptIndex = this.record({ role: 'agent', text: greeting, at: new Date(this.now()) });
    this.lastAgent = { historyStart: this.history.length - 1, transcriptIndex };
    this.silenceWatch.arm();
  }

  /**
   * The agent's next turn for a conversation given in full (the playground): `turns` join the
   * history as they were said, then the agent answers them as on a call; with no turns, the
   * call opens (disclosure, greeting, or the wait for the callee). Resolves once the turn is over.
   */
  answerConversation(turns: readonly { role: 'agent' | 'user'; text: string }[]): Promise<void> {
    if (turns.length === 0) return this.start();
    this.history.push(...historyOfTurns(turns));
    this.promptAt = this.now();
    return this.enqueue(() => this.respond());
  }

  /**
   * A session taking the conversation up again: its line at once (the transcript holds only
   * this session's turns; the recorder keeps those stored before), then the model goes on.
   */
  private async takeUp({ line, note }: Resumption): Promise<void> {
    this.record({ role: 'agent', text: line, at: new Date(this.now()) });
    this.history.push({ role: 'assistant', content: line });
    this.deps.sink.text(line, true);
    await this.respond(note);
  }

  userSaid(text: string, final: boolean): Promise<void> {
    if (this.ended || this.machine) return Promise.resolve();
    this.silenceWatch.reset();
    if (!final || text.trim() === '') return Promise.resolve();
    return this.input(text.trim(), text.trim());
  }

  interrupted(spokenSoFar: string): void {
    // Only blanks heard is nothing heard: the turn leaves no text behind (docs/agents.md, "What the callee does").
    const heard = spokenSoFar.trim() === '' ? '' : spokenSoFar;
    if (this.turn) {
      this.turn.heard = heard;
      this.turn.controller.abort();
    } else if (this.lastAgent) {
      this.cutHistory(this.lastAgent.historyStart, heard);
      this.cutTranscript(this.lastAgent.transcriptIndex, heard);
    }
    this.lastAgent = null;
  }

  dtmf(digit: string): Promise<void> {
    if (this.ended || this.machine || !/^[0-9*#A-D]$/.test(digit)) return Promise.resolve();
    this.silenceWatch.reset();
    return this.input(`[The caller pressed ${digit}]`, `[pressed ${digit}]`);
  }

  /**
   * A callee input: cancels the turn in flight and is answered, unless newer input came
   * meanwhile: then it only joins the history, and the newest answers them all. So a burst
   * of utterances makes one model request, never one each (one request in flight per call).
   */
  private input(forModel: string, forTranscript: string): Promise<void> {
    this.cancelTurn();
    this.newerInputs++;
    return this.enqueue(async () => {
      this.newerInputs--;
      this.promptAt = this.now();
      this.addUserTurn(forModel, forTranscript);
      if (this.newerInputs === 0) await this.respond();
    });
  }

  silence(): Promise<void> {
    return this.enqueue(async () => {
      if (this.silenceWatch.exhausted()) {
        this.finish({ kind: 'end' }, 'max_silence');
        return;
      }
      this.promptAt = null;
      await this.respond(REMINDER);
    });
  }

  async answeringMachine(moment: MachineMoment, message: string | null): Promise<void> {
    if (this.ended) return;
    this.machine = true;
    this.silenceWatch.reset();
    this.cancelTurn();
    if (moment === 'greeting') return;
    this.ended = true;
    await this.queue;
    if (message !== null && message.trim() !== '') {
      this.record({ role: 'agent', text: message.trim(), at: new Date(this.now()) });
      this.deps.sink.say(message.trim());
    }
    this.deps.sink.end('voicemail_reached');
  }

  /** Resolves once the turn in flight is canceled and the transcript stored. */
  async close(_reason: ConversationEndReason): Promise<void> {
    this.ended = true;
    this.silenceWatch.reset();
    this.cancelTurn();
    this.closing.abort();
    this.deps.onClose?.();
    await this.queue;
    await this.deps.recorder.settled();
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(() => (this.ended || this.machine ? undefined : work()));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private cancelTurn(): void {
    this.turn?.controller.abort();
  }

  private addUserTurn(forModel: string, forTranscript: string): void {
    this.lastAgent = null;
    this.history.push({ role: 'user', content: forModel });
    this.record({ role: 'user', text: forTranscript, at: new Date(this.now()) });
  }

  private record(turn: TurnRecord): number {
    this.transcript.push(turn);
    this.deps.recorder.save(this.transcript);
    return this.transcript.length - 1;
  }

  /** Keeps only what the callee heard of an agent turn: its first message says it, the rest say nothing. */
  private cutHistory(historyStart: number, heard: string): void {
    this.history.slice(historyStart).forEach((m, i) => {
      if (m.role === 'assistant') m.content = i === 0 ? heard : '';
    });
  }

  /** After a canceled turn, the history holds what was sent (or heard) of its unfinished round too. */
  private settleHistory(turn: Turn): void {
    const inHistory = this.history.slice(turn.historyStart).reduce((n, m) => n + (m.role === 'assistant' ? m.content.length : 0), 0);
    const unfinished = turn.sent.slice(inHistory);
    if (unfinished !== '') this.history.push({ role: 'assistant', content: unfinished });
    if (turn.heard !== undefined) this.cutHistory(turn.historyStart, turn.heard);
  }

  /** Cuts a stored agent turn to what was heard; one of which nothing was heard is dropped (it was never said). */
  private cutTranscript(transcriptIndex: number, heard: string): void {
    const turn = this.transcript[transcriptIndex];
    if (!turn || turn.text === heard) return;
    if (heard === '') this.transcript.splice(transcriptIndex, 1);
    else this.transcript[transcriptIndex] = { ...turn, text: heard };
    this.deps.recorder.save(this.transcript);
  }

  /** One agent turn: the model's answer streamed to the sink, its tools run, then what they ask. */
  private async respond(note?: string): Promise<void> {
    const turn: Turn = { controller: new AbortController(), sent: '', toolCalls: 0, historyStart: this.history.length };
    this.turn = turn;
    const startedFrom = this.promptAt;
    let firstTokenAt: number | null = null;
    let action: CallAction | null = null;
    let failed = false;
    try {
      if (startedFrom !== null) await this.answerDelay(turn.controller.signal);
      action = await this.generate(turn, note, () => (firstTokenAt ??= this.now()));
      if (turn.sent === '' && turn.toolCalls === 0) this.sayInstead(turn, EMPTY_ANSWER_LINE);
      else this.deps.sink.text('', true);
    } catch (err) {
      if (!(err instanceof LanguageModelError) || err.kind !== 'aborted') failed = true;
    } finally {
      this.turn = null;
    }
    if (failed) {
      const apology = `${turn.sent === '' || /\s$/.test(turn.sent) ? '' : ' '}${APOLOGY}`;
      this.deps.sink.text(apology, true);
      turn.sent += apology;
    }
    const latencyMs = startedFrom !== null && firstTokenAt !== null ? firstTokenAt - startedFrom : undefined;
    this.promptAt = null;
    const text = turn.heard ?? turn.sent;
    if (turn.controller.signal.aborted) this.settleHistory(turn);
    if (text !== '') {
      const index = this.record({ role: 'agent', text, at: new Date(firstTokenAt ?? this.now()), ...(latencyMs === undefined ? {} : { latencyMs }) });
      this.lastAgent = turn.heard === undefined ? { historyStart: turn.historyStart, transcriptIndex: index } : null;
    }
    if (failed) this.finish({ kind: 'end' }, 'llm_error');
    else if (action?.kind === 'transfer') await this.transfer(action.number);
    else if (action) this.finish(action, 'agent_hangup');
    else if (!turn.controller.signal.aborted) this.silenceWatch.arm();
  }

  /**
   * Streams rounds of the model until it stops calling tools or asks for an action; an end
   * after a goodbye (do_not_call) in a turn that said nothing yet takes one more round, for
   * the goodbye, whose own tool calls change nothing.
   */
  private async generate(turn: Turn, note: string | undefined, onFirstToken: () => void): Promise<CallAction | null> {
    const { signal } = turn.controller;
    let ending: CallAction | null = null;
    for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
      const { system, tools } = turnContext(this.settings);
      const messages = chatHistory(system, this.history, note);
      const answer = await this.deps.model.stream({ messages, tools: tools.map((t) => t.spec), temperature: this.settings.temperature, signal }, (token) => {
        onFirstToken();
        turn.sent += token;
        this.deps.sink.text(token, false);
      });
      this.history.push({ role: 'assistant', content: answer.text, ...(answer.toolCalls.length ? { toolCalls: answer.toolCalls } : {}) });
      turn.toolCalls += answer.toolCalls.length;
      if (answer.toolCalls.length === 0) return ending;
      const { results, action } = await runTools(answer.toolCalls, tools, this.deps.sink, signal, ending);
      this.history.push(...results.map((r) => ({ role: 'tool' as const, toolCallId: r.toolCallId, content: r.content })));
      if (ending || (action && !waitsForGoodbye(action, turn))) return action;
      ending = action;
      if (signal.aborted) throw new LanguageModelError('aborted', 'The turn was canceled');
    }
    return ending;
  }

  /** The agent's wait before answering the callee; a newer input ends it (and this turn). */
  private async answerDelay(signal: AbortSignal): Promise<void> {
    if (this.settings.answerDelayMs <= 0) return;
    await sleep(this.settings.answerDelayMs, undefined, { signal }).catch(() => undefined);
    if (signal.aborted) throw new LanguageModelError('aborted', 'The turn was canceled');
  }

  /** Speaks `line` as the whole turn, in the history too. */
  private sayInstead(turn: Turn, line: string): void {
    turn.sent = line;
    this.history.push({ role: 'assistant', content: line });
    this.deps.sink.text(line, true);
  }

  private finish(action: CallAction, reason: ConversationEndReason): void {
    this.ended = true;
    this.silenceWatch.reset();
    if (action.kind === 'transfer') this.deps.sink.transfer(action.number, null);
    else this.deps.sink.end(reason);
  }

  /** A warm transfer plays the hold audio while the model summarises the conversation for the person; a cold one goes at once. */
  private async transfer(number: string): Promise<void> {
    const { mode, holdAudioUrl } = this.settings.transfer;
    if (mode === 'cold') return this.finish({ kind: 'transfer', number }, 'call_transfer');
    this.ended = true;
    this.silenceWatch.reset();
    if (holdAudioUrl) this.deps.sink.play(holdAudioUrl);
    this.deps.sink.transfer(number, await transferSummary(this.deps.model, spokenTurns(this.history), this.closing.signal));
  }
}
