import type { ConversationSink } from './conversation';
import type { ToolCall, ToolSpec } from './language-model';

/**
 * What a round of tool calls asks of the call once the agent's words are out. An end
 * `afterGoodbye` waits for words: when the turn has said none yet, the model answers the
 * round once more (its goodbye) before the call ends.
 */
export type CallAction = { kind: 'end'; afterGoodbye?: boolean } | { kind: 'transfer'; number: string };

/** The answer to one tool call, for the model's next round. */
export interface ToolResult {
  toolCallId: string;
  content: string;
}

export interface ToolRound {
  results: ToolResult[];
  action: CallAction | null;
}

/**
 * A tool of the call: its declaration for the model and what it does. `run` answers the
 * model (a failure is an answer too, never a throw) and may ask for an action.
 */
export interface CallTool {
  spec: ToolSpec;
  run(args: Record<string, unknown>, sink: ConversationSink, signal: AbortSignal): Promise<{ content: string; action?: CallAction }>;
}

/** A number as the model may write it (`+1 (415) 555-0100`), reduced to `+` and digits for comparison. */
const digitsOf = (number: string) => number.replace(/[^\d+]/g, '');

/**
 * The number of `allowed` (agent_flow.transfer_numbers) that `wanted` names, however written;
 * undefined when it names none. The transfer tool and the relay's action callback both ask.
 */
export function allowedTransfer(allowed: readonly string[], wanted: string): string | undefined {
  const digits = digitsOf(wanted);
  return allowed.find((n) => digitsOf(n) === digits);
}

const endCall: CallTool = {
  spec: {
    name: 'end_call',
    description: 'Ends the call after your current words are spoken. Say goodbye first.',
    parameters: { type: 'object', properties: { reason: { type: 'string', description: 'Why the call ends' } }, required: [], additionalProperties: false },
  },
  run: async () => ({ content: 'The call will end after your last words.', action: { kind: 'end' } }),
};

/** Transfers only to `allowed` (agent_flow.transfer_numbers, docs/agents.md); offered only when there are some. */
function transferCall(allowed: string[]): CallTool {
  return {
    spec: {
      name: 'transfer_call',
      description: 'Transfers the caller to a person at one of the allowed numbers, after your current words are spoken.',
      parameters: { type: 'object', properties: { number: { type: 'string', enum: allowed, description: 'The number to transfer to' } }, required: ['number'], additionalProperties: false },
    },
    run: async (args) => {
      const number = typeof args.number === 'string' ? allowedTransfer(allowed, args.number) : undefined;
      // Only "not allowed": the model's words reach the caller, who must not learn the allowed numbers from an error.
      if (!number) return { content: 'Error: transferring to that number is not allowed.' };
      return { content: `The caller will be transferred to ${number}.`, action: { kind: 'transfer', number } };
    },
  };
}

const pressDigits: CallTool = {
  spec: {
    name: 'press_digits',
    description: 'Presses telephone keys, to navigate a phone menu (IVR). Digits 0-9, * and #; w pauses half a second.',
    parameters: { type: 'object', properties: { digits: { type: 'string', pattern: '^[0-9*#w]+$' } }, required: ['digits'], additionalProperties: false },
  },
  run: async (args, sink) => {
    const digits = typeof args.digits === 'string' ? args.digits : '';
    if (!/^[0-9*#w]{1,64}$/.test(digits)) return { content: 'Error: digits must be 1 to 64 of 0-9, *, # and w.' };
    sink.sendDigits(digits);
    return { content: `Pressed ${digits}.` };
  },
};

/**
 * The do-not-call list of a call's company, for the `do_not_call` tool: `optOut` lists the
 * other party's number (`withheld` when the call has none to list), or throws when it cannot.
 */
export interface OptOutList {
  optOut(): Promise<'listed' | 'withheld'>;
}

/** The caller asked not to be called again (docs/agents.md, "Tools the model may call"). */
function doNotCall(list: OptOutList): CallTool {
  return {
    spec: {
      name: 'do_not_call',
      description: 'Use when the person asks not to be called again: their number goes on the do-not-call list and the call ends after your words. Confirm it briefly and say goodbye.',
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
    },
    run: async () => {
      let outcome: 'listed' | 'withheld';
      try {
        outcome = await list.optOut();
      } catch {
        return { content: 'Error: the number could not be put on the do-not-call list just now.' };
      }
      const done = outcome === 'listed' ? 'The number is on the do-not-call list: it will not be called again.' : 'The number is withheld: there is no number to list.';
      return { content: `${done} Say a short goodbye; the call ends after it.`, action: { kind: 'end', afterGoodbye: true } };
    },
  };
}

/** The built-in tools of every call. */
export function builtInTools(transferNumbers: string[], optOut: OptOutList): CallTool[] {
  return [endCall, ...(transferNumbers.length > 0 ? [transferCall(transferNumbers)] : []), pressDigits, doNotCall(optOut)];
}

function parseArguments(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text === '' ? '{}' : text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Runs the model's tool calls in order; every call gets an answer, and the first action (or `ending`, one already asked) wins. */
export async function runTools(calls: ToolCall[], tools: CallTool[], sink: ConversationSink, signal: AbortSignal, ending: CallAction | null = null): Promise<ToolRound> {
  const round: ToolRound = { results: [], action: ending };
  for (const call of calls) {
    const tool = tools.find((t) => t.spec.name === call.name);
    const args = parseArguments(call.arguments);
    let content: string;
    if (!tool) content = `Error: there is no tool named ${call.name}.`;
    else if (!args) content = 'Error: the arguments are not a JSON object.';
    else if (round.action) content = 'Error: the call is already ending.';
    else {
      const outcome = await tool.run(args, sink, signal).catch((err: unknown) => ({ content: `Error: ${err instanceof Error ? err.message : String(err)}`, action: undefined }));
      content = outcome.content;
      round.action = outcome.action ?? null;
    }
    round.results.push({ toolCallId: call.id, content });
  }
  return round;
}
