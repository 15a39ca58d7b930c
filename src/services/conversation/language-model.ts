import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { Agent } from 'undici';
import type { LlmConfig } from '../../config';
import type { Logger } from '../../logger';
import { modelFetch } from './model-fetch';

/** A call the model asked for; `arguments` is the model's JSON text, unparsed (it may be invalid). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One message of the history, in the Chat Completions roles. */
export type ChatMessage = { role: 'system' | 'user'; content: string } | { role: 'assistant'; content: string; toolCalls?: ToolCall[] } | { role: 'tool'; toolCallId: string; content: string };

/** A tool offered to the model; `parameters` is a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  /** The provider's own scale (OpenAI: 0 to 2). */
  temperature?: number;
  /** Aborting stops the request; the answer then rejects with a `LanguageModelError` of kind `aborted`. */
  signal?: AbortSignal;
  /** Told when the first piece of the answer (text or a tool call) arrives. */
  onFirstToken?: () => void;
}

/** A JSON-schema answer (`response_format: json_schema`, strict). */
export interface StructuredRequest {
  messages: ChatMessage[];
  schemaName: string;
  schema: Record<string, unknown>;
  signal?: AbortSignal;
}

export interface ModelAnswer {
  text: string;
  toolCalls: ToolCall[];
  /** The tokens the request cost, as the stream's usage chunk reported them; undefined when the server sent none. */
  usage?: TokenUsage;
}

/** Tokens a model read (the prompt) and wrote (the answer). */
export interface TokenUsage {
  input: number;
  output: number;
}

export type LanguageModelErrorKind = 'timeout' | 'unreachable' | 'http' | 'protocol' | 'aborted';

/** Every failure of the model, whatever the server or the SDK threw. */
export class LanguageModelError extends Error {
  constructor(
    readonly kind: LanguageModelErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** The language model of a conversation (docs/architecture.md: a port with one implementation). */
export interface LanguageModel {
  /** Streams an answer: `onToken` gets each piece of text as it comes; tool calls come whole at the end. */
  stream(request: ModelRequest, onToken: (token: string) => void): Promise<ModelAnswer>;
  /** One JSON answer that the server was asked to fit to `schema`, parsed (not checked against it). */
  structured(request: StructuredRequest): Promise<unknown>;
}

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

function toWire(message: ChatMessage): WireMessage {
  if (message.role === 'tool') return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  if (message.role === 'assistant' && message.toolCalls?.length) {
    return {
      role: 'assistant',
      content: message.content,
      tool_calls: message.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
    };
  }
  return { role: message.role, content: message.content };
}

/**
 * Bounds one request: the first token within `firstTokenMs`, everything within `totalMs`,
 * and the caller's own signal. `reason` tells afterwards which one fired.
 */
class Deadline {
  readonly controller = new AbortController();
  reason: LanguageModelErrorKind | null = null;
  /** When the first token is due, on Date.now()'s clock. */
  readonly firstTokenBy: number;
  private readonly timers: NodeJS.Timeout[];
  private nextToken: NodeJS.Timeout | undefined;
  private started = false;
  private readonly onAbort = () => this.fire('aborted');

  constructor(
    firstTokenMs: number,
    totalMs: number,
    private readonly interTokenMs: number | undefined,
    private readonly signal?: AbortSignal,
  ) {
    this.firstTokenBy = Date.now() + firstTokenMs;
    this.timers = [setTimeout(() => this.fire('timeout'), firstTokenMs), setTimeout(() => this.fire('timeout'), totalMs)];
    if (signal?.aborted) this.fire('aborted');
    signal?.addEventListener('abort', this.onAbort);
  }

  /** A piece of the answer came: the next one is due within the inter-token limit. True for the first piece. */
  token(): boolean {
    const first = !this.started;
    this.started = true;
    clearTimeout(this.timers[0]);
    clearTimeout(this.nextToken);
    if (this.interTokenMs !== undefined) this.nextToken = setTimeout(() => this.fire('timeout'), this.interTokenMs);
    return first;
  }

  done(): void {
    this.timers.forEach(clearTimeout);
    clearTimeout(this.nextToken);
    this.signal?.removeEventListener('abort', this.onAbort);
  }

  private fire(reason: LanguageModelErrorKind): void {
    this.reason ??= reason;
    this.controller.abort();
  }

  /** The one error type, from whatever was thrown while this deadline ran. */
  error(err: unknown): LanguageModelError {
    if (err instanceof LanguageModelError) return err;
    if (this.reason === 'aborted') return new LanguageModelError('aborted', 'The request was canceled');
    if (this.reason === 'timeout') return new LanguageModelError('timeout', 'The language model did not answer in time');
    if (err instanceof OpenAI.APIConnectionError) return new LanguageModelError('unreachable', `The language model is unreachable: ${err.message}`);
    if (err instanceof OpenAI.APIError) return new LanguageModelError('http', `The language model answered HTTP ${err.status ?? '?'}: ${err.message}`);
    return new LanguageModelError('protocol', `The language model's answer was malformed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Gathers streamed tool-call fragments: OpenAI sends the id and name once, then the arguments
 * in pieces, each with the call's `index`. Providers depart from that (docs/agents.md, "Model
 * servers"): NVIDIA NIM and Fireworks resend the name with every fragment (a name equal to
 * the one gathered is not appended), Gemini's OpenAI-compatible API omits `index` (a fragment
 * without one belongs to the call its id names, a new call for a new id, else the call of the
 * fragment before).
 */
class ToolCallAccumulator {
  private readonly calls = new Map<number, ToolCall>();
  private current: number | null = null;

  add(deltas: OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta.ToolCall[]): void {
    for (const d of deltas) {
      const index = this.slot(d);
      const call = this.calls.get(index) ?? { id: '', name: '', arguments: '' };
      if (d.id) call.id = d.id;
      const name = d.function?.name;
      if (name && name !== call.name) call.name += name;
      if (d.function?.arguments) call.arguments += d.function.arguments;
      this.calls.set(index, call);
      this.current = index;
    }
  }

  /** The call a fragment belongs to. */
  private slot(d: { index?: number | null; id?: string }): number {
    if (typeof d.index === 'number') return d.index;
    const byId = d.id ? [...this.calls].find(([, c]) => c.id === d.id) : undefined;
    if (byId) return byId[0];
    if (d.id && this.current !== null && this.calls.get(this.current)?.id !== '') return Math.max(...this.calls.keys()) + 1;
    return this.current ?? 0;
  }

  result(): ToolCall[] {
    const calls = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
    if (calls.some((c) => c.name === '')) throw new LanguageModelError('protocol', 'A tool call came without a name');
    return calls.map((c, i) => ({ ...c, id: c.id || `call_${i}` }));
  }
}

/**
 * Any OpenAI-compatible Chat Completions server through the official SDK and its `baseURL`.
 * Always streams (Server-Sent Events). The SDK's own retries are off (they would wait out a
 * `Retry-After` of up to a minute while the caller hears nothing): `complete` retries within
 * the first token's time limit, then the conversation decides what a failure means.
 */
export class OpenAiCompatibleModel implements LanguageModel {
  private readonly client: OpenAI;
  /** The connections to the model host, kept alive between requests (undici's defaults: 4 s idle, or what the server's Keep-Alive says). */
  private readonly agent = new Agent();

  constructor(
    private readonly config: LlmConfig,
    logger?: Logger,
  ) {
    // The SDK refuses an empty key; local servers ignore whatever is sent. Its own logging
    // (a malformed stream, say) goes to our logger, not the console.
    this.client = new OpenAI({
      baseURL: config.baseUrl,
      apiKey: config.apiKey ?? 'none',
      maxRetries: 0,
      timeout: config.timeoutMs * 3,
      fetch: modelFetch(this.agent),
      ...(logger ? { logger: logger.child({ component: 'llm' }), logLevel: 'warn' as const } : { logLevel: 'off' as const }),
    });
  }

  /** Closes the connections to the model host once the requests in flight are answered. */
  close(): Promise<void> {
    return this.agent.close();
  }

  private deadline(signal?: AbortSignal): Deadline {
    return new Deadline(this.config.timeoutMs, this.config.timeoutMs * 3, this.config.interTokenTimeoutMs, signal);
  }

  async stream(request: ModelRequest, onToken: (token: string) => void): Promise<ModelAnswer> {
    return this.complete(
      request,
      {
        ...(request.tools?.length ? { tools: request.tools.map((t) => ({ type: 'function' as const, function: t })) } : {}),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      },
      onToken,
    );
  }

  /** Streamed too, so that the first-token timeout applies; the JSON is parsed once complete. */
  async structured(request: StructuredRequest): Promise<unknown> {
    const format = { type: 'json_schema' as const, json_schema: { name: request.schemaName, strict: true, schema: request.schema } };
    const { text } = await this.complete(request, { response_format: format }, () => undefined);
    try {
      return JSON.parse(unfenced(text)) as unknown;
    } catch (err) {
      throw new LanguageModelError('protocol', `The language model's answer was malformed: ${(err as Error).message}`);
    }
  }

  /**
   * One answer under the deadlines: the model, retried once on a passing failure (429, 500,
   * 502, 503, 504) after its `Retry-After` or a short pause, then the fallback model the same
   * way, as long as the first token's time limit allows the wait (docs/agents.md, "Failures").
   */
  private async complete(request: { messages: ChatMessage[]; signal?: AbortSignal; onFirstToken?: () => void }, params: RequestParams, onToken: (token: string) => void): Promise<ModelAnswer> {
    const deadline = this.deadline(request.signal);
    const models = [this.config.model, ...(this.config.fallbackModel ? [this.config.fallbackModel] : [])];
    let failure: unknown;
    try {
      for (const model of models) {
        for (let attempt = 1; attempt <= ATTEMPTS_PER_MODEL; attempt++) {
          try {
            return await this.attempt(model, request, params, onToken, deadline);
          } catch (err) {
            failure = err;
            const wait = retryWait(err, attempt);
            if (wait === null) throw err;
            if (attempt === ATTEMPTS_PER_MODEL || Date.now() + wait >= deadline.firstTokenBy) break;
            await sleep(wait, undefined, { signal: deadline.controller.signal });
          }
        }
      }
      throw failure;
    } catch (err) {
      throw deadline.error(err);
    } finally {
      deadline.done();
    }
  }

  /**
   * One streamed Chat Completions request; the answer once whole. The usage chunk is asked for
   * (`stream_options.include_usage`, unless LLM_STREAM_USAGE is off): OpenAI sends it last, with no choices, after the
   * `finish_reason`; servers that do not send it leave the answer's usage undefined.
   */
  private async attempt(
    model: string,
    request: { messages: ChatMessage[]; onFirstToken?: () => void },
    params: RequestParams,
    onToken: (token: string) => void,
    deadline: Deadline,
  ): Promise<ModelAnswer> {
    const stream = await this.client.chat.completions.create(
      { model, messages: request.messages.map(toWire), stream: true, ...(this.config.streamUsage ? { stream_options: { include_usage: true } } : {}), ...params },
      { signal: deadline.controller.signal },
    );
    let text = '';
    let finished = false;
    let usage: TokenUsage | undefined;
    const tools = new ToolCallAccumulator();
    const piece = () => {
      if (deadline.token()) request.onFirstToken?.();
    };
    for await (const chunk of stream) {
      if (chunk.usage) usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens };
      const choice = chunk.choices?.[0];
      if (choice?.finish_reason) finished = true;
      const delta = choice?.delta;
      if (!delta) continue;
      if (delta.tool_calls?.length) {
        piece();
        tools.add(delta.tool_calls);
      }
      if (delta.content) {
        piece();
        text += delta.content;
        onToken(delta.content);
      }
    }
    if (deadline.reason) throw new Error('interrupted');
    // The SDK ends quietly when the server closes early; an answer is whole only with its finish_reason.
    if (!finished) throw new LanguageModelError('protocol', 'The answer stream ended before the answer did');
    return { text, toolCalls: tools.result(), ...(usage ? { usage } : {}) };
  }
}

/**
 * The JSON of an answer that wrapped it in a Markdown code fence (```json ... ```), as models
 * on servers without strict `json_schema` support often do; any other answer as it is.
 */
const unfenced = (text: string): string => /^\s*```[A-Za-z]*\s*\n([\s\S]*?)\n?```\s*$/.exec(text)?.[1] ?? text;

type RequestParams = Pick<OpenAI.Chat.ChatCompletionCreateParamsStreaming, 'tools' | 'temperature' | 'response_format'>;

/** Requests to one model before the next (the fallback) is asked, or the answer fails. */
const ATTEMPTS_PER_MODEL = 2;
/** HTTP statuses of a passing failure, worth asking again. */
const PASSING = new Set([429, 500, 502, 503, 504]);

/** How long to wait before asking again after `err`; null when asking again would not help. */
function retryWait(err: unknown, attempt: number): number | null {
  if (!(err instanceof OpenAI.APIError) || err instanceof OpenAI.APIConnectionError) return null;
  const status: unknown = err.status;
  if (typeof status !== 'number' || !PASSING.has(status)) return null;
  const header = (err.headers as Headers | undefined)?.get('retry-after') ?? null;
  const seconds = header ? Number(header) : NaN;
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = header ? Date.parse(header) : NaN;
  if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  return 200 * attempt;
}
