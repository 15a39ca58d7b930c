import { z } from 'zod';
import type { Call } from '../../entities';
import { TRANSFER_MODES } from '../../entities/ai-agent.entity';
import { ANSWERED_BY, CALL_DIRECTIONS, CALL_STATUSES, TRANSFER_STATUSES } from '../../entities/call.entity';
import { defineContract, described as d, field, instantFieldsOf, namedObject, type ViewOf, viewOf } from '../shared/contract';
import type { StoredView } from '../../db/statements';
import type { StoredTurn } from '../conversation/transcript';
import { phone, uuid, workspace } from '../shared/common.input';
import type { PhoneParser } from '../shared/phone';
import { versionNumber } from '../agents/agent-version.input';

export const dynamicVariable = namedObject(
  z.strictObject({ name: d(z.string(), 'Variable name.'), value: d(z.string(), 'The value.') }),
  'DynamicVariable',
  'A name and value handed to the agent for one call.',
);

const turnLatency = namedObject(
  z.object({
    llmFirstTokenMs: d(z.int().nullable(), "Milliseconds from the turn's first model request to the model's first token."),
    firstTextMs: d(z.int().nullable(), "Milliseconds from what started the turn (the callee's final utterance, else the turn's start) to its first text sent."),
    voiceToVoiceMs: d(z.int().nullable(), "Milliseconds from the callee's end of speech to the agent's voice, as Twilio reported them; null when not reported."),
  }),
  'TurnLatency',
  'Where an agent turn\'s latency went (docs/calls.md, "Latency").',
);

const transcriptTurn = namedObject(
  z.object({
    role: d(z.string(), '"agent" or "user".'),
    text: d(z.string(), 'What was said (an agent turn: what the callee heard).'),
    at: d(z.string(), 'When the turn was said (ISO 8601).'),
    latencyMs: d(z.int().nullable(), 'Agent turns answering the callee: ms from the final user utterance to the first token.'),
    latency: d(turnLatency.nullable(), "Agent turns of the model: the latency's breakdown; null for other turns."),
  }),
  'TranscriptTurn',
  "One turn of a call's transcript.",
);

const callTransfer = namedObject(
  z.object({
    to: d(field.phone(), 'The number the caller was transferred to, E.164.'),
    mode: d(z.enum(TRANSFER_MODES), "Cold or warm: the agent's transfer_mode when it transferred."),
    status: d(z.enum(TRANSFER_STATUSES), 'Dialing, then completed, no-answer, busy, failed or canceled.'),
    started_at: d(z.string(), 'When the transfer began (ISO 8601).'),
  }),
  'CallTransfer',
  'A call\'s latest transfer to a person (docs/calls.md, "Transfers").',
);

const costBreakdown = namedObject(
  z.object({
    telephony: d(z.number(), 'The minutes answered, at CALL_PRICE_PER_MINUTE.'),
    llm: d(z.number(), "The conversation's model tokens, at the input and output prices per million."),
    recording: d(z.number(), 'The minutes recorded, at RECORDING_PRICE_PER_MINUTE.'),
    total: d(z.number(), "The sum of the parts: the call's `cost`."),
  }),
  'CostBreakdown',
  'What a call cost, by part, in its `priceUnit` (docs/calls.md, "Cost").',
);

/**
 * A phone call placed (or received) by an AI agent, as services return it and every
 * surface shows it: REST (interface 2.1, field for field), /openapi.json and the GraphQL
 * `Call` type, which adds the typed turns of the transcript (docs/calls.md, "Transcript").
 */
export const callContract = defineContract({
  name: 'Call',
  view: z.object({
    id: d(field.id(), 'Id of the call record (UUID).'),
    callSid: d(z.string().meta({ examples: ['CA5d9e0c2b7f4a4e1c8b3a6d0f9e2c1b7a'] }), "Provider's identifier; empty until the provider has accepted the call."),
    companyId: d(field.id(), 'Id of the company.'),
    aiAgentId: d(field.id(), 'Id of the agent on the call.'),
    aiAgentVersion: d(z.int().nullable(), 'The agent\'s published version the call runs (docs/agents.md, "Versions"); null: its draft.'),
    campaignId: d(field.id().nullable(), 'Id of the campaign that placed the call; null for test calls.'),
    contactId: d(field.id().nullable(), 'Id of the contact called; null for test calls.'),
    callProvider: d(z.string().meta({ examples: ['simulated'] }), 'Telephony provider (simulated or twilio).'),
    callFrom: d(field.phone(), 'Calling number, E.164.'),
    callTo: d(field.phone(), 'Called number, E.164.'),
    callDuration: d(z.int(), 'Seconds answered.'),
    callStatus: d(z.enum(CALL_STATUSES), 'Where the call is in its life.'),
    callDirection: d(z.enum(CALL_DIRECTIONS), 'Who placed the call.'),
    isTest: d(z.boolean(), 'True for calls made by makeCall.'),
    callRating: d(z.int(), 'Rating of the call, 0 until rated.'),
    callFeedback: d(z.string().nullable(), 'Feedback on the call; null until given.'),
    recordUrl: d(z.string().nullable(), 'The recording, served by GET /v1/calls/{id}/recording with your credentials; null when none (docs/calls.md, "Recording").'),
    transcript: d(z.string().nullable(), 'Transcript as text, one turn a line; null until the call ends.'),
    transcriptObject: d(field.json().nullable(), 'Transcript as structured turns; null until the call ends.'),
    transcriptTurns: d(z.array(transcriptTurn), 'The turns of `transcriptObject`, typed; empty before the first turn.'),
    transcriptLanguage: d(z.string().nullable(), 'Language of the transcript; null when none.'),
    cost: d(z.number(), 'Cost of the call in `priceUnit`: the total of `costBreakdown`.'),
    costBreakdown: d(costBreakdown, 'The cost by part: telephony, model tokens, recording, and their total.'),
    priceUnit: d(z.string().meta({ examples: ['USD'] }), 'Currency of `cost` (e.g. USD).'),
    latency: d(z.int(), 'Agent response latency, milliseconds.'),
    answeredBy: d(z.enum(ANSWERED_BY).nullable(), 'Who answered, as answering-machine detection tells: human, machine, fax or unknown; null when not answered or not detected.'),
    disconnectReason: d(z.string(), 'Why the call ended (e.g. voicemail_reached, timeout); empty while live.'),
    resumes: d(z.int(), "Times the agent's session was resumed after it dropped (at most 3; docs/calls.md)."),
    transfer: d(callTransfer.nullable(), 'The latest transfer to a person; null when the agent transferred none.'),
    analysisSentiment: d(z.string(), 'Sentiment found by post-call analysis; empty until then.'),
    agentTaskStatus: d(z.string(), 'Whether the agent did its task; empty until known.'),
    agentTaskFeedback: d(z.string(), "The agent's account of its task; empty until known."),
    metadata: d(field.json().nullable(), 'Free-form data of the call; null when none.'),
    agentDynamicVariables: d(z.array(dynamicVariable), 'Variables the call was made with.'),
    agentPostCallOutcomes: d(field.json().nullable(), 'Outcomes recorded after the call; null until then.'),
    notes: d(z.string().nullable(), 'Notes on the call; null when none.'),
    workspaceId: d(z.string(), 'Workspace of the call.'),
    createdAt: d(z.date(), 'When the record was created.'),
    updatedAt: d(z.date(), 'When the record last changed.'),
    deletedAt: d(z.date().nullable(), 'When the record was deleted; null while it exists.'),
    startedAt: d(z.date().nullable(), 'When the call was answered; null until then.'),
    endedAt: d(z.date().nullable(), 'When the call ended; null until then.'),
    retryAt: d(z.date().nullable(), 'When the call is retried (campaign calls); null when not.'),
  }),
  rest: { omit: ['transcriptTurns'] },
  // GraphQL has typed `transcriptTurns` for the turns, and types the stored object as any JSON value.
  graphql: { omit: ['companyId', 'deletedAt'], as: { transcriptObject: 'anyJson' } },
});

export type CallView = ViewOf<typeof callContract>;

const msOf = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** A stored turn's latency breakdown, or null when it has none. */
function turnLatencyOf(latency: StoredTurn['latency'] | undefined): CallView['transcriptTurns'][number]['latency'] {
  if (!latency || typeof latency !== 'object') return null;
  return { llmFirstTokenMs: msOf(latency.llm_first_token_ms), firstTextMs: msOf(latency.first_text_ms), voiceToVoiceMs: msOf(latency.voice_to_voice_ms) };
}

/** The stored turns, skipping anything that is not one (a transcript written before the shape was fixed). */
function transcriptTurnsOf(object: Record<string, unknown> | null): CallView['transcriptTurns'] {
  const turns = Array.isArray(object?.turns) ? (object.turns as Partial<StoredTurn>[]) : [];
  return turns
    .filter((t) => t && typeof t.text === 'string' && typeof t.role === 'string')
    .map((t) => ({ role: t.role!, text: t.text!, at: typeof t.at === 'string' ? t.at : '', latencyMs: msOf(t.latency_ms), latency: turnLatencyOf(t.latency) }));
}

/** A call's view as stored: every field but those computed (the turns, from `transcriptObject`; the cost's parts, from their columns). */
export const callStoredView = callContract.view.omit({ transcriptTurns: true, costBreakdown: true }).extend({ costTelephony: z.number(), costLlm: z.number(), costRecording: z.number() });
export type CallStoredView = z.output<typeof callStoredView>;

/** A call's decimal fields as read: numbers on the entity, text in a stored view (the driver reads numeric as text). */
type Decimals = Record<'cost' | 'costTelephony' | 'costLlm' | 'costRecording', number | string>;

/** The fields of a call's view computed from its stored fields, each with the stored fields it reads. */
const computed = {
  transcriptObject: { from: ['transcriptObject'], value: (c: Pick<CallStoredView, 'transcriptObject'>) => c.transcriptObject ?? null },
  transcriptTurns: { from: ['transcriptObject'], value: (c: Pick<CallStoredView, 'transcriptObject'>) => transcriptTurnsOf(c.transcriptObject) },
  cost: { from: ['cost'], value: (c: Pick<Decimals, 'cost'>) => Number(c.cost) },
  costBreakdown: {
    from: ['costTelephony', 'costLlm', 'costRecording', 'cost'],
    value: (c: Decimals) => ({
      telephony: Number(c.costTelephony),
      llm: Number(c.costLlm),
      recording: Number(c.costRecording),
      total: Number(c.cost),
    }),
  },
} satisfies { [K in keyof CallView]?: { from: (keyof CallStoredView)[]; value: (c: CallStoredView) => CallView[K] } };

/** The stored fields the computed ones are made from. */
type ComputedFrom = (typeof computed)[keyof typeof computed]['from'][number];

const isComputed = (field: string): field is keyof typeof computed => field in computed;

/** Each computed field of the view, from a stored call (`computed`). */
const computing = {
  transcriptObject: (c: Pick<CallStoredView, 'transcriptObject'>) => computed.transcriptObject.value(c),
  transcriptTurns: (c: Pick<CallStoredView, 'transcriptObject'>) => computed.transcriptTurns.value(c),
  cost: (c: Pick<Decimals, 'cost'>) => computed.cost.value(c),
  costBreakdown: (c: Decimals) => computed.costBreakdown.value(c),
};

/** The view of a stored call: its entity, or its stored view with instants as Dates. */
export const toCallView = (call: Call | CallStoredView): CallView => viewOf(callContract, call, computing);

/**
 * The view of a call as `callsPage` reads it, its instants left as the stored ISO text
 * (`StoredView`): what REST writes (`callJson`), with no Date made for each instant.
 */
export const toStoredCallView = (stored: StoredView<CallStoredView>): StoredView<CallView> =>
  // viewOf copies each stored field as it is (instants stay text) and computes the others from it.
  viewOf(callContract, stored, computing) as unknown as StoredView<CallView>;

/** The stored fields the view's `fields` are read or computed from, in the stored view's order. */
export function callStoredFields(fields: readonly (keyof CallView)[]): (keyof CallStoredView)[] {
  const needed = new Set<string>(fields.flatMap((field) => (isComputed(field) ? computed[field].from : [field])));
  return (Object.keys(callStoredView.shape) as (keyof CallStoredView)[]).filter((key) => needed.has(key));
}

/** The stored fields holding instants (ISO text in a stored view, Dates in the view). */
const storedInstants = instantFieldsOf(callStoredView);

/**
 * The `fields` of a call's view, from its stored view holding (at least) the stored fields
 * they are made from (`callStoredFields`): a view with those fields only, for a reader that
 * reads no other.
 */
export function callFieldsOf<K extends keyof CallView>(stored: Partial<StoredView<CallStoredView>>, fields: readonly K[]): Pick<CallView, K> {
  const view: Partial<Record<keyof CallView, unknown>> = {};
  for (const field of fields) {
    if (isComputed(field)) view[field] = computed[field].value(stored as Pick<CallStoredView, ComputedFrom>);
    else {
      const value = stored[field as keyof CallStoredView];
      view[field] = storedInstants.has(field) && typeof value === 'string' ? new Date(value) : value;
    }
  }
  return view as Pick<CallView, K>;
}

/**
 * A variable make-call hands to the agent. The rules of interface 4.1 are regular
 * expressions, so that /openapi.json states them too: a name is one or more non-space
 * characters, a value has at least one.
 */
export const dynamicVariableInput = namedObject(
  z.object({
    name: d(
      z
        .string()
        .regex(/^\S+$/, {
          error: (iss) => ((iss.input as string).trim() === '' ? 'Dynamic variable name must not be empty' : 'Dynamic variable name must not contain spaces'),
        })
        .meta({ examples: ['first_name'] }),
      'No spaces.',
    ),
    value: d(
      z
        .string()
        .regex(/\S/, 'Dynamic variable value must not be empty')
        .meta({ examples: ['Ada'] }),
      'Value: not empty.',
    ),
  }),
  'DynamicVariableInput',
  'A variable handed to the agent for this call.',
);

/**
 * Fields make-call (interface 4.1) accepts, in the documented snake_case: REST validates its
 * body with them, GraphQL's input is derived from them (camelCase), and both name the same
 * fields in validation errors. Numbers are read with `parser`.
 */
export const makeCallFields = (parser: PhoneParser) => ({
  ai_agent_id: d(uuid(), 'Id of one of your agents, which makes the call (a template is refused).'),
  ai_agent_version: d(
    versionNumber()
      .meta({ examples: [1] })
      .nullish(),
    'A published version of the agent to run; left out: its latest published version, or its draft when it has none.',
  ),
  call_from: d(phone(parser), 'A number the company owns, in any format (normalised to E.164).'),
  call_to: d(phone(parser), 'Any valid number, in any format (normalised to E.164).'),
  dynamic_variables: d(z.array(dynamicVariableInput).max(100, 'At most 100 dynamic variables').nullish(), 'Variables handed to the agent: name without spaces, value not empty.'),
  workspace: d(workspace(), 'Defaults to "default".'),
});
