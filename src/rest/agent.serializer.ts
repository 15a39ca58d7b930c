import { z } from 'zod';
import type { AiAgent } from '../entities';
import { shape } from './serialize';

/** AI agent, interface 2.4, field for field (also the shape of agent templates). */
export const agentShape = z
  .strictObject({
    id: shape.id(),
    name: z.string(),
    description: z.string(),
    language: z.string(),
    status: z.string(),
    prompt: z.string(),
    starting_state: z.string(),
    who_talks_first: z.string(),
    reminder_frequency_from: z.int(),
    reminder_frequency_to: z.int(),
    max_silence_duration: z.int(),
    responsiveness: z.int(),
    voice_speed: z.int(),
    voice_temperature: z.int(),
    interruption_sensitivity: z.int(),
    llm_temperature: z.int(),
    agent_type: z.string(),
    background_audio_status: z.string(),
    workspace_id: z.string(),
    agent_flow: shape.json(),
    agent_dynamic_variables: shape.json(),
    agent_post_call_outcomes: shape.json(),
  })
  .meta({ id: 'AiAgent' });

export function serializeAgent(a: AiAgent): z.output<typeof agentShape> {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    language: a.language,
    status: a.status,
    prompt: a.prompt,
    starting_state: a.startingState,
    who_talks_first: a.whoTalksFirst,
    reminder_frequency_from: a.reminderFrequencyFrom,
    reminder_frequency_to: a.reminderFrequencyTo,
    max_silence_duration: a.maxSilenceDuration,
    responsiveness: a.responsiveness,
    voice_speed: a.voiceSpeed,
    voice_temperature: a.voiceTemperature,
    interruption_sensitivity: a.interruptionSensitivity,
    llm_temperature: a.llmTemperature,
    agent_type: a.agentType,
    background_audio_status: a.backgroundAudioStatus,
    workspace_id: a.workspaceId,
    agent_flow: a.agentFlow,
    agent_dynamic_variables: a.agentDynamicVariables,
    agent_post_call_outcomes: a.agentPostCallOutcomes,
  };
}
