import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { Call } from '../entities';
import type { StoredTurn } from '../services/conversation/transcript';
import { CallStatus } from './call.enum';
import { ConnectionType } from './connection.type';

@ObjectType('DynamicVariable', { simpleResolvers: true })
export class DynamicVariableType {
  @Field()
  name!: string;

  @Field()
  value!: string;
}

/** One turn of a call's transcript (docs/calls.md, "Transcript"). */
@ObjectType('TranscriptTurn', { simpleResolvers: true })
export class TranscriptTurnType {
  @Field({ description: '"agent" or "user".' })
  role!: string;

  @Field()
  text!: string;

  @Field({ description: 'When the turn was said (ISO 8601).' })
  at!: string;

  @Field(() => Int, { nullable: true, description: 'Agent turns answering the callee: ms from the final user utterance to the first token.' })
  latencyMs!: number | null;
}

/** A phone call placed (or received) by an AI agent. `aiAgent`, `campaign`, `contact` resolve on demand. */
@ObjectType('Call', { simpleResolvers: true })
export class CallType {
  @Field(() => ID)
  id!: string;

  @Field({ description: "Provider's identifier; empty until the provider has accepted the call." })
  callSid!: string;

  @Field(() => ID)
  aiAgentId!: string;

  @Field(() => ID, { nullable: true })
  campaignId!: string | null;

  @Field(() => ID, { nullable: true })
  contactId!: string | null;

  @Field()
  callProvider!: string;

  @Field()
  callFrom!: string;

  @Field()
  callTo!: string;

  @Field(() => Int, { description: 'Seconds answered.' })
  callDuration!: number;

  @Field(() => CallStatus)
  callStatus!: CallStatus;

  @Field()
  callDirection!: string;

  @Field()
  isTest!: boolean;

  @Field(() => Int)
  callRating!: number;

  @Field(() => String, { nullable: true })
  callFeedback!: string | null;

  @Field(() => String, { nullable: true })
  recordUrl!: string | null;

  @Field(() => String, { nullable: true })
  transcript!: string | null;

  @Field(() => GraphQLJSON, { nullable: true })
  transcriptObject!: unknown;

  @Field(() => [TranscriptTurnType], { description: 'transcriptObject.turns, typed; empty before the first turn.' })
  transcriptTurns!: TranscriptTurnType[];

  @Field(() => String, { nullable: true })
  transcriptLanguage!: string | null;

  @Field(() => Float)
  cost!: number;

  @Field()
  priceUnit!: string;

  @Field(() => Int)
  latency!: number;

  @Field()
  disconnectReason!: string;

  @Field()
  analysisSentiment!: string;

  @Field()
  agentTaskStatus!: string;

  @Field()
  agentTaskFeedback!: string;

  @Field(() => GraphQLJSONObject, { nullable: true })
  metadata!: Record<string, unknown> | null;

  @Field(() => [DynamicVariableType])
  agentDynamicVariables!: DynamicVariableType[];

  @Field(() => GraphQLJSONObject, { nullable: true })
  agentPostCallOutcomes!: Record<string, unknown> | null;

  @Field(() => String, { nullable: true })
  notes!: string | null;

  @Field()
  workspaceId!: string;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;

  @Field(() => Date, { nullable: true })
  startedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  endedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  retryAt!: Date | null;
}

export const CallConnection = ConnectionType('Call', CallType);

/** The stored turns, skipping anything that is not one (a transcript written before the shape was fixed). */
function transcriptTurnsOf(object: Record<string, unknown> | null): TranscriptTurnType[] {
  const turns = Array.isArray(object?.turns) ? (object.turns as Partial<StoredTurn>[]) : [];
  return turns
    .filter((t) => t && typeof t.text === 'string' && typeof t.role === 'string')
    .map((t) => ({ role: t.role!, text: t.text!, at: typeof t.at === 'string' ? t.at : '', latencyMs: typeof t.latency_ms === 'number' ? t.latency_ms : null }));
}

/** The one mapping from the call entity to its GraphQL shape. */
export function toCallType(c: Call): CallType {
  return {
    id: c.id,
    callSid: c.callSid,
    aiAgentId: c.aiAgent.id,
    campaignId: c.campaign?.id ?? null,
    contactId: c.contact?.id ?? null,
    callProvider: c.callProvider,
    callFrom: c.callFrom,
    callTo: c.callTo,
    callDuration: c.callDuration,
    callStatus: c.callStatus as CallStatus,
    callDirection: c.callDirection,
    isTest: c.isTest,
    callRating: c.callRating,
    callFeedback: c.callFeedback,
    recordUrl: c.recordUrl,
    transcript: c.transcript,
    transcriptObject: c.transcriptObject ?? null,
    transcriptTurns: transcriptTurnsOf(c.transcriptObject),
    transcriptLanguage: c.transcriptLanguage,
    cost: Number(c.cost),
    priceUnit: c.priceUnit,
    latency: c.latency,
    disconnectReason: c.disconnectReason,
    analysisSentiment: c.analysisSentiment,
    agentTaskStatus: c.agentTaskStatus,
    agentTaskFeedback: c.agentTaskFeedback,
    metadata: c.metadata,
    agentDynamicVariables: c.agentDynamicVariables,
    agentPostCallOutcomes: c.agentPostCallOutcomes,
    notes: c.notes,
    workspaceId: c.workspaceId,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    startedAt: c.startedAt,
    endedAt: c.endedAt,
    retryAt: c.retryAt,
  };
}
