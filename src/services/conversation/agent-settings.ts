import type { AiAgent, Call } from '../../entities';
import { fillText, type Scope } from '../flows/placeholders';
import { readAgentFlow, StateMachine } from './agent-flow';
import { builtInTools, type OptOutList } from './call-tools';
import { type FlowInvoker, flowTools } from './flow-tools';
import type { EngineSettings } from './engine';
import type { RelayAgentSettings } from '../telephony/conversation-relay';

/** The agent fields a conversation reads (docs/agents.md maps each). */
export type ConversationAgent = Pick<
  AiAgent,
  | 'prompt'
  | 'language'
  | 'startingState'
  | 'whoTalksFirst'
  | 'llmTemperature'
  | 'reminderFrequencyFrom'
  | 'reminderFrequencyTo'
  | 'maxSilenceDuration'
  | 'agentFlow'
  | 'agentDynamicVariables'
  | 'openingDisclosure'
  | 'welcomeGreeting'
  | 'responsiveness'
  | 'transferMode'
  | 'holdAudioUrl'
  | 'voiceSpeed'
>;

/** The agent fields the TwiML of a call carries (`relayAgentOf`). */
export type RelayAgent = Pick<AiAgent, 'language' | 'interruptionSensitivity' | 'whoTalksFirst' | 'openingDisclosure' | 'welcomeGreeting' | 'agentDynamicVariables'>;

/** How a phone call differs from a chat, told to every model after the agent's own prompt. */
const VOICE_RULES = 'You are speaking on a phone call: your words are read aloud. Answer in short spoken sentences, without lists, markdown or emoji.';
/** Phones' call-screening assistants (iOS, Pixel) answer first and ask who is calling and why (docs/agents.md, "Answering machines"). */
export const CALL_SCREENING_RULE =
  'The call may first be answered by a call-screening assistant (such as those of iOS or Pixel phones) that asks who is calling and why: answer it in one short sentence with your name, on whose behalf you call and why, then wait for the person to join.';

/** `llm_temperature` is 0-100, a percent of the OpenAI range 0-2 (docs/agents.md). */
export const temperatureOf = (percent: number) => Math.round(percent * 2) / 100;

/**
 * How long the agent waits before answering the callee, from `responsiveness` (0-100): from
 * 50 (the default) up, at once; below, 20 ms per point, up to a second at 0 (docs/agents.md).
 */
export const answerDelayOf = (responsiveness: number) => Math.max(0, 50 - responsiveness) * 20;

/**
 * What the placeholders read of a call: its numbers and direction (`outgoing` or `incoming`,
 * as stored) for the built-in variables, and its own dynamic variables.
 */
export type CallFacts = Pick<Call, 'callFrom' | 'callTo' | 'agentDynamicVariables'> & { callDirection: string };

/** `{{now}}`: ISO 8601 in UTC, to the second (`2026-11-27T16:00:00Z`). */
const isoSecond = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The placeholder values of a call (docs/agents.md, "Placeholders"): the agent's own
 * defaults, then the built-in `{{from}}`, `{{to}}`, `{{direction}}` and `{{now}}` (`now`, when
 * the text is filled), then the call's own variables, each overriding the ones before.
 */
export function variablesOf(agent: Pick<ConversationAgent, 'agentDynamicVariables'>, call: CallFacts, now: Date = new Date()): Scope {
  const builtIn = { from: call.callFrom, to: call.callTo, direction: call.callDirection, now: isoSecond(now) };
  return { ...agent.agentDynamicVariables, ...builtIn, ...Object.fromEntries(call.agentDynamicVariables.map((v) => [v.name, v.value])) };
}

/** The message an agent leaves on an answering machine, placeholders filled like the prompt's; empty: none. */
export function voicemailMessageOf(agent: Pick<AiAgent, 'voicemailMessage' | 'agentDynamicVariables'>, call: CallFacts): string {
  return fillText(agent.voicemailMessage, variablesOf(agent, call)).trim();
}

export function systemPromptOf(agent: ConversationAgent, scope: Scope): string {
  const disclosure = openingDisclosureOf(agent, scope);
  return [
    fillText(agent.prompt, scope).trim(),
    `Speak in the language ${agent.language}.`,
    VOICE_RULES,
    CALL_SCREENING_RULE,
    disclosure ? `The call opened with this disclosure, already said to the callee: "${disclosure}". Do not repeat it.` : '',
  ]
    .filter((p) => p !== '')
    .join('\n\n');
}

/** The agent's opening disclosure for a call, placeholders filled; empty: none. */
const openingDisclosureOf = (agent: Pick<ConversationAgent, 'openingDisclosure'>, scope: Scope) => fillText(agent.openingDisclosure, scope).trim();

/** The agent's welcome greeting, placeholders filled: its first turn when it talks first; empty: none (the model greets, or the agent waits). */
export const welcomeGreetingOf = (agent: Pick<ConversationAgent, 'welcomeGreeting' | 'whoTalksFirst'>, scope: Scope) =>
  agent.whoTalksFirst === 'user' ? '' : fillText(agent.welcomeGreeting ?? '', scope).trim();

/**
 * What the TwiML of a call carries of its agent (conversation-relay.ts). The welcome greeting
 * goes as Twilio's `welcomeGreeting` only without an opening disclosure, which must be said
 * before anything else: the engine then says both over the websocket.
 */
export function relayAgentOf(agent: RelayAgent, call: CallFacts): RelayAgentSettings {
  const scope = variablesOf(agent, call);
  return {
    language: agent.language,
    interruptionSensitivity: agent.interruptionSensitivity,
    welcomeGreeting: openingDisclosureOf(agent, scope) === '' ? welcomeGreetingOf(agent, scope) : '',
  };
}

/** What a call's tools act on: its company's do-not-call list, and its flows (no flow tools without). */
export interface CallToolDeps {
  optOut: OptOutList;
  flows?: FlowInvoker | null;
}

/** Everything the engine needs, from the agent and its call. */
export function engineSettingsOf(agent: ConversationAgent, call: CallFacts, { optOut, flows = null }: CallToolDeps): EngineSettings {
  const flow = readAgentFlow(agent.agentFlow);
  const scope = variablesOf(agent, call);
  const from = Math.min(agent.reminderFrequencyFrom, agent.reminderFrequencyTo);
  const to = Math.max(agent.reminderFrequencyFrom, agent.reminderFrequencyTo);
  return {
    systemPrompt: systemPromptOf(agent, scope),
    states: new StateMachine(flow.states ?? [], agent.startingState, (text) => fillText(text, scope)),
    agentTalksFirst: agent.whoTalksFirst !== 'user',
    temperature: temperatureOf(agent.llmTemperature),
    tools: [...builtInTools(flow.transfer_numbers ?? [], optOut), ...flowTools(flow.tools ?? [], flows)],
    silence: { reminderMs: to > 0 ? { from: from * 1000, to: to * 1000 } : null, maxMs: agent.maxSilenceDuration * 1000 },
    openingDisclosure: openingDisclosureOf(agent, scope),
    welcomeGreeting: welcomeGreetingOf(agent, scope),
    answerDelayMs: answerDelayOf(agent.responsiveness),
    transfer: { mode: agent.transferMode, holdAudioUrl: agent.holdAudioUrl },
    voiceSpeed: agent.voiceSpeed,
  };
}
