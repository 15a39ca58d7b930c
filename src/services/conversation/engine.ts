import { setTimeout as sleep } from 'node:timers/promises';
import { type AgentTurn, cutHistory, latencyOf, newTurn, settleHistory, waitsForGoodbye } from './agent-turn';
import { type CallAction, runTools } from './call-tools';
import { chatHistory, historyOfTurns } from './chat-history';
import { APOLOGY, EMPTY_ANSWER_LINE, type EngineDeps, type EngineSettings, REMINDER, turnContext } from './engine-settings';
import type { Conversation, ConversationEndReason, MachineMoment, SpeechEvent } from './conversation';
import { type ChatMessage, LanguageModelError } from './language-model';
import { LiveTranscript } from './live-transcript';
import { PlaybackEstimate, PlayedText } from './playback';
import type { Resumption } from './resumption';
import { SilenceWatch } from './silence';
import { spokenTurns, transferSummary } from './transfer-summary';

export { APOLOGY, EMPTY_ANSWER_LINE, type EngineDeps, type EngineSettings, REMINDER } from './engine-settings';
export type { TranscriptRecorder, TurnRecord } from './live-transcript';

/** Rounds of tool calls one agent turn may take before it must end. */
const MAX_TOOL_ROUNDS = 4;

/**
 * The agent on a call, knowing no transport. Inputs are serialised (one turn at a time); an
 * input that starts a new turn cancels the turn in flight first. The history keeps what the
 * callee heard: a turn cut short keeps only `spokenSoFar`. Silence counts from the end of the
 * agent's voice: as the transport reports it (`speech`), else as estimated from what was said.
 */
export class ConversationEngine implements Conversation {
  private readonly history: ChatMessage[] = [];
  private readonly transcript: LiveTranscript;
  private turn: AgentTurn | null = null;
  /** The last agent turn, while it may still be cut by an interruption. */
  private lastAgent: { historyStart: number; transcriptIndex: number } | null = null;
  /** The last agent turn answering the callee, while its voice-to-voice latency may still be reported. */
  private lastAnswer: number | null = null;
  /** When the transport last reported the callee's voice stopping, until the agent's voice answers it. */
  private calleeStoppedAt: number | null = null;
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
  private readonly playback: PlaybackEstimate;
  private readonly played = new PlayedText();
  private readonly now: () => number;

  constructor(
    private readonly settings: EngineSettings,
    private readonly deps: EngineDeps,
  ) {
    this.now = deps.now ?? Date.now;
    this.transcript = new LiveTranscript(deps.recorder);
    this.silenceWatch = new SilenceWatch(settings.silence, () => void this.silence(), this.now, deps.timers);
    this.playback = new PlaybackEstimate(settings.voiceSpeed, this.now);
    if (settings.resumption) this.history.push(...historyOfTurns(settings.resumption.turns));
  }

  start(): Promise<void> {
    return this.enqueue(async () => {
      if (this.settings.resumption) return this.takeUp(this.settings.resumption);
      const { openingDisclosure: disclosure, welcomeGreeting } = this.settings;
      if (disclosure !== '') this.sayLine(disclosure);
      if (welcomeGreeting !== '') this.greet(welcomeGreeting);
      else if (this.settings.agentTalksFirst) await this.respond();
      else this.silenceWatch.arm(this.playback.end(), true);
    });
  }

  /**
   * The welcome greeting as the agent's first turn, without asking the model: sent unless the
   * transport has said it itself (Twilio's `welcomeGreeting`); kept, and cut when interrupted,
   * like any agent turn.
   */
  private greet(greeting: string): void {
    if (!this.deps.sink.welcomeGreetingSpoken) this.deps.sink.text(greeting, true);
    this.playback.sent(greeting);
    this.history.push({ role: 'assistant', content: greeting });
    const transcriptIndex = this.transcript.add({ role: 'agent', text: greeting, at: new Date(this.now()) });
    this.lastAgent = { historyStart: this.history.length - 1, transcriptIndex };
    this.silenceWatch.arm(this.playback.end(), true);
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
    this.transcript.add({ role: 'agent', text: line, at: new Date(this.now()) });
    this.history.push({ role: 'assistant', content: line });
    this.deps.sink.text(line, true);
    this.playback.sent(line);
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
      cutHistory(this.history, this.lastAgent.historyStart, heard);
      this.transcript.cut(this.lastAgent.transcriptIndex, heard);
    }
    this.lastAgent = null;
  }

  dtmf(digit: string): Promise<void> {
    if (this.ended || this.machine || !/^[0-9*#A-D]$/.test(digit)) return Promise.resolve();
    this.silenceWatch.reset();
    return this.input(`[The caller pressed ${digit}]`, `[pressed ${digit}]`, digit);
  }

  speech(event: SpeechEvent): void {
    if (event.kind === 'tokensPlayed') {
      this.played.played(event.text);
      return;
    }
    if (this.ended || this.machine) return;
    if (event.kind === 'agentSpeaking') {
      if (event.on) this.agentVoice(event.at);
      else this.agentSilent();
      return;
    }
    if (event.on) {
      this.calleeStoppedAt = null;
      this.silenceWatch.reset();
      return;
    }
    this.calleeStoppedAt = event.at;
    // A sound that no utterance follows (a cough): silence counts again from now.
    if (!this.turn && this.newerInputs === 0) this.silenceWatch.arm();
  }

  /** The agent's voice started: silence waits; an answer to the callee's speech gets its voice-to-voice latency. */
  private agentVoice(at: number): void {
    this.silenceWatch.pause();
    const stopped = this.calleeStoppedAt;
    const turn = this.turn;
    if (stopped === null || (turn && turn.firstTextAt === undefined)) return;
    this.calleeStoppedAt = null;
    const ms = Math.max(0, at - stopped);
    if (!turn && this.lastAnswer !== null) this.transcript.voiceToVoice(this.lastAnswer, ms);
    else if (turn && turn.answering !== null) turn.voiceToVoiceMs ??= ms;
  }

  /** The agent's voice stopped: silence counts from now, unless a turn is still running (its end arms the count). */
  private agentSilent(): void {
    if (this.turn) this.silenceWatch.resume();
    else this.silenceWatch.playbackEnded();
  }

  /**
   * A callee input: cancels the turn in flight and is answered, unless newer input came
   * meanwhile: then it only joins the history, and the newest answers them all. So a burst
   * of utterances makes one model request, never one each (one request in flight per call).
   */
  private input(forModel: string, forTranscript: string, dtmf?: string): Promise<void> {
    this.cancelTurn();
    this.played.calleeSpoke();
    this.newerInputs++;
    return this.enqueue(async () => {
      this.newerInputs--;
      this.promptAt = this.now();
      this.addUserTurn(forModel, forTranscript, dtmf);
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
    if (message !== null && message.trim() !== '') this.sayLine(message.trim());
    this.deps.sink.end('voicemail_reached');
  }

  /** Resolves once the turn in flight is canceled and the transcript stored, cut to what the callee heard. */
  async close(_reason: ConversationEndReason): Promise<void> {
    this.ended = true;
    this.silenceWatch.reset();
    this.cancelTurn();
    this.closing.abort();
    this.deps.onClose?.();
    await this.queue;
    const tail = this.transcript.agentTail();
    const heard = this.played.heard(tail.map((t) => t.text));
    if (heard)
      this.transcript.keepHeard(
        tail.map((t) => t.index),
        heard,
      );
    this.transcript.flush();
    await this.transcript.settled();
  }

  /** Resolves once every input given so far has been handled (a simulated caller's clock waits on it between silences). */
  idle(): Promise<void> {
    return this.queue;
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(() => (this.ended || this.machine ? undefined : work()));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private cancelTurn(): void {
    this.turn?.controller.abort();
  }

  private addUserTurn(forModel: string, forTranscript: string, dtmf: string | undefined): void {
    this.lastAgent = null;
    this.history.push({ role: 'user', content: forModel });
    this.transcript.add({ role: 'user', text: forTranscript, at: new Date(this.now()), ...(dtmf === undefined ? {} : { dtmf }) });
  }

  /** A whole line said as is (a disclosure, a voicemail message), stored as an agent turn. */
  private sayLine(line: string): void {
    this.transcript.add({ role: 'agent', text: line, at: new Date(this.now()) });
    this.deps.sink.say(line);
    this.playback.sent(line);
  }

  /** A piece of `turn` sent to the callee. */
  private speak(turn: AgentTurn, token: string, last: boolean): void {
    if (token !== '') {
      turn.firstTextAt ??= this.now();
      turn.sent += token;
      this.playback.sent(token);
    }
    this.deps.sink.text(token, last);
  }

  /** One agent turn: the model's answer streamed to the sink, its tools run, then what they ask. */
  private async respond(note?: string): Promise<void> {
    const turn = newTurn(this.history.length, this.promptAt, this.now());
    this.turn = turn;
    this.lastAnswer = null;
    let action: CallAction | null = null;
    let failed = false;
    try {
      if (turn.answering !== null) await this.answerDelay(turn.controller.signal);
      action = await this.generate(turn, note);
      if (turn.sent === '' && turn.toolCalls === 0) this.sayInstead(turn, EMPTY_ANSWER_LINE);
      else this.speak(turn, '', true);
    } catch (err) {
      if (!(err instanceof LanguageModelError) || err.kind !== 'aborted') failed = true;
    } finally {
      this.turn = null;
    }
    if (failed) this.speak(turn, `${turn.sent === '' || /\s$/.test(turn.sent) ? '' : ' '}${APOLOGY}`, true);
    this.promptAt = null;
    this.recordTurn(turn);
    if (failed) this.finish({ kind: 'end' }, 'llm_error');
    else if (action?.kind === 'transfer') await this.transfer(action.number);
    else if (action) this.finish(action, 'agent_hangup');
    else if (!turn.controller.signal.aborted) this.silenceWatch.arm(this.playback.end(), true);
  }

  /** Stores what the callee heard of `turn`, with its latencies, and keeps it open to an interruption. */
  private recordTurn(turn: AgentTurn): void {
    const text = turn.heard ?? turn.sent;
    if (turn.controller.signal.aborted) settleHistory(this.history, turn);
    if (text === '') return;
    const { answering, modelTextAt } = turn;
    const latencyMs = answering !== null && modelTextAt !== undefined ? modelTextAt - answering : undefined;
    const latency = latencyOf(turn);
    const index = this.transcript.add({
      role: 'agent',
      text,
      at: new Date(modelTextAt ?? this.now()),
      ...(latencyMs === undefined ? {} : { latencyMs }),
      ...(latency ? { latency } : {}),
      ...(turn.heard === undefined ? {} : { interrupted: true }),
    });
    this.lastAgent = turn.heard === undefined ? { historyStart: turn.historyStart, transcriptIndex: index } : null;
    if (answering !== null && turn.voiceToVoiceMs === undefined) this.lastAnswer = index;
  }

  /**
   * Streams rounds of the model until it stops calling tools or asks for an action; an end
   * after a goodbye (do_not_call) in a turn that said nothing yet takes one more round, for
   * the goodbye, whose own tool calls change nothing.
   */
  private async generate(turn: AgentTurn, note: string | undefined): Promise<CallAction | null> {
    const { signal } = turn.controller;
    let ending: CallAction | null = null;
    for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
      const { system, tools } = turnContext(this.settings);
      const messages = chatHistory(system, this.history, note);
      turn.modelAskedAt ??= this.now();
      const request = { messages, tools: tools.map((t) => t.spec), temperature: this.settings.temperature, signal, onFirstToken: () => (turn.modelFirstTokenAt ??= this.now()) };
      const answer = await this.deps.model.stream(request, (token) => {
        this.speak(turn, token, false);
        turn.modelTextAt ??= turn.firstTextAt;
      });
      if (answer.usage) this.transcript.used(answer.usage);
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
  private sayInstead(turn: AgentTurn, line: string): void {
    this.history.push({ role: 'assistant', content: line });
    this.speak(turn, line, true);
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
    if (mode === 'cold') {
      this.finish({ kind: 'transfer', number }, 'call_transfer');
      return;
    }
    this.ended = true;
    this.silenceWatch.reset();
    if (holdAudioUrl) this.deps.sink.play(holdAudioUrl);
    this.deps.sink.transfer(number, await transferSummary(this.deps.model, spokenTurns(this.history), this.closing.signal));
  }
}
