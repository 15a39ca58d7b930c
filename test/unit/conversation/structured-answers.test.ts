import { OpenAiCompatibleModel } from '../../../src/services/conversation/language-model';
import { FakeLlm } from '../../support/fake-llm';

let llm: FakeLlm;
let model: OpenAiCompatibleModel;
beforeAll(async () => {
  llm = await FakeLlm.start();
  model = new OpenAiCompatibleModel({ baseUrl: llm.baseUrl, apiKey: undefined, model: 'fake-model', timeoutMs: 10_000, streamUsage: true });
});
afterAll(() => llm.close());

const ask = () => model.structured({ messages: [{ role: 'user', content: 'Analyse' }], schemaName: 'answer', schema: { type: 'object' } });

describe('a JSON answer', () => {
  it.each([
    ['bare', '{"plan": "gold"}'],
    ['fenced as json', '```json\n{"plan": "gold"}\n```'],
    ['fenced without a language, with spaces around', '  ```\n{"plan": "gold"}\n```\n'],
  ])('is read when %s', async (_, text) => {
    llm.reply({ chunks: [text] });
    expect(await ask()).toEqual({ plan: 'gold' });
  });

  it('is refused when it is not JSON, fenced or not', async () => {
    llm.reply({ chunks: ['```json\nplan: gold\n```'] });
    await expect(ask()).rejects.toThrow("The language model's answer was malformed");
  });
});
