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
  { key: 'agentType', field: 'agent_type', text: 'Kind of agent (free text)' },
  { key: 'backgroundAudioStatus', field: 'background_audio_status', text: 'Background audio (free text)' },
  { key: 'startingState', field: 'starting_state', text: 'Starting state of the flow' },
] as const;

/** Numeric model and voice settings. */
export const NUMBERS = [
  { key: 'llmTemperature', field: 'llm_temperature', text: 'Model temperature (0-100)' },
  { key: 'responsiveness', field: 'responsiveness', text: 'Responsiveness (0-100)' },
  { key: 'interruptionSensitivity', field: 'interruption_sensitivity', text: 'Interruption sensitivity (0-100)' },
  { key: 'voiceSpeed', field: 'voice_speed', text: 'Voice speed (0-100)' },
  { key: 'voiceTemperature', field: 'voice_temperature', text: 'Voice temperature (0-100)' },
  { key: 'maxSilenceDuration', field: 'max_silence_duration', text: 'Longest silence (seconds)' },
  { key: 'reminderFrequencyFrom', field: 'reminder_frequency_from', text: 'Reminder after at least (seconds)' },
  { key: 'reminderFrequencyTo', field: 'reminder_frequency_to', text: 'Reminder after at most (seconds)' },
] as const;

/** Settings written as JSON objects. */
export const OBJECTS = [
  { key: 'agentFlow', field: 'agent_flow', text: 'Conversation flow (states and transitions, JSON)' },
  { key: 'agentDynamicVariables', field: 'agent_dynamic_variables', text: 'Dynamic variables (JSON)' },
  { key: 'agentPostCallOutcomes', field: 'agent_post_call_outcomes', text: 'Outcomes recorded after a call (JSON)' },
] as const;

/** The fields an agent's form writes, as `createAiAgent` and `updateAiAgent` name them. */
export const ALL_KEYS = ['prompt', 'whoTalksFirst', ...TEXTS.map((t) => t.key), ...NUMBERS.map((n) => n.key), ...OBJECTS.map((o) => o.key), ...CALL_SETTING_KEYS] as const;

/** Every setting of `agent` (a template), as `createAiAgent` takes them: what a new agent copies. */
export const settingsOf = (agent: Agent) => Object.fromEntries(ALL_KEYS.map((key) => [key, agent[key]])) as Pick<Agent, (typeof ALL_KEYS)[number]>;
