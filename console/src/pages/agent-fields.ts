import type { AgentFieldsFragment } from '../gql/graphql';
import { CALL_SETTING_KEYS } from './CallSettings';

/** An agent as its page and the templates read it. */
export type Agent = AgentFieldsFragment;

/** Free-text settings: the input's key, the API's field name (for its errors), the label. */
export const TEXTS = [
  { key: 'name', field: 'name', text: 'Name' },
  { key: 'description', field: 'description', text: 'Description' },
  { key: 'language', field: 'language', text: 'Language (e.g. en-US)' },
  { key: 'status', field: 'status', text: 'Status (free text, e.g. active)' },
  { key: 'agentType', field: 'agentType', text: 'Kind of agent (free text)' },
  { key: 'backgroundAudioStatus', field: 'backgroundAudioStatus', text: 'Background audio (free text)' },
  { key: 'startingState', field: 'startingState', text: 'Starting state of the flow' },
] as const;

/** Numeric model and voice settings. */
export const NUMBERS = [
  { key: 'llmTemperature', field: 'llmTemperature', text: 'Model temperature (0-100)' },
  { key: 'responsiveness', field: 'responsiveness', text: 'Responsiveness (0-100)' },
  { key: 'interruptionSensitivity', field: 'interruptionSensitivity', text: 'Interruption sensitivity (0-100)' },
  { key: 'voiceSpeed', field: 'voiceSpeed', text: 'Voice speed (0-100)' },
  { key: 'voiceTemperature', field: 'voiceTemperature', text: 'Voice temperature (0-100)' },
  { key: 'maxSilenceDuration', field: 'maxSilenceDuration', text: 'Longest silence (seconds)' },
  { key: 'reminderFrequencyFrom', field: 'reminderFrequencyFrom', text: 'Reminder after at least (seconds)' },
  { key: 'reminderFrequencyTo', field: 'reminderFrequencyTo', text: 'Reminder after at most (seconds)' },
] as const;

/** Settings written as JSON objects. */
export const OBJECTS = [
  { key: 'agentFlow', field: 'agentFlow', text: 'Conversation flow (states and transitions, JSON)' },
  { key: 'agentDynamicVariables', field: 'agentDynamicVariables', text: 'Dynamic variables (JSON)' },
  { key: 'agentPostCallOutcomes', field: 'agentPostCallOutcomes', text: 'Outcomes recorded after a call (JSON)' },
] as const;

/** The fields an agent's form writes, as `createAiAgent` and `updateAiAgent` name them. */
export const ALL_KEYS = ['prompt', 'whoTalksFirst', ...TEXTS.map((t) => t.key), ...NUMBERS.map((n) => n.key), ...OBJECTS.map((o) => o.key), ...CALL_SETTING_KEYS] as const;

/** Every setting of `agent` (a template), as `createAiAgent` takes them: what a new agent copies. */
export const settingsOf = (agent: Agent) => Object.fromEntries(ALL_KEYS.map((key) => [key, agent[key]])) as Pick<Agent, (typeof ALL_KEYS)[number]>;
