import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake answers to one request. Defaults: a short text, streamed at once. */
export interface ScriptedReply {
  /** The answer's text, streamed word by word (or as `chunks`, piece by piece); with `toolCalls`, before them. */
  text?: string;
  chunks?: string[];
  /** The answer's content is this value as JSON (a JSON-schema answer). */
  json?: unknown;
  /** Tool calls; `arguments` is sent as given when a string, else as its JSON. */
  toolCalls?: { name: string; arguments: unknown }[];
  /** A provider's recorded deltas, each sent as the `delta` of one chunk, then a chunk with `finishReason` (default `tool_calls`). */
  deltas?: Record<string, unknown>[];
  finishReason?: string;
  /** Wait before the first chunk (a slow first token). */
  firstTokenDelayMs?: number;
  /** Wait between chunks. */
  chunkDelayMs?: number;
  /** Answer this HTTP status with an OpenAI error body instead. */
  status?: number;
  /** Headers of that error answer (`Retry-After`). */
  headers?: Record<string, string>;
  /** Send nothing more after this many chunks, the connection left open (a stalled stream). */
  stallAfterChunks?: number;
  /** Drop the connection after this many chunks (a cut stream). */
  cutAfterChunks?: number;
  /** Send a line that is not JSON in the middle of the stream. */
  garbage?: boolean;
  /** The usage chunk's counts, when the request asks for it (default: the words of the request's messages, and the answer's chunks). */
  usage?: { prompt_tokens: number; completion_tokens: number };
}

/** A request the fake received: the parsed JSON body of POST /v1/chat/completions. */
export type RecordedRequest = Record<string, any>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The chunks of a streamed answer, in OpenAI's `chat.completion.chunk` shape. */
function chunksOf(reply: ScriptedReply, model: string): Record<string, unknown>[] {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const choice = (delta: Record<string, unknown>, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  if (reply.deltas) return [...reply.deltas.map((d) => choice(d)), choice({}, reply.finishReason ?? 'tool_calls')];
  const text = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? (reply.toolCalls ? '' : 'Hello there.'));
  const pieces = reply.chunks ?? (reply.json !== undefined ? [text.slice(0, text.length >> 1), text.slice(text.length >> 1)] : (text.match(/\S+\s*/g) ?? []));
  const out = [choice({ role: 'assistant', content: '' })];
  out.push(...pieces.filter((p) => p !== '').map((p) => choice({ content: p })));
  reply.toolCalls?.forEach((call, index) => {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    out.push(choice({ tool_calls: [{ index, id: `call_${index}_fake`, type: 'function', function: { name: call.name, arguments: '' } }] }));
    // Arguments arrive in fragments, as OpenAI streams them.
    for (const part of [args.slice(0, args.length >> 1), args.slice(args.length >> 1)]) out.push(choice({ tool_calls: [{ index, function: { arguments: part } }] }));
  });
  out.push(choice({}, reply.toolCalls ? 'tool_calls' : 'stop'));
  return out;
}

/**
 * As OpenAI streams with `stream_options.include_usage`: every chunk carries `usage: null`, and
 * one more chunk, with no choices, carries the request's usage.
 */
function withUsage(chunks: Record<string, unknown>[], reply: ScriptedReply, request: RecordedRequest): Record<string, unknown>[] {
  const words = (request.messages as { content?: unknown }[]).reduce((n, m) => n + (typeof m.content === 'string' ? (m.content.match(/\S+/g) ?? []).length : 0), 0);
  const counts = reply.usage ?? { prompt_tokens: words, completion_tokens: chunks.length - 2 };
  const usage = { ...counts, total_tokens: counts.prompt_tokens + counts.completion_tokens };
  return [...chunks.map((c) => ({ ...c, usage: null })), { ...chunks[0], choices: [], usage }];
}

/** A non-streamed answer (`stream` false), in OpenAI's `chat.completion` shape. */
function completionOf(reply: ScriptedReply, model: string): Record<string, unknown> {
  const content = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.chunks?.join('') ?? reply.text ?? (reply.toolCalls ? null : 'Hello there.'));
  const toolCalls = reply.toolCalls?.map((c, i) => ({
    id: `call_${i}_fake`,
    type: 'function',
    function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
  }));
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null, ...(toolCalls ? { tool_calls: toolCalls } : {}) }, logprobs: null, finish_reason: toolCalls ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

/**
 * What the strictest common chat templates refuse (their own messages): a system message
 * anywhere but first (Qwen3, Llama), no user message (Qwen3), user and assistant turns not
 * alternating from a user turn after the system message (Gemma, Mistral: assistant messages
 * with tool calls and tool results do not count), an assistant message with neither text nor
 * tool calls, a tool result not after a tool call.
 */
function templateError(messages: RecordedRequest[]): string | null {
  let expected: 'user' | 'assistant' = 'user';
  for (const [i, m] of messages.entries()) {
    const toolCalls = m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
    if (m.role === 'system') {
      if (i !== 0) return 'System message must be at the beginning.';
      continue;
    }
    if (m.role === 'tool') {
      const before = messages[i - 1];
      if (before?.role !== 'tool' && !(before?.role === 'assistant' && before.tool_calls?.length)) return 'Tool results must follow a tool call.';
      continue;
    }
    if (m.role === 'assistant' && !toolCalls && (typeof m.content !== 'string' || m.content.trim() === '')) return 'Assistant message must have content.';
    if (toolCalls) continue;
    if (m.role !== expected) return 'Conversation roles must alternate user/assistant/user/assistant/...';
    expected = expected === 'user' ? 'assistant' : 'user';
  }
  return messages.some((m) => m.role === 'user') ? null : 'No user query found in messages.';
}

/** A request of the post-call analysis (its JSON schema's name). */
const isAnalysis = (request: RecordedRequest): boolean => request.response_format?.json_schema?.name === 'post_call_analysis';

/**
 * A local OpenAI-compatible Chat Completions server speaking the real wire protocol
 * (`POST {base}/chat/completions`, Server-Sent Events `data: {chunk}` lines ending with
 * `data: [DONE]`), scripted per test: replies are taken from a queue, then `fallback`.
 */
export class FakeLlm {
  readonly requests: RecordedRequest[] = [];
  /**
   * Render the messages through a strict chat template first, as vLLM and llama.cpp do with
   * Llama, Qwen3, Gemma or Mistral templates, and answer 400 as vLLM does when it refuses them.
   */
  strictTemplate = false;
  fallback: ScriptedReply | ((request: RecordedRequest) => ScriptedReply) = {};
  /**
   * When set, what the post-call analysis' requests (JSON schema `post_call_analysis`) get,
   * leaving the queue to the conversation: an analysis of an earlier call, asked for while a
   * test queues a turn's reply, would otherwise take that reply.
   */
  analysis: ScriptedReply | null = null;
  private readonly queue: ScriptedReply[] = [];
  private readonly server: Server;

  private constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  static async start(): Promise<FakeLlm> {
    const fake = new FakeLlm();
    fake.server.listen(0, '127.0.0.1');
    await once(fake.server, 'listening');
    return fake;
  }

  /** The `LLM_BASE_URL` to point the service at. */
  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /**
   * The requests from index `from` on that are a conversation's, without the post-call
   * analysis' (an earlier call's may come at any moment).
   */
  conversationRequests(from = 0): RecordedRequest[] {
    return this.requests.slice(from).filter((request) => !isAnalysis(request));
  }

  /** Queues the next replies, in order. */
  reply(...replies: ScriptedReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const part of req) raw += String(part);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Not found', type: 'invalid_request_error' } }));
      return;
    }
    const body = JSON.parse(raw) as RecordedRequest;
    this.requests.push(body);
    const refused = this.strictTemplate ? templateError(body.messages) : null;
    if (refused) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'error', message: refused, type: 'BadRequestError', param: null, code: 400 }));
      return;
    }
    const analysis = this.analysis && isAnalysis(body) ? this.analysis : null;
    const reply = analysis ?? this.queue.shift() ?? (typeof this.fallback === 'function' ? this.fallback(body) : this.fallback);
    if (reply.firstTokenDelayMs) await sleep(reply.firstTokenDelayMs);
    if (reply.status) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify({ error: { message: 'The server had an error', type: 'server_error', code: null } }));
      return;
    }
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completionOf(reply, body.model)));
      return;
    }
    await this.stream(res, reply, body);
  }

  private async stream(res: ServerResponse, reply: ScriptedReply, request: RecordedRequest): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const answer = chunksOf(reply, request.model);
    const chunks = request.stream_options?.include_usage ? withUsage(answer, reply, request) : answer;
    for (const [i, chunk] of chunks.entries()) {
      if (reply.cutAfterChunks !== undefined && i >= reply.cutAfterChunks) {
        res.socket?.destroy();
        return;
      }
      if (reply.stallAfterChunks !== undefined && i >= reply.stallAfterChunks) return;
      if (reply.garbage && i === 2) res.write('data: {"id": "chatcmpl-fake", "choices": [garbage\n\n');
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
    }
    res.end('data: [DONE]\n\n');
  }
}
