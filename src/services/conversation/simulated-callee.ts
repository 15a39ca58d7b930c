import type { Logger } from '../../logger';
import { CollectingSink } from './collecting-sink';
import type { ConversationEndReason, ConversationOpener, ConversationOpening } from './conversation';
import type { ChatMessage, LanguageModel } from './language-model';

/** What the simulated callee knows of itself: the call's contact, when it has one. */
export interface CalleeContact {
  firstname: string;
  lastname: string;
  metadata: Record<string, unknown>;
}

/** The opening of the callee persona's system prompt (tests tell its requests from the agent's by it). */
export const CALLEE_PERSONA_INTRO = 'You are playing the person who answers a phone call';

/** Said to the callee's model when the agent waits for the callee to speak first. */
const PICKED_UP = '[The phone rings and you pick it up. Answer it.]';

/**
 * The system prompt of a caller a test scenario describes (docs/agents.md, "Test suites"): its
 * persona, in the agent's language, briefly.
 */
export function scenarioPersona(persona: string, language: string): string {
  return [
    `${CALLEE_PERSONA_INTRO} from an automated agent (a simulated test call). Play this person:`,
    persona.trim(),
    `Speak in the language ${language}. Answer as a person on the phone would: one or two short sentences, plain words, no lists, no stage directions. Say goodbye when the conversation is over.`,
  ].join('\n\n');
}

/**
 * The system prompt of the simulated callee: a person built from the call's contact (names,
 * metadata), or a generic person, speaking the agent's language, briefly.
 */
export function calleePersona(contact: CalleeContact | null, language: string): string {
  const name = contact ? [contact.firstname, contact.lastname].filter((n) => n.trim() !== '').join(' ') : '';
  const facts = contact ? Object.entries(contact.metadata).map(([k, v]) => `- ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`) : [];
  return [
    `${CALLEE_PERSONA_INTRO} from an automated agent (a simulated call, for a demo).`,
    name ? `Your name is ${name}.` : 'You are an ordinary person; make up a plausible name if asked.',
    facts.length ? `What is known about you:\n${facts.join('\n')}` : '',
    `Speak in the language ${language}. Answer as a person on the phone would: one or two short sentences, plain words, no lists, no stage directions.`,
    'Cooperate, ask a question now and then, and say goodbye when the conversation is over.',
  ]
    .filter((p) => p !== '')
    .join('\n\n');
}

export interface SimulatedCalleeOptions {
  /** The callee's turns before it hangs up (`user_hangup`). */
  maxTurns: number;
  /** Temperature of the callee's model. */
  temperature?: number;
  /** The callee's system prompt, instead of the one built from the call's contact (`calleePersona`): a test scenario's persona. */
  persona?: string;
}

/** What a run is told by the call it runs on. */
export interface SimulatedRunHooks {
  /** Stops the conversation where it is (the process is stopping). */
  signal?: AbortSignal;
  /** Whether the call is still live; asked before each of the callee's turns. */
  live?: () => Promise<boolean>;
  /** The agent transferred the call (`summary`: a warm transfer's): answers whether the agent comes back (a warm transfer nobody took). */
  transferred?: (number: string, summary: string | null) => Promise<boolean>;
}

/** What the callee carries from one session of the conversation to the next. */
interface CalleeState {
  contact: CalleeContact | null;
  language: string;
  /** The callee's own history: the agent's turns as the user's, its replies as the assistant's. */
  history: ChatMessage[];
  turns: number;
  gone: boolean;
}

/**
 * A simulated callee, knowing no transport: it opens a call's conversation (the agent, as on
 * a real call) and answers each agent turn with a short reply of a second model persona,
 * until the agent ends the call or the callee has spoken `maxTurns` times. The agent's turns
 * are stored on the call by the conversation itself. When the agent transfers the call and
 * `transferred` says it comes back, the conversation is opened again (`transfer_failed`) and
 * the callee talks on.
 */
export class SimulatedCallee {
  constructor(
    private readonly model: LanguageModel,
    private readonly opener: ConversationOpener,
    private readonly options: SimulatedCalleeOptions,
    private readonly logger: Logger,
  ) {}

  /**
   * Runs the conversation of a live call; resolves how it ended, or null when the call could
   * not be opened, `signal` stopped the conversation or `live` found the call ended by other
   * means (the call is then left as it is).
   */
  async run(callId: string, contact: CalleeContact | null, language: string, hooks: SimulatedRunHooks = {}): Promise<ConversationEndReason | null> {
    const state: CalleeState = { contact, language, history: [], turns: 0, gone: false };
    let opening: ConversationOpening = 'new';
    for (;;) {
      const sink = new CollectingSink();
      const reason = await this.session(callId, opening, sink, state, hooks);
      if (reason === null) return opening === 'new' ? null : 'call_transfer';
      if (sink.transferred && hooks.transferred && (await hooks.transferred(sink.transferred.number, sink.transferred.summary))) {
        opening = 'transfer_failed';
        continue;
      }
      return (hooks.signal?.aborted || state.gone) && !sink.ended ? null : reason;
    }
  }

  /** One session of the conversation, until the agent ends it or the callee's turns run out; null when it could not be opened. */
  private async session(callId: string, opening: ConversationOpening, sink: CollectingSink, state: CalleeState, { signal, live }: SimulatedRunHooks): Promise<ConversationEndReason | null> {
    const conversation = await this.opener.open(callId, sink, opening);
    if (!conversation) return null;
    let seen = 0;
    let reason: ConversationEndReason | null = null;
    const stillLive = async () => !(state.gone ||= !(await (live?.() ?? Promise.resolve(true))));
    try {
      await conversation.start();
      for (; state.turns < this.options.maxTurns && !sink.ended && !signal?.aborted && (await stillLive()); state.turns++) {
        for (; seen < sink.agentTurns.length; seen++) state.history.push({ role: 'user', content: sink.agentTurns[seen] });
        const reply = await this.reply(state, signal);
        if (reply === '' || !(await stillLive())) break;
        state.history.push({ role: 'assistant', content: reply });
        await conversation.userSaid(reply, true);
      }
      reason = sink.ended ?? 'user_hangup';
    } catch (err) {
      if (!signal?.aborted) this.logger.warn({ err, callId }, 'simulated callee failed');
      reason = sink.ended ?? 'llm_error';
    } finally {
      await conversation.close(reason ?? 'llm_error');
    }
    return reason;
  }

  /** The callee's next reply, from its persona and what it heard so far. */
  private async reply(state: CalleeState, signal: AbortSignal | undefined): Promise<string> {
    const prompt: ChatMessage[] = state.history.length === 0 ? [{ role: 'user', content: PICKED_UP }] : state.history;
    const answer = await this.model.stream(
      {
        messages: [{ role: 'system', content: this.options.persona ?? calleePersona(state.contact, state.language) }, ...prompt],
        temperature: this.options.temperature,
        ...(signal ? { signal } : {}),
      },
      () => undefined,
    );
    return answer.text.trim();
  }
}
