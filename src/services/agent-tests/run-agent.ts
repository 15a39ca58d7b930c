import type { AiAgent } from '../../entities';
import { ValidationError } from '../shared/errors';
import type { Caller } from '../shared/scope';
import type { RunAgent } from './simulated-test-call';

/** The agent fields a test call runs with (`RunAgent`). */
const RUN_AGENT_FIELDS = [
  'prompt',
  'language',
  'startingState',
  'whoTalksFirst',
  'llmTemperature',
  'reminderFrequencyFrom',
  'reminderFrequencyTo',
  'maxSilenceDuration',
  'agentFlow',
  'agentDynamicVariables',
  'openingDisclosure',
  'welcomeGreeting',
  'responsiveness',
  'transferMode',
  'holdAudioUrl',
  'voiceSpeed',
  'agentPostCallOutcomes',
] as const satisfies readonly (keyof RunAgent)[];

/**
 * The settings a test run's calls use: those of `agent`'s `version`, or of its draft (the
 * agent as its endpoints edit it) when `version` is null. The one place a run reads an agent's
 * settings: published versions (issue 29, section 1) are read here once they exist; until
 * then a version is refused, naming the field.
 */
export async function settingsForRun(_caller: Caller, agent: AiAgent, version: number | null): Promise<RunAgent> {
  if (version !== null) throw ValidationError.of('version', 'This agent has no published versions: leave version out to run the draft');
  return Object.fromEntries(RUN_AGENT_FIELDS.map((field) => [field, agent[field]])) as RunAgent;
}
