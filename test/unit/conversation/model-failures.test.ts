import { APOLOGY, EMPTY_ANSWER_LINE } from '../../../src/services/conversation/engine';
import { FakeLlm } from '../../support/fake-llm';
import { engineOn } from '../../api/conversation/support';

let llm: FakeLlm;
beforeAll(async () => {
  llm = await FakeLlm.start();
});
afterAll(() => llm.close());
beforeEach(() => {
  llm.requests.length = 0;
  llm.fallback = {};
});

describe('a model that fails for a moment', () => {
  it('is asked again after a 429, once its Retry-After has passed', async () => {
    llm.reply({ status: 429, headers: { 'retry-after': '0' } }, { text: 'Hi Ada.' });
    const { engine, sink } = engineOn(llm);
    await engine.start();
    expect(sink.turns()).toEqual(['Hi Ada.']);
    expect(sink.ending()).toBeUndefined();
    expect(llm.requests.map((r) => r.model)).toEqual(['fake-model', 'fake-model']);
  });

  it('hands over to the fallback model after two 500s', async () => {
    llm.reply({ status: 500 }, { status: 500 }, { text: 'Hi from the fallback.' });
    const { engine, sink } = engineOn(llm, { fallbackModel: 'fallback-model' });
    await engine.start();
    expect(sink.turns()).toEqual(['Hi from the fallback.']);
    expect(llm.requests.map((r) => r.model)).toEqual(['fake-model', 'fake-model', 'fallback-model']);
  });

  it('waits no longer than the first token is due for a Retry-After, and ends with llm_error without a fallback', async () => {
    llm.reply({ status: 503, headers: { 'retry-after': '120' } });
    const { engine, sink } = engineOn(llm);
    await engine.start();
    expect(sink.turns()).toEqual([APOLOGY]);
    expect(sink.ending()).toEqual({ type: 'end', reason: 'llm_error' });
    expect(llm.requests).toHaveLength(1);
  });

  it('gives up on a stream that stalls after the inter-token time limit, not the whole answer limit', async () => {
    llm.reply({ text: 'Hello Ada, I am calling about your renewal.', stallAfterChunks: 3 });
    // The whole answer may take 3 x 20 s: only the inter-token limit ends this test in time.
    const { engine, sink } = engineOn(llm, { timeoutMs: 20_000, interTokenTimeoutMs: 300 });
    await engine.start();
    expect(sink.turns()).toEqual([`Hello Ada, ${APOLOGY}`]);
    expect(sink.ending()).toEqual({ type: 'end', reason: 'llm_error' });
  });

  it('says a fallback line, not nothing, when the answer is empty', async () => {
    llm.reply({ chunks: [] }, { text: 'Sure.' });
    const { engine, sink, transcript } = engineOn(llm);
    await engine.start();
    expect(sink.turns()).toEqual([EMPTY_ANSWER_LINE]);
    expect(transcript()).toEqual([expect.objectContaining({ role: 'agent', text: EMPTY_ANSWER_LINE })]);
    await engine.userSaid('Hello?', true);
    expect(llm.requests[1].messages.slice(2, 3)).toEqual([{ role: 'assistant', content: EMPTY_ANSWER_LINE }]);
  });
});
