/** What a call's parts cost, in the call's `price_unit` (docs/calls.md, "Cost"). */
export interface CallPrices {
  /** CALL_PRICE_PER_MINUTE: a minute answered. */
  callPerMinute: number;
  /** RECORDING_PRICE_PER_MINUTE: a minute of a recorded call. */
  recordingPerMinute: number;
  /** LLM_PRICE_INPUT_PER_MTOK: a million tokens the model read. */
  llmInputPerMTok: number;
  /** LLM_PRICE_OUTPUT_PER_MTOK: a million tokens the model wrote. */
  llmOutputPerMTok: number;
}

/** The prices' columns, as a statement's row of prices names them (`PRICES_ROW`, or a row of its own input). */
const PRICE_COLUMNS = ['call_per_minute', 'recording_per_minute', 'llm_input_per_mtok', 'llm_output_per_mtok'] as const;

/** A row of the prices, aliased `p`, for a statement's FROM; its parameters are `priceParams`. */
export const PRICES_ROW = `(SELECT ${PRICE_COLUMNS.map((c) => `?::numeric AS ${c}`).join(', ')}) p`;

/** The parameters of `PRICES_ROW`, in its order. */
export const priceParams = (p: CallPrices): number[] => [p.callPerMinute, p.recordingPerMinute, p.llmInputPerMTok, p.llmOutputPerMTok];

/** The prices as fields of a row of a statement's JSON input (`jsonb_to_recordset`), with their SQL types. */
export const priceRecordFields = PRICE_COLUMNS.map((c) => `${c} numeric`).join(', ');
export const priceRecord = (p: CallPrices): Record<(typeof PRICE_COLUMNS)[number], number> => ({
  call_per_minute: p.callPerMinute,
  recording_per_minute: p.recordingPerMinute,
  llm_input_per_mtok: p.llmInputPerMTok,
  llm_output_per_mtok: p.llmOutputPerMTok,
});

/** The quantities a call's cost is computed from, each an SQL expression over the statement's rows. */
export interface CostQuantities {
  /** Seconds answered. */
  durationS: string;
  inputTokens: string;
  outputTokens: string;
  /** Whether the call has a recording. */
  recorded: string;
}

/**
 * The one rule of a call's cost (docs/calls.md, "Cost"), as the assignments of an UPDATE of
 * `calls`: each part from its quantity and price (`prices`: the alias of the row holding them),
 * rounded to the columns' 4 decimals, and `cost` their sum. Every statement that changes a
 * quantity (the call's end, the model's tokens, a recording kept) stamps all the parts from
 * the row as it is then, so whichever comes last leaves them consistent.
 */
export function costAssignments(q: CostQuantities, prices: string): string {
  const telephony = `ROUND(${q.durationS} / 60.0 * ${prices}.call_per_minute, 4)`;
  const llm = `ROUND((${q.inputTokens} * ${prices}.llm_input_per_mtok + ${q.outputTokens} * ${prices}.llm_output_per_mtok) / 1000000.0, 4)`;
  const recording = `CASE WHEN ${q.recorded} THEN ROUND(${q.durationS} / 60.0 * ${prices}.recording_per_minute, 4) ELSE 0 END`;
  return `cost_telephony = ${telephony}, cost_llm = ${llm}, cost_recording = ${recording}, cost = ${telephony} + ${llm} + ${recording}`;
}

/** The cost rule over a call row `c` as stored, prices from `prices` (`p` by default): for statements that change a quantity other than the duration. */
export const storedCostAssignments = (quantities: Partial<CostQuantities> = {}, prices = 'p'): string =>
  costAssignments({ durationS: 'c.call_duration', inputTokens: 'c.llm_input_tokens', outputTokens: 'c.llm_output_tokens', recorded: 'c.recording_sid IS NOT NULL', ...quantities }, prices);
