import { OpenAiCompatibleModel } from '../../../src/services/conversation/language-model';
import { FakeLlm } from '../../support/fake-llm';

let llm: FakeLlm;
beforeAll(async () => {
  llm = await FakeLlm.start();
});
afterAll(() => llm.close());

const modelOf = (streamUsage: boolean) => new OpenAiCompatibleModel({ baseUrl: llm.baseUrl, apiKey: undefined, model: 'fake-model', timeoutMs: 10_000, streamUsage });
const ask = (model: OpenAiCompatibleModel) => model.stream({ messages: [{ role: 'user', content: 'Hello' }] }, () => undefined);

describe("a stream's usage chunk (LLM_STREAM_USAGE)", () => {
  it('is asked for by default, and the answer carries the tokens it reports', async () => {
    llm.reply({ text: 'Hi there.' });
    const answer = await ask(modelOf(true));
    expect(llm.conversationRequests().at(-1)?.stream_options).toEqual({ include_usage: true });
    expect(answer.usage?.input).toBeGreaterThan(0);
    expect(answer.usage?.output).toBeGreaterThan(0);
  });

  it('is not asked for when off, so a server that refuses stream_options still answers', async () => {
    llm.reply({ text: 'Hi there.' });
    const answer = await ask(modelOf(false));
    expect(llm.conversationRequests().at(-1)).not.toHaveProperty('stream_options');
    expect(answer).toEqual({ text: 'Hi there.', toolCalls: [] });
  });
});
