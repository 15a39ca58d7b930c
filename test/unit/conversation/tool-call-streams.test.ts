import { OpenAiCompatibleModel } from '../../../src/services/conversation/language-model';
import { FakeLlm } from '../../support/fake-llm';

let llm: FakeLlm;
let model: OpenAiCompatibleModel;
beforeAll(async () => {
  llm = await FakeLlm.start();
  model = new OpenAiCompatibleModel({ baseUrl: llm.baseUrl, apiKey: undefined, model: 'fake-model', timeoutMs: 10_000, streamUsage: true });
});
afterAll(() => llm.close());

const fn = (name: string | undefined, args: string) => ({ ...(name === undefined ? {} : { name }), arguments: args });

/** Tool-call deltas as each provider streams one call to press_digits {"digits":"1#"} (and, where it can, a second call). */
const shapes: [string, Record<string, unknown>[], string][] = [
  [
    'OpenAI: id and name once, then arguments by index',
    [
      { role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: fn('press_digits', '') }] },
      { tool_calls: [{ index: 0, function: fn(undefined, '{"digits":') }] },
      { tool_calls: [{ index: 0, function: fn(undefined, '"1#"}') }] },
      { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: fn('end_call', '{}') }] },
    ],
    'tool_calls',
  ],
  [
    'NVIDIA NIM: the name again in every fragment',
    [
      { role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'chatcmpl-tool-a', type: 'function', function: fn('press_digits', '') }] },
      { tool_calls: [{ index: 0, id: 'chatcmpl-tool-a', type: 'function', function: fn('press_digits', '{"digits":') }] },
      { tool_calls: [{ index: 0, id: 'chatcmpl-tool-a', type: 'function', function: fn('press_digits', '"1#"}') }] },
      { tool_calls: [{ index: 1, id: 'chatcmpl-tool-b', type: 'function', function: fn('end_call', '{}') }] },
    ],
    'tool_calls',
  ],
  [
    'Fireworks: the name in every fragment, no index',
    [
      { role: 'assistant', tool_calls: [{ id: 'call_a', type: 'function', function: fn('press_digits', '') }] },
      { tool_calls: [{ type: 'function', function: fn('press_digits', '{"digits":') }] },
      { tool_calls: [{ type: 'function', function: fn('press_digits', '"1#"}') }] },
      { tool_calls: [{ id: 'call_b', type: 'function', function: fn('end_call', '{}') }] },
    ],
    'tool_calls',
  ],
  [
    "Gemini's OpenAI-compatible API: no index, two calls in one chunk, arguments split without index, finish_reason stop",
    [
      {
        role: 'assistant',
        tool_calls: [
          { id: 'function-call-a', type: 'function', function: fn('press_digits', '{"digits":') },
          { id: 'function-call-b', type: 'function', function: fn('end_call', '{}') },
        ],
      },
      { tool_calls: [{ id: 'function-call-a', function: fn(undefined, '"1#"}') }] },
    ],
    'stop',
  ],
];

describe('tool calls streamed the way providers stream them', () => {
  it.each(shapes)('%s', async (_, deltas, finishReason) => {
    llm.reply({ deltas, finishReason });
    const answer = await model.stream({ messages: [{ role: 'user', content: 'Press 1#' }] }, () => undefined);
    expect(answer.toolCalls.map(({ name, arguments: args }) => [name, args])).toEqual([
      ['press_digits', '{"digits":"1#"}'],
      ['end_call', '{}'],
    ]);
    expect(new Set(answer.toolCalls.map((c) => c.id)).size).toBe(2);
  });
});
