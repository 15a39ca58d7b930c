import { ConfigError, loadConfig } from '../../../src/config';

describe('language-model settings', () => {
  it('leave the model off unless LLM_MODEL is set', () => {
    expect(loadConfig({}).llm).toBeNull();
  });

  it('read an OpenAI-compatible server, with OpenAI and a 10 s timeout by default', () => {
    expect(loadConfig({ LLM_MODEL: 'gpt-4o-mini' }).llm).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: undefined,
      model: 'gpt-4o-mini',
      fallbackModel: undefined,
      timeoutMs: 10_000,
      interTokenTimeoutMs: 5000,
      streamUsage: true,
    });
    const local = loadConfig({
      LLM_MODEL: 'llama3',
      LLM_BASE_URL: 'http://127.0.0.1:11434/v1/',
      LLM_TIMEOUT_MS: '2500',
      LLM_API_KEY: 'k',
      LLM_FALLBACK_MODEL: 'llama3-small',
      LLM_INTER_TOKEN_TIMEOUT_MS: '800',
      LLM_STREAM_USAGE: '0',
    }).llm;
    expect(local).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'k', model: 'llama3', fallbackModel: 'llama3-small', timeoutMs: 2500, interTokenTimeoutMs: 800, streamUsage: false });
  });

  it('refuse a server or key without a model, and name each bad variable', () => {
    expect(() => loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:8080/v1' })).toThrow('LLM_MODEL is required');
    expect(() => loadConfig({ LLM_MODEL: 'm', LLM_BASE_URL: 'not a url', LLM_TIMEOUT_MS: 'soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ LLM_MODEL: 'm', LLM_BASE_URL: 'not a url', LLM_TIMEOUT_MS: 'soon' })).toThrow(/LLM_BASE_URL.*LLM_TIMEOUT_MS/);
  });
});

describe('playback events and prices', () => {
  it("ask for Twilio's info events unless RELAY_INFO_EVENTS is off", () => {
    expect(loadConfig({}).relayInfoEvents).toBe(true);
    expect(loadConfig({ RELAY_INFO_EVENTS: '0' }).relayInfoEvents).toBe(false);
    expect(() => loadConfig({ RELAY_INFO_EVENTS: 'maybe' })).toThrow(/RELAY_INFO_EVENTS/);
  });

  it('price calls by the minute, recordings and model tokens at 0 unless set, and refuse negative prices', () => {
    expect(loadConfig({}).prices).toEqual({ callPerMinute: 0.05, recordingPerMinute: 0, llmInputPerMTok: 0, llmOutputPerMTok: 0 });
    expect(loadConfig({ RECORDING_PRICE_PER_MINUTE: '0.0025', LLM_PRICE_INPUT_PER_MTOK: '0.15', LLM_PRICE_OUTPUT_PER_MTOK: '0.6' }).prices).toEqual({
      callPerMinute: 0.05,
      recordingPerMinute: 0.0025,
      llmInputPerMTok: 0.15,
      llmOutputPerMTok: 0.6,
    });
    expect(() => loadConfig({ LLM_PRICE_INPUT_PER_MTOK: '-1', RECORDING_PRICE_PER_MINUTE: 'free' })).toThrow(
      /LLM_PRICE_INPUT_PER_MTOK.*RECORDING_PRICE_PER_MINUTE|RECORDING_PRICE_PER_MINUTE.*LLM_PRICE_INPUT_PER_MTOK/,
    );
  });
});
