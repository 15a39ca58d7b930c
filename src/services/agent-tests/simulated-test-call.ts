import type { AiAgent } from '../../entities';
import type { Logger } from '../../logger';
import { type CallFacts, type ConversationAgent, engineSettingsOf } from '../conversation/agent-settings';
import { CollectingSink } from '../conversation/collecting-sink';
import type { ConversationEndReason } from '../conversation/conversation';
import { ConversationEngine, type TranscriptRecorder, type TurnRecord } from '../conversation/engine';
import type { FlowInvoker } from '../conversation/flow-tools';
import type { LanguageModel } from '../conversation/language-model';
import { speechRate } from '../conversation/playback';
import { NO_LIST, parsedArguments, ReportingModel } from '../conversation/playground.service';
import { scenarioPersona, SimulatedCallee } from '../conversation/simulated-callee';
import type { StoredTurn } from '../conversation/transcript';
import { storedTurnOf } from '../conversation/transcript.store';
import type { CallerPersona, CallerTurn } from './scenario.input';
import { VirtualClock } from './virtual-clock';

/** The agent settings a test call runs with: what a conversation reads, and the outcomes its analysis asks for. */
export type RunAgent = ConversationAgent & Pick<AiAgent, 'agentPostCallOutcomes'>;

/** The caller of a test call: a script, or a persona a model plays. */
export type SimulatedCaller = { turns: CallerTurn[] } | { persona: CallerPersona };

/** What a simulated test call shows once it ended. */
export interface SimulatedCall {
  turns: StoredTurn[];
  endReason: ConversationEndReason;
  /** Who ended it: the agent (its end_call, a transfer, silence, a failure) or the caller (hung up, or the script ran out). */
  endedBy: 'agent' | 'caller';
  /** Every tool the agent's model called, in order, arguments parsed. */
  toolCalls: { name: string; arguments: unknown }[];
  /** Why the model failed, when it did. */
  error: string | null;
}

/** Keeps the transcript of a test call in memory, stored as a call's would be. */
class HeldTranscript implements TranscriptRecorder {
  turns: StoredTurn[] = [];

  save(turns: readonly TurnRecord[]): void {
    this.turns = turns.map(storedTurnOf);
  }

  async settled(): Promise<void> {}
}

/** What the caller heard of `text` when they spoke `ms` into it, at the agent's `voice_speed`: its first characters, cut at a word. */
export function heardWithin(text: string, ms: number, voiceSpeed: number): string {
  const chars = Math.floor(((ms - 500) / 1000) * speechRate(voiceSpeed));
  if (chars <= 0) return '';
  if (chars >= text.length) return text;
  return text.slice(0, chars).replace(/\s+\S*$/, '');
}

/**
 * A call of the agent with a simulated caller (docs/agents.md, "Test suites"), run by a
 * call's own engine and model, on no telephony and with no call record: its clock lets the
 * caller's silences pass at once (`VirtualClock`). A script is said step by step, each step
 * once the agent has answered the one before; a persona is the simulated callee of the
 * simulated provider with the scenario's prompt. The agent's flow tools trigger the
 * company's flows for real; end_call, transfer_call and do_not_call end the call and list
 * no one.
 */
export class SimulatedTestCall {
  constructor(
    private readonly model: LanguageModel,
    private readonly logger: Logger,
  ) {}

  /** `call`: what the placeholders read (`{{from}}`, `{{to}}`, `{{direction}}`, the dynamic variables). */
  async run(agent: RunAgent, caller: SimulatedCaller, call: CallFacts, flows: FlowInvoker): Promise<SimulatedCall> {
    const model = new ReportingModel(this.model);
    const clock = new VirtualClock();
    const transcript = new HeldTranscript();
    const sink = new CollectingSink();
    const engine = new ConversationEngine(engineSettingsOf(agent, call, { optOut: NO_LIST, flows }), { model, sink, recorder: transcript, now: clock.now, timers: clock });
    const reason = 'turns' in caller ? await this.script(engine, sink, clock, caller.turns, agent.voiceSpeed) : await this.persona(engine, caller.persona, agent.language);
    return {
      turns: transcript.turns,
      endReason: reason,
      endedBy: reason === 'user_hangup' ? 'caller' : 'agent',
      toolCalls: model.toolCalls.map((c) => ({ name: c.name, arguments: parsedArguments(c.arguments) })),
      error: model.failure,
    };
  }

  /** Says the script; the caller hangs up after its last step unless the agent ended the call first. */
  private async script(engine: ConversationEngine, sink: CollectingSink, clock: VirtualClock, turns: CallerTurn[], voiceSpeed: number): Promise<ConversationEndReason> {
    await engine.start();
    for (const turn of turns) {
      if (sink.ended) break;
      if ('silenceMs' in turn)
        await clock.advance(
          turn.silenceMs,
          () => engine.idle(),
          () => sink.ended !== null,
        );
      else if ('dtmf' in turn) for (const key of turn.dtmf) await engine.dtmf(key);
      else {
        if (turn.interruptAfterMs !== undefined) engine.interrupted(heardWithin(sink.agentTurns.at(-1) ?? '', turn.interruptAfterMs, voiceSpeed));
        await engine.userSaid(turn.say, true);
      }
    }
    const reason = sink.ended ?? 'user_hangup';
    await engine.close(reason);
    return reason;
  }

  /** The simulated provider's callee, playing the scenario's persona. */
  private async persona(engine: ConversationEngine, persona: CallerPersona, language: string): Promise<ConversationEndReason> {
    const callee = new SimulatedCallee(this.model, { open: async () => engine }, { maxTurns: persona.maxTurns, persona: scenarioPersona(persona.prompt, language) }, this.logger);
    return (await callee.run('test-call', null, language)) ?? 'user_hangup';
  }
}
