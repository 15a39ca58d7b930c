import type { MikroORM } from '@mikro-orm/postgresql';
import type { AgentService } from '../agents/agent.service';
import { PreconditionError, ValidationError } from '../shared/errors';
import type { FlowRunner } from '../flows/flow-runner';
import { type TestChatInput, testChatWrite } from './playground.input';
import type { Caller } from '../shared/scope';
import { parseInput } from '../shared/validation';
import { readAgentFlow } from './agent-flow';
import { engineSettingsOf } from './agent-settings';
import type { OptOutList } from './call-tools';
import { CollectingSink } from './collecting-sink';
import type { ConversationEndReason } from './conversation';
import { ConversationEngine } from './engine';
import { CompanyFlowInvoker } from './flow-tools';
import { type LanguageModel, LanguageModelError, type ModelAnswer, type ToolCall } from './language-model';
import type { OperationLimits } from '../platform/rate-limit.service';

export interface TestTurn {
  /** What the agent said in the turn, its lines joined by a space (an apology or the fallback line included). */
  reply: string;
  /** Every tool the model called in the turn, in order, arguments parsed (the raw text when not JSON). */
  toolCalls: { name: string; arguments: unknown }[];
  /** The state after the turn (go_to_state applied); null for an agent without states. */
  state: string | null;
  /** How the call would end after this turn (`agent_hangup`, `call_transfer`, `llm_error`); null when it goes on. */
  endReason: ConversationEndReason | null;
  /** Why the model failed, when it did (`The language model failed (http)`); null otherwise. */
  error: string | null;
}

/** A tool call's arguments, parsed (the raw text when not JSON). */
export const parsedArguments = (text: string): unknown => {
  try {
    return JSON.parse(text === '' ? '{}' : text);
  } catch {
    return text;
  }
};

/** The model as the playground and test calls ask it: every tool call and the last failure are kept for the answer. */
export class ReportingModel implements LanguageModel {
  readonly toolCalls: ToolCall[] = [];
  failure: string | null = null;

  constructor(private readonly model: LanguageModel) {}

  async stream(request: Parameters<LanguageModel['stream']>[0], onToken: (token: string) => void): Promise<ModelAnswer> {
    try {
      const answer = await this.model.stream(request, onToken);
      this.toolCalls.push(...answer.toolCalls);
      return answer;
    } catch (err) {
      if (err instanceof LanguageModelError && err.kind !== 'aborted') this.failure = `The language model failed (${err.kind})`;
      throw err;
    }
  }

  structured(request: Parameters<LanguageModel['structured']>[0]): Promise<unknown> {
    return this.model.structured(request);
  }
}

/**
 * The agent playground (docs/agents.md, "Playground"): the agent's next turn for a conversation
 * given in full, without a call, run by the call's own engine: the same prompt, placeholders,
 * states, welcome greeting, tool rounds and failures (retries, the fallback line, the apology).
 * Flow tools trigger the company's flows for real; end_call, transfer_call and do_not_call are
 * reported (`endReason`) with nothing to end, dial or list; press_digits plays nothing.
 */
export class PlaygroundService {
  static readonly limits = { testTurn: 'make-call' } as const satisfies OperationLimits<PlaygroundService>;

  constructor(
    private readonly agents: AgentService,
    private readonly model: LanguageModel | null,
    private readonly orm: MikroORM,
    private readonly flows: FlowRunner,
  ) {}

  async testTurn(caller: Caller, agentId: string, input: TestChatInput): Promise<TestTurn> {
    const agent = await this.agents.get(caller, agentId);
    const { messages, dynamicVariables: variables, state } = parseInput(testChatWrite, input);
    if (state && !readAgentFlow(agent.agentFlow).states?.some((s) => s.name === state)) throw ValidationError.of('state', "Must name a state of the agent's flow");
    if (!this.model) throw new PreconditionError(NO_MODEL);
    const model = new ReportingModel(this.model);
    const flows = new CompanyFlowInvoker(this.orm, this.flows, caller.scope.companyId, NO_CALL_CONTEXT);
    const call = { callFrom: '', callTo: '', callDirection: 'outgoing', agentDynamicVariables: variables };
    const settings = engineSettingsOf({ ...agent, startingState: state ?? agent.startingState }, call, { optOut: NO_LIST, flows });
    const sink = new CollectingSink();
    const engine = new ConversationEngine({ ...settings, silence: { reminderMs: null, maxMs: 0 } }, { model, sink, recorder: NO_TRANSCRIPT });
    await engine.answerConversation(messages.map((m) => ({ role: m.role, text: m.content })));
    await engine.close(sink.ended ?? 'agent_hangup');
    return {
      reply: sink.agentTurns.join(' '),
      toolCalls: model.toolCalls.map((c) => ({ name: c.name, arguments: parsedArguments(c.arguments) })),
      state: settings.states.name ?? null,
      endReason: sink.ended,
      error: model.failure,
    };
  }
}

/** What the playground says without a model: how to configure one, and where that is explained. */
export const NO_MODEL =
  'No language model is configured. Set LLM_MODEL (and LLM_BASE_URL for a server other than OpenAI\'s, LLM_API_KEY if it needs one) and restart; see docs/agents.md, "Pointing it at a model server".';

/** The playground has no call, so no number to list: do_not_call answers the model as if it were listed, and writes nothing. */
export const NO_LIST: OptOutList = { optOut: async () => 'listed' };

/** A flow triggered from the playground has no call: its call variables are empty. */
const NO_CALL_CONTEXT = { call_id: '', contact_id: null, call_from: '', call_to: '' };

/** The playground stores no transcript. */
const NO_TRANSCRIPT = { save: () => undefined, settled: async () => undefined };
