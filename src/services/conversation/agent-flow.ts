import { z } from 'zod';
import type { CallTool } from './call-tools';
import { parametersProblem } from './tool-parameters';

/** Names the engine gives its own tools: a flow tool may not take them. */
export const BUILT_IN_TOOL_NAMES = ['end_call', 'transfer_call', 'press_digits', 'go_to_state'];

const state = z.object({
  name: z.string().trim().min(1, 'Must not be empty').max(200, 'Must be at most 200 characters'),
  prompt: z.string().max(100_000, 'Must be at most 100000 characters').default(''),
  next: z.array(z.string()).max(50, 'At most 50 next states').default([]),
});

const flowTool = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be 1 to 64 letters, digits, _ or -')
    .refine((n) => !BUILT_IN_TOOL_NAMES.includes(n), 'Is the name of a built-in tool'),
  description: z.string().max(2000, 'Must be at most 2000 characters').default(''),
  parameters: z
    .record(z.string(), z.unknown())
    .refine((p) => p.type === 'object', 'Must be a JSON Schema with "type": "object"')
    .superRefine((p, ctx) => {
      const problem = parametersProblem(p);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .default({ type: 'object', properties: {} }),
  webhook_id: z.guid({ error: 'Must be a UUID' }),
});

const uniqueNames = (items: { name: string }[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.name)) ctx.addIssue({ code: 'custom', message: 'Duplicate name', path: [i, 'name'] });
    seen.add(item.name);
  });
};

/**
 * `agent_flow` (docs/agents.md, "States and flow tools"): optional states of a state machine,
 * flows the model may call as tools, and the numbers `transfer_call` may reach. Other keys
 * are kept as given.
 */
export const agentFlowSchema = z
  .looseObject({
    states: z.array(state).max(100, 'At most 100 states').superRefine(uniqueNames).optional(),
    tools: z.array(flowTool).max(50, 'At most 50 tools').superRefine(uniqueNames).optional(),
    transfer_numbers: z
      .array(z.string().regex(/^\+[1-9]\d{6,14}$/, 'Must be an E.164 number such as +14155550100'))
      .max(50)
      .optional(),
  })
  .superRefine((flow, ctx) => {
    const names = new Set(flow.states?.map((s) => s.name));
    flow.states?.forEach((s, i) =>
      s.next.forEach((n, j) => {
        if (!names.has(n)) ctx.addIssue({ code: 'custom', message: `No state is named ${n}`, path: ['states', i, 'next', j] });
      }),
    );
  });

export type AgentFlow = z.output<typeof agentFlowSchema>;
export type AgentState = NonNullable<AgentFlow['states']>[number];
export type FlowToolDefinition = NonNullable<AgentFlow['tools']>[number];

/** A stored `agent_flow` read leniently (agents stored before it was validated): invalid parts are ignored. */
export function readAgentFlow(stored: Record<string, unknown>): AgentFlow {
  const parsed = agentFlowSchema.safeParse(stored);
  return parsed.success ? parsed.data : {};
}

/**
 * The conversation's current state: its prompt joins the system prompt, and `go_to_state`
 * moves along `next`. No states: no prompt, no tool.
 */
export class StateMachine {
  private current: AgentState | undefined;

  constructor(
    private readonly states: AgentState[],
    startingState: string,
    private readonly fill: (text: string) => string = (text) => text,
  ) {
    this.current = states.find((s) => s.name === startingState) ?? states[0];
  }

  get name(): string | undefined {
    return this.current?.name;
  }

  /** The current state's part of the system prompt (its placeholders filled like the agent's prompt). */
  prompt(): string {
    if (!this.current) return '';
    return `Current state: ${this.current.name}.${this.current.prompt ? `\n${this.fill(this.current.prompt)}` : ''}`;
  }

  /** The `go_to_state` tool, offered while the current state has somewhere to go. */
  tool(): CallTool | null {
    if (!this.current || this.current.next.length === 0) return null;
    return {
      spec: {
        name: 'go_to_state',
        description: 'Moves the conversation to its next state, when the current state is done.',
        parameters: { type: 'object', properties: { state: { type: 'string', enum: this.current.next } }, required: ['state'], additionalProperties: false },
      },
      run: async (args) => ({ content: this.go(args.state) }),
    };
  }

  /** Moves to `target` if the current state allows it; the answer is for the model. */
  private go(target: unknown): string {
    const allowed = this.current?.next ?? [];
    const next = typeof target === 'string' && allowed.includes(target) ? this.states.find((s) => s.name === target) : undefined;
    if (!next) return `Error: you cannot go to ${String(target)} from here. Allowed: ${allowed.join(', ') || 'none'}.`;
    this.current = next;
    return `Now in state ${next.name}.`;
  }
}
