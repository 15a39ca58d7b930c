import { FakeLlm } from '../../support/fake-llm';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import { answeredOnTwilio, RecordingSink, twilioConversations } from './support';

let llm: FakeLlm;
let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  llm = await FakeLlm.start();
  t = await startTestApp({ SIM_RING_MS: '0', SIM_TALK_MS: '600000', SIM_CALLEE_TURNS: '0', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_TIMEOUT_MS: '2000' });
  a = await tenant(t, 'A');
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

const post = (path: string, body: unknown) => t.request('POST', path, { token: a.key, body }).then(okData);
const getCall = (id: string) => t.request('GET', `/v1/calls/${id}`, { token: a.key }).then(okData);

/** The system prompt and temperature the model is sent on a live call made with `body`. */
async function sentToModel(body: Record<string, unknown>) {
  const call = await post('/v1/calls/make-call', { call_from: FROM, call_to: '+14155550123', ...body });
  await waitFor('the call to be answered', async () => ((await getCall(call.id)).call_status === 'in-progress' ? true : undefined));
  const conversation = (await t.app.services.conversations!.open(call.id, new RecordingSink()))!;
  await conversation.start();
  const asked = llm.requests.length;
  llm.reply({ text: 'Hello.' });
  await conversation.userSaid('Hi?', true);
  await waitFor('the model to be asked', async () => (llm.requests.length > asked ? true : undefined));
  await conversation.close('user_hangup');
  const request = llm.conversationRequests().at(-1)!;
  return { version: call.ai_agent_version, prompt: request.messages[0].content as string, temperature: request.temperature as number };
}

describe('a call of a published agent', () => {
  it("runs the published version's settings, not the draft edited since, and the draft before any publish", async () => {
    const agent = await post('/v1/ai-agent', { name: 'Ava', prompt: 'You are Ava, version one.', who_talks_first: 'user', llm_temperature: 25 });
    expect(await sentToModel({ ai_agent_id: agent.id })).toMatchObject({ version: null, temperature: 0.5 });
    await post(`/v1/ai-agent/${agent.id}/publish`, { note: 'v1' });
    await t.request('PATCH', `/v1/ai-agent/${agent.id}`, { token: a.key, body: { prompt: 'You are Ava, the draft.', llm_temperature: 75 } });

    const published = await sentToModel({ ai_agent_id: agent.id });
    expect(published.version).toBe(1);
    expect(published.prompt).toContain('You are Ava, version one.');
    expect(published.prompt).not.toContain('the draft');
    expect(published.temperature).toBe(0.5);

    await post(`/v1/ai-agent/${agent.id}/publish`, { note: 'v2' });
    const latest = await sentToModel({ ai_agent_id: agent.id });
    expect(latest).toMatchObject({ version: 2, temperature: 1.5 });
    expect(latest.prompt).toContain('You are Ava, the draft.');

    const pinned = await sentToModel({ ai_agent_id: agent.id, ai_agent_version: 1 });
    expect(pinned.version).toBe(1);
    expect(pinned.prompt).toContain('You are Ava, version one.');
  });
});

describe('a Twilio call of a published agent', () => {
  it("is placed with the version's language and welcome greeting, not the draft's", async () => {
    const twilio = await twilioConversations();
    try {
      const b = await tenant(twilio.t, 'B');
      const send = (method: string, path: string, body: unknown) => twilio.t.request(method, path, { token: b.key, body }).then(okData);
      const agent = await send('POST', '/v1/ai-agent', { name: 'Ava', language: 'en-GB', welcome_greeting: 'Hello from version one.' });
      await send('POST', `/v1/ai-agent/${agent.id}/publish`, {});
      await send('PATCH', `/v1/ai-agent/${agent.id}`, { language: 'fr-FR', welcome_greeting: 'Bonjour du brouillon.' });
      const call = await answeredOnTwilio(twilio.t, twilio.twilio, b.key, { ai_agent_id: agent.id, call_from: FROM, call_to: '+14155550123' });
      expect(call.twiml).toContain('language="en-GB"');
      expect(call.twiml).toContain('welcomeGreeting="Hello from version one."');
      expect(call.twiml).not.toContain('brouillon');
    } finally {
      await twilio.close();
    }
  });
});
