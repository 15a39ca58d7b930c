import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshots, signedInConsole } from '../../support/browser';
import { FakeLlm, type RecordedRequest } from '../../support/fake-llm';
import { FROM, okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { waitFor } from '../../support/wait';
import { scriptModel } from '../agent-tests/support';

let llm: FakeLlm;
let t: TestApp;
let a: Tenant;
let browser: Browser;
let page: Page;
const { clear, shot } = screenshots('console-agent-tests', () => page);

/**
 * The agent greets, books Friday when asked for an appointment, and ends the call when the
 * caller confirms with a key; as "Version two" it answers the caller's second line otherwise.
 * The simulated callee of a real call says "Caller line 1.", then "Caller line 2.".
 */
const agentScript = (lastUser: string, request: RecordedRequest) => {
  if (request.messages.at(-1).role === 'tool') return { text: '' };
  if (lastUser.includes('pressed 1')) return { text: 'You are booked for Friday. Goodbye!', toolCalls: [{ name: 'end_call', arguments: {} }] };
  if (lastUser.toLowerCase().includes('appointment')) return { text: 'Friday at ten works. Press 1 to confirm.', toolCalls: [{ name: 'book', arguments: { day: 'Friday' } }] };
  if (lastUser === 'Caller line 2.' && String(request.messages[0].content).includes('Version two')) return { text: 'A different answer.' };
  return { text: lastUser.startsWith('Caller line') ? `You said: ${lastUser}` : 'Hello, this is Ava.' };
};

beforeAll(async () => {
  await clear();
  llm = await FakeLlm.start();
  scriptModel(llm, { agent: agentScript, caller: (n) => `Caller line ${n}.` });
  // A long talk time: the real call replayed ends by its conversation (two callee turns).
  t = await startTestApp({ SIM_RING_MS: '0', SIM_TALK_MS: '600000', SIM_CALLEE_TURNS: '2', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_TIMEOUT_MS: '2000' });
  a = await tenant(t, 'A');
  browser = await launchBrowser();
  page = await signedInConsole(browser, t.url, a.key, 'Calls');
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await llm?.close();
});

const newAgent = async (name: string, prompt: string) => okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name, prompt } })).id as string;

describe("the console's agent tests", () => {
  let agentId: string;

  it('creates a scripted scenario from the keyboard (a bad key refused beside its step), runs the suite, and follows the run live to its failing criterion', async () => {
    agentId = await newAgent('Booker', 'You book appointments.');
    await page.goto(`${t.url}/console/#/agents/${agentId}`);
    const scenarios = page.getByRole('region', { name: 'Test scenarios' });
    await scenarios.getByRole('button', { name: 'New scenario' }).click();
    const form = page.getByRole('form', { name: 'New scenario' });
    // The name field has the focus: the form is filled from the keyboard.
    await page.keyboard.type('Books Friday');
    await form.getByLabel('Step 1: what the caller says').fill('I would like an appointment.');
    await form.getByRole('button', { name: 'Add a step' }).click();
    await form.getByRole('combobox', { name: /^Step 2(?!:)/ }).selectOption('dtmf');
    await form.getByLabel('Step 2: keys (0-9, *, #, A-D)').fill('x');
    await form.getByLabel('Criterion 1: text (any case)').fill('booked for friday');
    await form.getByRole('button', { name: 'Add a criterion' }).click();
    await form.getByRole('combobox', { name: /^Criterion 2(?!:)/ }).selectOption('tool_called');
    await form.getByLabel('Criterion 2: tool').fill('refund');
    await form.getByRole('button', { name: 'Add a criterion' }).click();
    await form.getByRole('combobox', { name: /^Criterion 3(?!:)/ }).selectOption('judge');
    await form.getByLabel('Criterion 3: rubric the model grades the call by').fill('The agent confirms the day.');
    await form.getByRole('button', { name: 'Create scenario' }).click();
    await form.locator('[data-field="callerTurns[1]"]').getByText(/0-9/).waitFor();
    expect(okData(await t.request('GET', `/v1/ai-agent/${agentId}/scenarios`, { token: a.key }))).toEqual([]);
    await shot('scenario-field-error');

    await form.getByLabel('Step 2: keys (0-9, *, #, A-D)').fill('1');
    await form.getByLabel('Step 2: keys (0-9, *, #, A-D)').press('Enter');
    await scenarios.getByRole('cell', { name: 'Books Friday', exact: true }).waitFor();
    await scenarios.getByRole('cell', { name: "Transcript contains, Tool called, The judge's rubric" }).waitFor();
    const [stored] = okData(await t.request('GET', `/v1/ai-agent/${agentId}/scenarios`, { token: a.key }));
    expect(stored).toMatchObject({
      name: 'Books Friday',
      caller_turns: [{ say: 'I would like an appointment.' }, { dtmf: '1' }],
      criteria: [
        { type: 'transcript_contains', text: 'booked for friday' },
        { type: 'tool_called', name: 'refund' },
        { type: 'judge', rubric: 'The agent confirms the day.' },
      ],
    });

    await scenarios.getByRole('button', { name: 'Run suite' }).click();
    await page.getByRole('heading', { name: /Test run/ }).waitFor();
    const runId = decodeURIComponent(new URL(page.url()).hash.split('/').at(-1)!);
    await page
      .getByRole('heading', { name: /Test run/ })
      .getByText('failed')
      .waitFor({ timeout: 20_000 });
    await page.getByTestId('run-summary').getByText('1 of 1 scenarios run: 0 passed, 1 did not').waitFor();
    const criteria = page.getByTestId('criterion');
    await expect(criteria.allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Transcript contains: "booked for friday"\s+passed\s+/),
      expect.stringMatching(/^Tool called: name refund\s+failed\s+refund was not called \(called: book, end_call\)/),
      expect.stringMatching(/^The judge's rubric: "The agent confirms the day."\s+passed\s+Fine\./),
    ]);
    // The failing scenario's transcript is open, each agent answer with its latency.
    const turns = page.getByTestId('scenario-run').locator('.transcript .turn');
    await expect(turns.first().textContent()).resolves.toMatch(/^agent Hello, this is Ava\./);
    expect(await turns.locator('.latency').count()).toBeGreaterThan(0);
    const run = okData(await t.request('GET', `/v1/agent-test-runs/${runId}`, { token: a.key }));
    expect(run).toMatchObject({ status: 'failed', passed: false });
    await shot('run-failed');

    // The agent's page lists the run.
    await page.getByRole('link', { name: '← The agent' }).click();
    await page.getByRole('link', { name: `Run ${runId.slice(0, 8)}` }).waitFor();

    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${t.url}/console/#/test-runs/${runId}`);
    await page.getByTestId('criterion').first().waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await shot('run-narrow');
    await page.goto(`${t.url}/console/#/agents/${agentId}`);
    await page.getByRole('button', { name: 'New scenario' }).click();
    await page.getByRole('form', { name: 'New scenario' }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await shot('scenario-form-narrow');
    await page.setViewportSize({ width: 1200, height: 900 });
  }, 60_000);

  it('edits a scenario into a persona (a bad number refused beside it) and deletes it after asking', async () => {
    await page.goto(`${t.url}/console/#/agents/${agentId}`);
    const scenarios = page.getByRole('region', { name: 'Test scenarios' });
    await scenarios.getByRole('button', { name: 'Edit Books Friday' }).click();
    const form = page.getByRole('form', { name: 'Edit Books Friday' });
    await form.getByLabel('Scenario name').fill('Busy caller');
    await form.getByLabel('A persona the model plays').check();
    await form.getByLabel('Persona: who the caller is and what they want').fill('You are Bob, in a hurry, and want an appointment.');
    await form.getByLabel('Persona: turns before hanging up (1-50)').fill('many');
    await form.getByRole('button', { name: 'Save scenario' }).click();
    await form.locator('[data-field="callerPersona"]').getByText('Must be a whole number').waitFor();
    await form.getByLabel('Persona: turns before hanging up (1-50)').fill('3');
    await form.getByRole('button', { name: 'Save scenario' }).click();
    await scenarios.getByRole('cell', { name: 'persona, 3 turns' }).waitFor();
    const [stored] = okData(await t.request('GET', `/v1/ai-agent/${agentId}/scenarios`, { token: a.key }));
    expect(stored).toMatchObject({ name: 'Busy caller', caller_turns: null, caller_persona: { prompt: 'You are Bob, in a hurry, and want an appointment.', max_turns: 3 } });
    expect(stored.criteria).toHaveLength(3);

    // "Keep it" gives the focus back to the row's Delete; the question's Delete has the focus: Enter confirms.
    await scenarios.getByRole('button', { name: 'Delete Busy caller' }).click();
    await scenarios.getByRole('button', { name: 'Keep it' }).click();
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Delete Busy caller');
    await page.keyboard.press('Enter');
    await scenarios.getByRole('alertdialog', { name: 'Delete Busy caller?' }).waitFor();
    await page.keyboard.press('Enter');
    await scenarios.getByText('No scenarios yet').waitFor();
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Test scenarios');
    expect(okData(await t.request('GET', `/v1/ai-agent/${agentId}/scenarios`, { token: a.key }))).toEqual([]);
  });

  it("replays a finished call against the agent's draft and shows where the two transcripts part", async () => {
    const agentId = await newAgent('Replayed', 'Version one.');
    const made = okData(await t.request('POST', '/v1/calls/make-call', { token: a.key, body: { ai_agent_id: agentId, call_from: FROM, call_to: '+14155550123' } }));
    await waitFor('the call to end', async () => (okData(await t.request('GET', `/v1/calls/${made.id}`, { token: a.key })).call_status === 'completed' ? true : undefined));
    okData(await t.request('PATCH', `/v1/ai-agent/${agentId}`, { token: a.key, body: { prompt: 'Version two.' } }));

    await page.goto(`${t.url}/console/#/calls/${made.id}`);
    const replay = page.getByRole('form', { name: 'Replay the call' });
    // Text that is not a number is refused before asking; the agent has published no version: a number is refused by the API, beside the field.
    await replay.getByLabel('Against version').fill('latest');
    await replay.getByRole('button', { name: 'Replay' }).click();
    await replay.locator('[data-field="version"]').getByText('Must be a whole number, or empty for the draft').waitFor();
    await replay.getByLabel('Against version').fill('3');
    await replay.getByRole('button', { name: 'Replay' }).click();
    await replay
      .locator('[data-field="version"]')
      .getByText(/version/i)
      .waitFor();
    await replay.getByLabel('Against version').fill('');
    await replay.getByRole('button', { name: 'Replay' }).click();
    await page
      .getByRole('heading', { name: /Replay of a call/ })
      .getByText('passed')
      .waitFor({ timeout: 20_000 });
    await page.getByTestId('diverged').getByText('The replay parts from the call at turn 5.').waitFor();
    const rows = page.getByRole('table', { name: 'Both transcripts, turn by turn' }).locator('tbody tr');
    await expect(rows.nth(4).innerText()).resolves.toMatch(/^5\s+agent You said: Caller line 2\.\s+agent A different answer\.\s+diverges here$/i);
    await expect(rows.nth(0).innerText()).resolves.toMatch(/same$/);
    await shot('replay');
  }, 60_000);
});
