import type { AiAgent } from '../../entities';
import { settingsOfAgent } from '../agents/agent-version.service';
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
 * The settings a test run's calls use: those of `agent`'s published `version`, or of its
 * draft (the agent as its endpoints edit it) when `version` is null; a version the agent does
 * not have is refused, naming the field.
 */
export async function settingsForRun(caller: Caller, agent: AiAgent, version: number | null): Promise<RunAgent> {
  const settings = await settingsOfAgent(caller, agent, version);
  return Object.fromEntries(RUN_AGENT_FIELDS.map((field) => [field, settings[field]])) as RunAgent;
}
