import type { AgentService } from '../agent.service';
import { PreconditionError, ValidationError } from '../errors';
import { testChatInput } from '../input/playground.input';
import type { Caller } from '../scope';
import { parseInput } from '../validation';
import { readAgentFlow } from './agent-flow';
import { engineSettingsOf } from './agent-settings';
import { chatHistory } from './chat-history';
import type { OptOutList } from './call-tools';
import { turnContext } from './engine';
import { type ChatMessage, type LanguageModel, LanguageModelError, type ModelAnswer } from './language-model';
import type { OperationLimits } from '../rate-limit.service';

export interface TestTurn {
  reply: string;
  /** The tools the model asked for, arguments parsed (the raw text when not JSON); none is run but go_to_state. */
  toolCalls: { name: string; arguments: unknown }[];
  /** The state after the turn (go_to_state applied); null for an agent without states. */
  state: string | null;
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text === '' ? '{}' : text);
  } catch {
    return text;
  }
};

/**
 * The agent playground: the agent's next turn for a conversation given in full, without a
 * call. Same prompt, placeholders, states and tools as a call; tools are reported, not run
 * (no call to end or transfer, no flow triggered), except go_to_state, which moves `state`.
 */
export class PlaygroundService {
  static readonly limits = { testTurn: 'make-call' } as const satisfies OperationLimits<PlaygroundService>;

  constructor(
    private readonly agents: AgentService,
    private readonly model: LanguageModel | null,
  ) {}

  async testTurn(caller: Caller, agentId: unknown, input: unknown): Promise<TestTurn> {
    const agent = await this.agents.get(caller, agentId);
    const { messages, dynamic_variables: variables, state } = parseInput(testChatInput, input);
    if (state && !readAgentFlow(agent.agentFlow).states?.some((s) => s.name === state)) throw ValidationError.of('state', 'Must name one of the agent_flow.states');
    if (!this.model) throw new PreconditionError(NO_MODEL);
    const settings = engineSettingsOf({ ...agent, startingState: state ?? agent.startingState }, { callFrom: '', callTo: '', callDirection: 'outgoing', agentDynamicVariables: variables }, { optOut: NO_LIST });
    const history: ChatMessage[] = messages.map((m) => ({ role: m.role === 'agent' ? 'assistant' : 'user', content: m.content }));
    const { system, tools } = turnContext(settings);
    const answer = await this.ask(this.model, { messages: chatHistory(system, history), tools: tools.map((t) => t.spec), temperature: settings.temperature });
    for (const call of answer.toolCalls) {
      const tool = tools.find((t) => t.spec.name === 'go_to_state' && call.name === 'go_to_state');
      const args = parsed(call.arguments);
      if (tool && args && typeof args === 'object') await tool.run(args as Record<string, unknown>, NO_SINK, new AbortController().signal);
    }
    return { reply: answer.text, toolCalls: answer.toolCalls.map((c) => ({ name: c.name, arguments: parsed(c.arguments) })), state: settings.states.name ?? null };
  }

  /** A model failure is the request's precondition failing, told plainly (no internals). */
  private async ask(model: LanguageModel, request: Parameters<LanguageModel['stream']>[0]): Promise<ModelAnswer> {
    try {
      return await model.stream(request, () => undefined);
    } catch (err) {
      if (err instanceof LanguageModelError) throw new PreconditionError(`The language model failed (${err.kind})`);
      throw err;
    }
  }
}

/** What the playground says without a model: how to configure one, and where that is explained. */
export const NO_MODEL =
  'No language model is configured. Set LLM_MODEL (and LLM_BASE_URL for a server other than OpenAI\'s, LLM_API_KEY if it needs one) and restart; see docs/agents.md, "Pointing it at a model server".';

/** The playground has no call, so no number to list: do_not_call answers the model as if it were listed, and writes nothing. */
const NO_LIST: OptOutList = { optOut: async () => 'listed' };

/** go_to_state speaks to no transport. */
const NO_SINK = { text: () => undefined, say: () => undefined, end: () => undefined, transfer: () => undefined, sendDigits: () => undefined, language: () => undefined };
