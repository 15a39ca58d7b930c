import type { TransferMode } from '../../entities/ai-agent.entity';
import type { Timers } from '../shared/clock';
import type { StateMachine } from './agent-flow';
import type { CallTool } from './call-tools';
import type { ConversationSink } from './conversation';
import type { LanguageModel } from './language-model';
import type { TranscriptRecorder } from './live-transcript';
import type { Resumption } from './resumption';
import type { SilenceSettings } from './silence';

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
  /** The agent's `voice_speed` (0-100), which the estimate of its playback's end reads. */
  voiceSpeed: number;
}

export interface EngineDeps {
  model: LanguageModel;
  sink: ConversationSink;
  recorder: TranscriptRecorder;
  now?: () => number;
  /** The timers of the silence watch (a test's fake clock, with `now`). */
  timers?: Timers;
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
