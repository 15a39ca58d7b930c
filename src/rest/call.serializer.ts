import { z } from 'zod';
import type { Call } from '../entities';
import { CALL_DIRECTIONS, CALL_STATUSES } from '../entities/call.entity';
import { iso, refId, shape } from './serialize';

/** Call record, interface 2.1, field for field. */
export const callShape = z
  .strictObject({
    id: shape.id(),
    call_sid: z.string().meta({ examples: ['CA5d9e0c2b7f4a4e1c8b3a6d0f9e2c1b7a'] }),
    company_id: shape.id(),
    ai_agent_id: shape.id(),
    campaign_id: shape.id().nullable(),
    contact_id: shape.id().nullable(),
    call_provider: z.string().meta({ examples: ['simulated'] }),
    call_from: shape.phone(),
    call_to: shape.phone(),
    call_duration: z.int(),
    call_status: z.enum(CALL_STATUSES),
    call_direction: z.enum(CALL_DIRECTIONS),
    is_test: z.boolean(),
    call_rating: z.int(),
    call_feedback: z.string().nullable(),
    record_url: z.string().nullable(),
    transcript: z.string().nullable(),
    transcript_object: shape.json().nullable(),
    transcript_language: z.string().nullable(),
    cost: z.number(),
    price_unit: z.string().meta({ examples: ['USD'] }),
    latency: z.int(),
    disconnect_reason: z.string(),
    analysis_sentiment: z.string(),
    agent_task_status: z.string(),
    agent_task_feedback: z.string(),
    metadata: shape.json().nullable(),
    agent_dynamic_variables: z.array(z.strictObject({ name: z.string(), value: z.string() })),
    agent_post_call_outcomes: shape.json().nullable(),
    notes: z.string().nullable(),
    workspace_id: z.string(),
    created_at: shape.timestamp(),
    updated_at: shape.timestamp(),
    deleted_at: shape.timestamp().nullable(),
    started_at: shape.timestamp().nullable(),
    ended_at: shape.timestamp().nullable(),
    retry_at: shape.timestamp().nullable(),
  })
  .meta({ id: 'Call' });

/** A page of calls, newest first. */
export const callPageShape = z.strictObject({ items: z.array(callShape), next_cursor: z.string().nullable() });

export function serializeCall(c: Call): z.output<typeof callShape> {
  return {
    id: c.id,
    call_sid: c.callSid,
    company_id: c.company.id,
    ai_agent_id: c.aiAgent.id,
    campaign_id: refId(c.campaign),
    contact_id: refId(c.contact),
    call_provider: c.callProvider,
    call_from: c.callFrom,
    call_to: c.callTo,
    call_duration: c.callDuration,
    call_status: c.callStatus,
    call_direction: c.callDirection,
    is_test: c.isTest,
    call_rating: c.callRating,
    call_feedback: c.callFeedback,
    record_url: c.recordUrl,
    transcript: c.transcript,
    transcript_object: c.transcriptObject ?? null,
    transcript_language: c.transcriptLanguage,
    cost: Number(c.cost),
    price_unit: c.priceUnit,
    latency: c.latency,
    disconnect_reason: c.disconnectReason,
    analysis_sentiment: c.analysisSentiment,
    agent_task_status: c.agentTaskStatus,
    agent_task_feedback: c.agentTaskFeedback,
    metadata: c.metadata,
    agent_dynamic_variables: c.agentDynamicVariables,
    agent_post_call_outcomes: c.agentPostCallOutcomes,
    notes: c.notes,
    workspace_id: c.workspaceId,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    deleted_at: iso(c.deletedAt),
    started_at: iso(c.startedAt),
    ended_at: iso(c.endedAt),
    retry_at: iso(c.retryAt),
  };
}
