import { z } from 'zod';

const OUTCOME_TYPES = ['boolean', 'string', 'number', 'integer'] as const;
export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export const TASK_STATUSES = ['completed', 'not_completed', 'unknown'] as const;

/** An entry given as its type alone (`"booked": "boolean"`), the short form integrators send, as `{"type"}`. */
const typeAlone = (value: unknown): unknown => (typeof value === 'string' ? { type: value } : value);

/** One entry of the agent's `agent_post_call_outcomes`: `{"type", "description"?, "enum"?}`, or its type alone. */
const outcomeFields = {
  type: z.enum(OUTCOME_TYPES),
  description: z.string().default(''),
  enum: z
    .array(z.union([z.string(), z.number()]))
    .min(1)
    .optional(),
};
const outcomeDefinition = z.preprocess(typeAlone, z.object(outcomeFields));
type OutcomeDefinition = z.output<typeof outcomeDefinition>;

/** A name an outcome may have: it becomes a JSON Schema property name. */
const OUTCOME_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** `agent_post_call_outcomes` as an agent is saved with it: every entry of the supported shape. */
export const outcomeDefinitionsSchema = z.record(z.string().regex(OUTCOME_NAME, 'Names are 1-64 letters, digits, _ or -'), z.preprocess(typeAlone, z.strictObject(outcomeFields)));

/** The agent's outcomes that can be asked for; an entry that does not fit the shape (stored before it was checked) is left out. */
export function outcomeDefinitions(stored: Record<string, unknown>): Map<string, OutcomeDefinition> {
  const definitions = new Map<string, OutcomeDefinition>();
  for (const [name, value] of Object.entries(stored)) {
    const parsed = outcomeDefinition.safeParse(value);
    if (parsed.success && OUTCOME_NAME.test(name)) definitions.set(name, parsed.data);
  }
  return definitions;
}

/** The JSON Schema of `response_format` (strict mode: every property required, no others). */
export function analysisJsonSchema(outcomes: Map<string, OutcomeDefinition>): Record<string, unknown> {
  const object = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });
  const outcomeProperties = Object.fromEntries([...outcomes].map(([name, d]) => [name, { type: d.type, description: d.description, ...(d.enum ? { enum: d.enum } : {}) }]));
  return object({
    summary: { type: 'string', description: 'Two or three sentences on what happened in the call' },
    sentiment: { type: 'string', enum: [...SENTIMENTS], description: "The callee's sentiment" },
    task_status: { type: 'string', enum: [...TASK_STATUSES], description: "Whether the agent's task was done" },
    task_feedback: { type: 'string', description: 'Why, in one sentence' },
    outcomes: object(outcomeProperties),
  });
}

const valueSchema = (d: OutcomeDefinition): z.ZodType => {
  const base: z.ZodType = d.type === 'boolean' ? z.boolean() : d.type === 'string' ? z.string() : d.type === 'integer' ? z.number().int() : z.number();
  const allowed = d.enum;
  return allowed ? base.refine((v) => allowed.includes(v as string | number), `Must be one of ${allowed.join(', ')}`) : base;
};

/** Checks the model's answer against the same schema (servers without strict mode may not). */
export function analysisAnswerSchema(outcomes: Map<string, OutcomeDefinition>) {
  return z.strictObject({
    summary: z.string(),
    sentiment: z.enum(SENTIMENTS),
    task_status: z.enum(TASK_STATUSES),
    task_feedback: z.string(),
    outcomes: z.strictObject(Object.fromEntries([...outcomes].map(([name, d]) => [name, valueSchema(d)]))),
  });
}

export type AnalysisAnswer = z.output<ReturnType<typeof analysisAnswerSchema>>;
