import type { AiAgent } from '../entities';

/** AI agent, interface 2.4, field for field (also the shape of agent templates). */
export function serializeAgent(a: AiAgent) {
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
