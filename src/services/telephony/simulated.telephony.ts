import { createHash, randomUUID } from 'node:crypto';
import type { CallStatus, DynamicVariable, TransferStatus } from '../../entities/call.entity';
import type { VoicemailAction } from '../../entities/ai-agent.entity';
import type { StoredTurn } from '../conversation/transcript';
import { variablesOf, voicemailMessageOf, welcomeGreetingOf } from '../conversation/agent-settings';
import type { PlaceRequest, RecordingMedia, StatusUpdate, TelephonyAdapter } from './telephony';
import { rangeOf, silentWav } from './wav';

export type SimulatedStep = 'ring' | 'answer' | 'hangup';

/** One step of one simulated call. */
export interface SimulatedStepRun {
  companyId: string;
  callId: string;
  step: SimulatedStep;
  /** The call as the step before read it, carried from timer to timer so that only the first step reads it. */
  call?: SimulatedCallRecord;
}

/** The step a live simulated call takes next from each of its live statuses (a placed call is `pstn-queued` with its sid). */
export const NEXT_STEP = { 'pstn-queued': 'ring', ringing: 'answer', 'in-progress': 'hangup' } as const satisfies Partial<Record<CallStatus, SimulatedStep>>;

export type SimulatedLiveStatus = keyof typeof NEXT_STEP;

export interface SimulatedTimings {
  ringMs: number;
  talkMs: number;
}

/**
 * With a language model, an answered outgoing call talks with a simulated callee (docs/calls.md):
 * the 'hangup' step is then only a safety net, `timeoutMs` after the answer, for a conversation
 * lost with its worker; it writes no canned transcript (the conversation stored its turns).
 */
export interface SimulatedConversations {
  timeoutMs: number;
}

/** Whether a simulated call, answered, has a person on the line who talks with the agent (an incoming call always has: its caller). */
export function talksWithCallee(call: Pick<SimulatedCall, 'callTo' | 'callDirection'>): boolean {
  return call.callDirection === 'incoming' || calleeBehaviour(call.callTo) === 'person';
}

/** What the callee does, from the last four digits of the number (docs/calls.md). */
export type CalleeBehaviour = 'busy' | 'no-answer' | 'failed' | 'voicemail' | 'person';

export function calleeBehaviour(to: string): CalleeBehaviour {
  if (to.endsWith('0001')) return 'busy';
  if (to.endsWith('0002')) return 'no-answer';
  if (to.endsWith('0003')) return 'failed';
  if (to.endsWith('0004')) return 'voicemail';
  return 'person';
}

/**
 * How a simulated transfer to `number` ends, by the same last four digits as a callee's
 * (docs/calls.md, "Transfers"): `0001` busy, `0002` no-answer, `0003` failed; any other number
 * takes the call (`completed`).
 */
export function simulatedTransferStatus(number: string): Exclude<TransferStatus, 'dialing'> {
  const behaviour = calleeBehaviour(number);
  return behaviour === 'busy' || behaviour === 'no-answer' || behaviour === 'failed' ? behaviour : 'completed';
}

/** What a simulated call needs to know of the call and its agent. */
export interface SimulatedCall {
  id: string;
  callFrom: string;
  callTo: string;
  /** `incoming`: the other party is the caller, a person; else the callee, as its number says. */
  callDirection: string;
  agentDynamicVariables: DynamicVariable[];
  /** When it was answered (null before). */
  startedAt: Date | null;
}

export interface SimulatedAgent {
  name: string;
  language: string;
  whoTalksFirst: string;
  welcomeGreeting: string | null;
  voicemailAction: VoicemailAction;
  voicemailMessage: string;
  /** The agent's default variables, which the call's override (as in the prompt). */
  agentDynamicVariables: Record<string, unknown>;
}

/** A simulated call, its agent's words and its contact, as its steps and its callee need them. */
export interface SimulatedCallRecord extends SimulatedCall {
  callStatus: CallStatus;
  agent: SimulatedAgent;
  /** The call's contact, when it has one. */
  contact: { firstname: string; lastname: string; metadata: Record<string, unknown> } | null;
}

/** The next step of a simulated call: what it reports now, and what happens after how long. */
export interface StepOutcome {
  update: Omit<StatusUpdate, 'at'>;
  next?: { step: SimulatedStep; delayMs: number };
}

/**
 * The canned conversation of an answered call (no language model configured), ending at
 * `endedAt`: the agent's greeting (its welcome greeting, when it has one) and a plain scripted
 * exchange. Never the agent's prompt: it is the model's instructions, not words to say
 * (docs/calls.md, "Providers").
 */
function transcript(call: SimulatedCall, agent: SimulatedAgent, endedAt: Date): StoredTurn[] {
  const vars = new Map(call.agentDynamicVariables.map((v) => [v.name, v.value]));
  const name = vars.get('firstname') ?? vars.get('first_name') ?? vars.get('name');
  const greeting = welcomeGreetingOf(agent, variablesOf(agent, call)) || `Hello${name ? ` ${name}` : ''}, this is ${agent.name}.`;
  const lines: [StoredTurn['role'], string, number][] = [
    ['agent', greeting, 0],
    ['user', name ? `Hi, yes, this is ${name}.` : 'Hello, who is this?', 0.2],
    ['agent', 'I am calling with a short update for you. Do you have a moment?', 0.4],
    ['user', 'Sure, go ahead. Thank you.', 0.7],
    ['agent', 'Thank you for your time. Goodbye!', 0.9],
  ];
  const answeredAt = (call.startedAt ?? endedAt).getTime();
  const talkMs = endedAt.getTime() - answeredAt;
  return lines.map(([role, text, share]) => ({ role, text, at: new Date(answeredAt + Math.round(talkMs * share)).toISOString() }));
}

/**
 * How a simulated call that reached voicemail ends (docs/calls.md, "Answering machines"): at
 * once under `hangup` (its duration counted from the answer), and under `leave_message` with
 * the message, filled like the prompt, as the transcript's one agent turn.
 */
function voicemailEnd(call: SimulatedCall, agent: SimulatedAgent, now: Date): Omit<StatusUpdate, 'at'> {
  const ended = { status: 'completed' as const, disconnectReason: 'voicemail_reached' };
  if (agent.voicemailAction !== 'leave_message') return ended;
  const message = voicemailMessageOf(agent, call);
  if (message === '') return ended;
  const turn: StoredTurn = { role: 'agent', text: message, at: (call.startedAt ?? now).toISOString() };
  return { ...ended, transcript: { turns: [turn], language: agent.language } };
}

/** A stable pseudo-latency per call, 400 to 799 ms. */
const latencyOf = (callId: string) => 400 + (createHash('sha1').update(callId).digest().readUInt16BE(0) % 400);

/**
 * The default provider: no network. Each call moves through real transitions, each step
 * taken by a timer of the process that took the one before (docs/calls.md). The timers are
 * lost with the process; the durable fallback is the call itself: a live simulated call whose
 * next step is overdue (`dueAfterMs`) is advanced by the call sweep of any worker replica.
 */
export class SimulatedTelephony implements TelephonyAdapter {
  readonly name = 'simulated';
  private run: ((step: SimulatedStepRun) => void) | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    readonly timings: SimulatedTimings,
    /** Set when a language model is configured; null keeps the canned transcript. */
    readonly conversations: SimulatedConversations | null = null,
  ) {}

  /** Who takes a step when its timer fires (the call lifecycle). */
  drive(run: (step: SimulatedStepRun) => void): void {
    this.run = run;
  }

  /** Takes `step` in this process after `delayMs`. */
  schedule(step: SimulatedStepRun, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.run?.(step);
    }, delayMs);
    this.timers.add(timer);
  }

  /** Drops the steps not yet taken (the process is stopping: the call sweep of a worker replica takes them when overdue). */
  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  async place(request: PlaceRequest): Promise<string> {
    this.schedule({ companyId: request.companyId, callId: request.callId, step: 'ring' }, 0);
    return `SIM${randomUUID().replace(/-/g, '')}`;
  }

  /**
   * An incoming call was answered: it talks for the talk time, then the agent hangs up; with a
   * model, its conversation ends it, and this 'hangup' is the safety net.
   */
  answered(companyId: string, callId: string): void {
    this.schedule({ companyId, callId, step: 'hangup' }, this.talkMs(true));
  }

  /**
   * How long after its last transition a live simulated call's next step is due, by status: the
   * longest the step's timer waits (an answered call may be talking with the simulated callee).
   */
  dueAfterMs(status: SimulatedLiveStatus): number {
    if (status === 'pstn-queued') return 0;
    if (status === 'ringing') return this.timings.ringMs;
    return Math.max(this.timings.talkMs, this.conversations?.timeoutMs ?? 0);
  }

  /** How long an answered call waits for its 'hangup' step: the talk time, or the safety net of a conversation with the other party (`talks`). */
  private talkMs(talks: boolean): number {
    return this.conversations !== null && talks ? this.conversations.timeoutMs : this.timings.talkMs;
  }

  /** Nothing to hang up: the call's later steps find it ended and change nothing. */
  async cancel(): Promise<void> {}

  /** Every number: simulated calls need no carrier account. */
  async holdsNumber(): Promise<boolean> {
    return true;
  }

  /** Nothing is dialled outside this process: a simulated call placed again only rings again. */
  async placedSince(): Promise<string[]> {
    return [];
  }

  /** The call's own row is the provider's state here: the call sweep takes its overdue steps instead. */
  async currentStatus(): Promise<StatusUpdate | null> {
    return null;
  }

  /** A simulated recording: silence, as long as the call, made when asked for. */
  async recording(_sid: string, range: string | undefined, call: { durationS: number }): Promise<RecordingMedia> {
    return rangeOf(silentWav(call.durationS), 'audio/wav', range);
  }

  /** Nothing is stored at a simulated provider. */
  async deleteRecording(): Promise<void> {}

  outcome(step: SimulatedStep, call: SimulatedCall, agent: SimulatedAgent, now: Date): StepOutcome {
    const { ringMs, talkMs } = this.timings;
    const behaviour = call.callDirection === 'incoming' ? 'person' : calleeBehaviour(call.callTo);
    if (step === 'ring') return { update: { status: 'ringing' }, next: { step: 'answer', delayMs: ringMs } };
    if (step === 'answer') {
      if (behaviour === 'busy') return { update: { status: 'busy', disconnectReason: 'busy' } };
      if (behaviour === 'no-answer') return { update: { status: 'no-answer', disconnectReason: 'no_answer' } };
      if (behaviour === 'failed') return { update: { status: 'failed', disconnectReason: 'dial_failed' } };
      const outgoing = call.callDirection !== 'incoming';
      if (behaviour === 'voicemail') {
        const at = agent.voicemailAction === 'hangup' ? 0 : this.talkMs(false);
        return { update: { status: 'in-progress', answeredBy: 'machine' }, next: { step: 'hangup', delayMs: at } };
      }
      return { update: { status: 'in-progress', ...(outgoing ? { answeredBy: 'human' as const } : {}) }, next: { step: 'hangup', delayMs: this.talkMs(talksWithCallee(call)) } };
    }
    const durationS = Math.round(talkMs / 1000);
    if (behaviour === 'voicemail') return { update: voicemailEnd(call, agent, now) };
    // The conversation with the simulated callee outlived the safety net (or its worker died):
    // the call ends with what the conversation stored; the duration is the real one.
    if (this.conversations !== null && talksWithCallee(call)) return { update: { status: 'completed', disconnectReason: 'agent_hangup' } };
    return {
      update: {
        status: 'completed',
        durationS,
        disconnectReason: 'agent_hangup',
        latencyMs: latencyOf(call.id),
        transcript: { turns: transcript(call, agent, now), language: agent.language },
      },
    };
  }
}
