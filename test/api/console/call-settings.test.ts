import type { Browser, Page } from 'playwright-core';
import { TRANSFER_FAILED_LINE } from '../../../src/services/conversation/resumption';
import { CALLEE_PERSONA_INTRO } from '../../../src/services/conversation/simulated-callee';
import { launchBrowser, screenshots, signedInConsole } from '../../support/browser';
import { FakeLlm, type RecordedRequest } from '../../support/fake-llm';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';

/** A transfer number that does not answer (the simulated provider's digits, docs/calls.md "Transfers"). */
const NOBODY = '+14155550002';
/** What the agent leaves on an answering machine. */
const VOICEMAIL_MESSAGE = 'Hello, this is Acme about your appointment. Please call us back.';

/** The recording player's length in seconds, once the browser has read the audio's header; rejects on a media error. */
const RECORDING_SECONDS = `new Promise((resolve, reject) => {
  const audio = document.querySelector('.recording audio');
  if (audio.readyState >= 1) return resolve(audio.duration);
  audio.addEventListener('loadedmetadata', () => resolve(audio.duration));
  audio.addEventListener('error', () => reject(new Error('media error ' + audio.error.code)));
})`;

let llm: FakeLlm;
let t: TestApp;
let a: Tenant;
let browser: Browser;
let page: Page;
const { clear, shot } = screenshots('console-calls', () => page);

const isCallee = (request: RecordedRequest) => String(request.messages[0]?.content ?? '').startsWith(CALLEE_PERSONA_INTRO);

beforeAll(async () => {
  await clear();
  llm = await FakeLlm.start();
  // The simulated callee asks who is calling; the agent greets, answers, and ends the call on its
  // third turn; an agent told to transfer does so at once, to a number that does not answer.
  let agentTurns = 0;
  llm.fallback = (request) => {
    if (request.response_format) return { json: {} };
    if (isCallee(request)) return { text: 'Who is this?' };
    const asked = JSON.stringify(request.messages);
    if (asked.includes('You prepare a phone transfer')) return { text: 'A caller about an appointment.' };
    if (asked.includes('Transfer at once.') && !asked.includes(TRANSFER_FAILED_LINE)) return { text: 'Putting you through.', toolCalls: [{ name: 'transfer_call', arguments: { number: NOBODY } }] };
    agentTurns += 1;
    return agentTurns % 3 === 0 ? { text: 'Goodbye.', toolCalls: [{ name: 'end_call', arguments: {} }] } : { text: 'This is Acme, about your appointment.' };
  };
  // A recorded voicemail lasts the talk time; a conversation with the simulated callee ends when it does.
  t = await startTestApp({ SIM_RING_MS: '100', SIM_TALK_MS: '1500', SIM_CALLEE_TURNS: '2', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model' });
  a = await tenant(t, 'A');
  browser = await launchBrowser();
  page = await signedInConsole(browser, t.url, a.key);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await llm?.close();
});

const getAgent = async (id: string) => okData(await t.request('GET', `/v1/ai-agent/${id}`, { token: a.key }));
const getCall = async (id: string) => okData(await t.request('GET', `/v1/calls/${id}`, { token: a.key }));

/** Places a call through the API, opens its page, and waits there for its end. */
async function endedCallPage(agentId: string, to: string) {
  const made = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: agentId, call_from: FROM, call_to: to } }));
  await page.goto(`${t.url}/console/#/calls/${made.id}`);
  await page.getByTestId('call-status').getByText('completed').waitFor({ timeout: 20_000 });
  return waitFor('the call stored as ended', async () => {
    const call = await getCall(made.id);
    return call.call_status === 'completed' ? call : undefined;
  });
}

describe("the console's call settings and call page", () => {
  let agentId: string;

  it("edits an agent's answering-machine and recording settings, with the API's field error, and REST reads them back", async () => {
    agentId = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Voicemail agent', prompt: 'You are calling about an appointment.' } })).id;
    await page.goto(`${t.url}/console/#/agents/${agentId}`);
    const settings = page.getByRole('form', { name: 'Prompt and settings' });
    await settings.getByLabel('When an answering machine answers').selectOption('LEAVE_MESSAGE');
    await settings.getByLabel('Recording').selectOption('MONO');
    await settings.getByLabel('Voicemail message').fill('x'.repeat(2001));
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.locator('[data-field="voicemailMessage"]').waitFor();
    expect(await getAgent(agentId)).toMatchObject({ voicemail_action: 'hangup', voicemail_message: '', call_recording: 'off' });
    await shot('agent-call-settings-error');

    await settings.getByLabel('Voicemail message').fill(VOICEMAIL_MESSAGE);
    await settings.getByLabel('Opening disclosure').fill('This call is recorded.');
    await settings.getByLabel('Welcome greeting').fill('Hi {{firstname}}, this is Ava.');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByRole('status').getByText('Saved.').waitFor();
    expect(await settings.locator('.field-error').count()).toBe(0);
    expect(await getAgent(agentId)).toMatchObject({
      voicemail_action: 'leave_message',
      voicemail_message: VOICEMAIL_MESSAGE,
      call_recording: 'mono',
      opening_disclosure: 'This call is recorded.',
      welcome_greeting: 'Hi {{firstname}}, this is Ava.',
    });
    await page.reload();
    await expect(settings.getByLabel('When an answering machine answers').inputValue()).resolves.toBe('LEAVE_MESSAGE');
    await expect(settings.getByLabel('Recording').inputValue()).resolves.toBe('MONO');
    await shot('agent-call-settings');
  });

  it('shows a voicemail call: answered by a machine, the message as the agent turn, and its recording played from a fetch with the key', async () => {
    const call = await endedCallPage(agentId, '+14155550004');
    await expect(page.getByTestId('answered-by').textContent()).resolves.toBe('machine');
    await expect(page.locator('.transcript .turn').allTextContents()).resolves.toEqual([`agent ${VOICEMAIL_MESSAGE}`]);

    const fetched = page.waitForResponse((res) => res.url().endsWith(`/v1/calls/${call.id}/recording`));
    await page.getByRole('button', { name: 'Load the recording' }).click();
    const response = await fetched;
    expect(response.status()).toBe(200);
    await expect(response.request().headerValue('authorization')).resolves.toBe(`Bearer ${a.key}`);
    await expect(page.getByLabel('Recording of the call').getAttribute('src')).resolves.toMatch(/^blob:/);
    expect(call.call_duration).toBeGreaterThan(0);
    expect(await page.evaluate<number>(RECORDING_SECONDS)).toBeCloseTo(call.call_duration, 1);
    // The player took the focus from the button it replaced.
    expect(await page.evaluate('document.activeElement.tagName')).toBe('AUDIO');
    await shot('call-voicemail');
  }, 30_000);

  it("shows each agent answer's latency in a conversation, and the cost with its unit", async () => {
    const call = await endedCallPage(agentId, '+14155550123');
    await expect(page.getByTestId('answered-by').textContent()).resolves.toBe('human');
    type Stored = { latency_ms?: number; latency?: { llm_first_token_ms?: number; first_text_ms?: number } };
    // The simulated provider reports no voice: each answer shows the model's first token and the first text sent.
    const latencies = (call.transcript_object.turns as Stored[]).flatMap(({ latency }) =>
      latency?.first_text_ms === undefined ? [] : [`latency: model's first token ${latency.llm_first_token_ms} ms, first text sent ${latency.first_text_ms} ms`],
    );
    expect(latencies.length).toBeGreaterThan(0);
    await page
      .locator('.transcript .latency')
      .nth(latencies.length - 1)
      .waitFor();
    expect(await page.locator('.transcript .latency').allTextContents()).toEqual(latencies);
    await page.getByText(`${call.cost.toFixed(4)} ${call.price_unit}`).waitFor();
    const { telephony, llm, recording } = call.cost_breakdown;
    await expect(page.locator('.cost-parts').textContent()).resolves.toBe(` (telephony ${telephony.toFixed(4)}, model ${llm.toFixed(4)}, recording ${recording.toFixed(4)})`);
    await shot('call-latency');
  }, 30_000);

  it("edits an agent's transfer settings, with the API's field error, and shows a warm transfer nobody took in the call's timeline", async () => {
    const transferring = okData(
      await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Transferring agent', prompt: 'Transfer at once.', agent_flow: { transfer_numbers: [NOBODY] } } }),
    ).id;
    await page.goto(`${t.url}/console/#/agents/${transferring}`);
    const settings = page.getByRole('form', { name: 'Prompt and settings' });
    await settings.getByLabel('Transfers').selectOption('WARM');
    await settings.getByLabel('Hold audio URL').fill('http://cdn.example.com/hold.mp3');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.locator('[data-field="holdAudioUrl"]').waitFor();
    expect(await getAgent(transferring)).toMatchObject({ transfer_mode: 'cold', hold_audio_url: null });
    await settings.getByLabel('Hold audio URL').fill('https://cdn.example.com/hold.mp3');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByRole('status').getByText('Saved.').waitFor();
    expect(await getAgent(transferring)).toMatchObject({ transfer_mode: 'warm', hold_audio_url: 'https://cdn.example.com/hold.mp3' });

    const call = await endedCallPage(transferring, '+14155550123');
    expect(call.transfer).toMatchObject({ to: NOBODY, mode: 'warm', status: 'no-answer' });
    await page.getByRole('region', { name: 'Timeline' }).getByText(`warm transfer to ${NOBODY}: no answer`).waitFor();
    await expect(page.locator('.transcript .turn').allTextContents()).resolves.toContain(`agent ${TRANSFER_FAILED_LINE}`);
    await shot('call-warm-transfer');
  }, 30_000);
});
