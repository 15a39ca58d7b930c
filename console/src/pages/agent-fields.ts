import type { AgentFieldsFragment } from '../gql/graphql';
import { CALL_SETTING_KEYS } from './CallSettings';

/** An agent as its page and the templates read it. */
export type Agent = AgentFieldsFragment;

/** Free-text settings: the input's key (GraphQL's errors name it too), the label. */
export const TEXTS = [
  { key: 'name', text: 'Name' },
  { key: 'description', text: 'Description' },
  { key: 'language', text: 'Language (e.g. en-US)' },
  { key: 'status', text: 'Status (free text, e.g. active)' },
  { key: 'agentType', text: 'Kind of agent (free text)' },
  { key: 'backgroundAudioStatus', text: 'Background audio (free text)' },
  { key: 'startingState', text: 'Starting state of the flow' },
] as const;

/** Numeric model and voice settings. */
export const NUMBERS = [
  { key: 'llmTemperature', text: 'Model temperature (0-100)' },
  { key: 'responsiveness', text: 'Responsiveness (0-100)' },
  { key: 'interruptionSensitivity', text: 'Interruption sensitivity (0-100)' },
  { key: 'voiceSpeed', text: 'Voice speed (0-100)' },
  { key: 'voiceTemperature', text: 'Voice temperature (0-100)' },
  { key: 'maxSilenceDuration', text: 'Longest silence (seconds)' },
  { key: 'reminderFrequencyFrom', text: 'Reminder after at least (seconds)' },
  { key: 'reminderFrequencyTo', text: 'Reminder after at most (seconds)' },
] as const;

/** Settings written as JSON objects. */
export const OBJECTS = [
  { key: 'agentFlow', text: 'Conversation flow (states and transitions, JSON)' },
  { key: 'agentDynamicVariables', text: 'Dynamic variables (JSON)' },
  { key: 'agentPostCallOutcomes', text: 'Outcomes recorded after a call (JSON)' },
] as const;

/** The fields an agent's form writes, as `createAiAgent` and `updateAiAgent` name them. */
export const ALL_KEYS = ['prompt', 'whoTalksFirst', ...TEXTS.map((t) => t.key), ...NUMBERS.map((n) => n.key), ...OBJECTS.map((o) => o.key), ...CALL_SETTING_KEYS] as const;

/** Every setting of `agent` (a template), as `createAiAgent` takes them: what a new agent copies. */
export const settingsOf = (agent: Agent) => Object.fromEntries(ALL_KEYS.map((key) => [key, agent[key]])) as Pick<Agent, (typeof ALL_KEYS)[number]>;
