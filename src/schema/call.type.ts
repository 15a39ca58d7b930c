import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { Call } from '../entities';
import type { StoredTurn } from '../services/conversation/transcript';
import { CallDirection, CallStatus } from './call.enum';
import { ConnectionType } from './connection.type';
import { Node } from './node.type';

@ObjectType('DynamicVariable', { simpleResolvers: true, description: 'A name and value handed to the agent for one call.' })
export class DynamicVariableType {
  @Field({ description: 'Variable name.' })
  name!: string;

  @Field({ description: 'The value.' })
  value!: string;
}

/** One turn of a call's transcript (docs/calls.md, "Transcript"). */
@ObjectType('TranscriptTurn', { simpleResolvers: true, description: 'One turn of a call\'s transcript.' })
export class TranscriptTurnType {
  @Field({ description: '"agent" or "user".' })
  role!: string;

  @Field({ description: 'What was said (an agent turn: what the callee heard).' })
  text!: string;

  @Field({ description: 'When the turn was said (ISO 8601).' })
  at!: string;

  @Field(() => Int, { nullable: true, description: 'Agent turns answering the callee: ms from the final user utterance to the first token.' })
  latencyMs!: number | null;
}

/** A phone call placed (or received) by an AI agent. `aiAgent`, `campaign`, `contact` resolve on demand. */
@ObjectType('Call', { implements: Node, simpleResolvers: true, description: 'A phone call placed (or received) by an AI agent; `aiAgent`, `campaign` and `contact` resolve on demand.' })
export class CallType implements Node {
  @Field(() => ID, { description: 'Id of the call record (UUID).' })
  id!: string;

  @Field({ description: "Provider's identifier; empty until the provider has accepted the call." })
  callSid!: string;

  @Field(() => ID, { description: 'Id of the agent on the call.' })
  aiAgentId!: string;

  @Field(() => ID, { nullable: true, description: 'Id of the campaign that placed the call; null for test calls.' })
  campaignId!: string | null;

  @Field(() => ID, { nullable: true, description: 'Id of the contact called; null for test calls.' })
  contactId!: string | null;

  @Field({ description: 'Telephony provider (simulated or twilio).' })
  callProvider!: string;

  @Field({ description: 'Calling number, E.164.' })
  callFrom!: string;

  @Field({ description: 'Called number, E.164.' })
  callTo!: string;

  @Field(() => Int, { description: 'Seconds answered.' })
  callDuration!: number;

  @Field(() => CallStatus, { description: 'Where the call is in its life.' })
  callStatus!: CallStatus;

  @Field(() => CallDirection, { description: 'Who placed the call.' })
  callDirection!: CallDirection;

  @Field({ description: 'True for calls made by makeCall.' })
  isTest!: boolean;

  @Field(() => Int, { description: 'Rating of the call, 0 until rated.' })
  callRating!: number;

  @Field(() => String, { nullable: true, description: 'Feedback on the call; null until given.' })
  callFeedback!: string | null;

  @Field(() => String, { nullable: true, description: 'Recording URL; null when none.' })
  recordUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'Transcript as text, one turn a line; null until the call ends.' })
  transcript!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: 'Transcript as structured turns; null until the call ends.' })
  transcriptObject!: unknown;

  @Field(() => [TranscriptTurnType], { description: 'The turns of `transcriptObject`, typed; empty before the first turn.' })
  transcriptTurns!: TranscriptTurnType[];

  @Field(() => String, { nullable: true, description: 'Language of the transcript; null when none.' })
  transcriptLanguage!: string | null;

  @Field(() => Float, { description: 'Cost of the call in `priceUnit`.' })
  cost!: number;

  @Field({ description: 'Currency of `cost` (e.g. USD).' })
  priceUnit!: string;

  @Field(() => Int, { description: 'Agent response latency, milliseconds.' })
  latency!: number;

  @Field({ description: 'Why the call ended (e.g. voicemail_reached, timeout); empty while live.' })
  disconnectReason!: string;

  @Field({ description: 'Sentiment found by post-call analysis; empty until then.' })
  analysisSentiment!: string;

  @Field({ description: 'Whether the agent did its task; empty until known.' })
  agentTaskStatus!: string;

  @Field({ description: 'The agent\'s account of its task; empty until known.' })
  agentTaskFeedback!: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Free-form data of the call; null when none.' })
  metadata!: Record<string, unknown> | null;

  @Field(() => [DynamicVariableType], { description: 'Variables the call was made with.' })
  agentDynamicVariables!: DynamicVariableType[];

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Outcomes recorded after the call; null until then.' })
  agentPostCallOutcomes!: Record<string, unknown> | null;

  @Field(() => String, { nullable: true, description: 'Notes on the call; null when none.' })
  notes!: string | null;

  @Field({ description: 'Workspace of the call.' })
  workspaceId!: string;

  @Field({ description: 'When the record was created.' })
  createdAt!: Date;

  @Field({ description: 'When the record last changed.' })
  updatedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the call was answered; null until then.' })
  startedAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the call ended; null until then.' })
  endedAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the call is retried (campaign calls); null when not.' })
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
    callDirection: c.callDirection as CallDirection,
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
