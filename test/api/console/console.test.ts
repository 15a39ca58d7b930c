import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshots } from '../../support/browser';
import { FakeLlm } from '../../support/fake-llm';
import { okData } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { FLOW_ENV, Receiver } from '../flows/support';

let llm: FakeLlm;
let receiver: Receiver;
let t: TestApp;
let browser: Browser;
let page: Page;
const { clear, shot } = screenshots('console', () => page);
let key: string;
/** Layout shifts the page reported (PerformanceObserver `layout-shift`), summed. */
const layoutShift = () => page.evaluate<number>('window.__shift');

/** Sums the page's layout-shift scores not caused by input (the Cumulative Layout Shift's parts) into `window.__shift`. */
const MEASURE_LAYOUT_SHIFT = `window.__shift = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shift += entry.value;
}).observe({ type: 'layout-shift', buffered: true });`;

beforeAll(async () => {
  await clear();
  llm = await FakeLlm.start();
  // The playground's turns; post-call analyses (JSON schema answers) get an empty analysis.
  llm.fallback = (request) => (request.response_format ? { json: {} } : { text: 'Hello Ada, I am calling about your appointment.', toolCalls: [{ name: 'end_call', arguments: {} }] });
  receiver = await Receiver.start();
  t = await startTestApp({
    ...FLOW_ENV,
    SEED_DEMO: '1',
    SIM_RING_MS: '300',
    SIM_TALK_MS: '1500',
    CAMPAIGN_SWEEP_MS: '200',
    LLM_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'fake-model',
  });
  key = t.app.demo!.apiKey;
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (err) => process.stdout.write(`page error: ${err.message}\n`));
  await page.addInitScript(MEASURE_LAYOUT_SHIFT);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await receiver?.close();
  await llm?.close();
});

const section = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();

describe('the web console, in a headless browser', () => {
  it('redirects / to the console, refuses a bad key, and signs in with the demo key from the keyboard', async () => {
    await page.goto(`${t.url}/`);
    expect(new URL(page.url()).pathname).toBe('/console/');
    await page.getByLabel(/API key/).fill('sk_wrong');
    await page.keyboard.press('Enter');
    await page
      .getByRole('alert')
      .getByText(/refused/)
      .waitFor();
    await shot('sign-in');

    await page.getByLabel(/API key/).fill(key);
    await page.keyboard.press('Enter');
    // The home page: the analytics of the last 7 days, none yet.
    await page.getByRole('heading', { name: 'Analytics' }).waitFor();
    await page.getByTestId('totals').getByText('calls', { exact: true }).locator('..').locator('dd').getByText('0').waitFor();
    expect(await page.evaluate('sessionStorage.getItem("switchboard.apiKey")')).toBe(key);
    expect(await page.evaluate('document.cookie')).toBe('');
  });

  it("shows the API's field errors beside the campaign's window, then activates it and follows it live to 100%", async () => {
    await section('Campaigns');
    await page.getByRole('link', { name: 'Demo reminder campaign' }).click();
    const settings = page.getByRole('form', { name: 'Calling window and retries' });
    await settings.getByLabel('From (HH:MM:SS)').fill('25:99');
    await settings.getByLabel('Attempts').fill('0');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.locator('[data-field="callTimeOfDayFrom"]').waitFor();
    await settings.locator('[data-field="numberOfCallAttempts[0]"]').waitFor();
    await shot('campaign-field-errors');

    await settings.getByLabel('From (HH:MM:SS)').fill('00:00:00');
    await settings.getByLabel('To (HH:MM:SS)').fill('00:00:00');
    await settings.getByLabel('Attempts').fill('2');
    for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']) await settings.getByLabel(day).check();
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByRole('status').getByText('Saved.').waitFor();
    expect(await settings.locator('.field-error').count()).toBe(0);

    const shiftBefore = await layoutShift();
    await page.getByRole('button', { name: 'Activate' }).click();
    // No contact filter: the campaign calls every contact of the company, and says so first.
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('it selects every contact of the company (3) and will call 2 of them.', { exact: false }).waitFor();
    await shot('campaign-confirm');
    await confirm.getByRole('button', { name: 'Call them all' }).click();
    await page.getByTestId('campaign-status').getByText('active').waitFor();
    const progress = page.getByRole('progressbar', { name: 'Campaign progress' });
    await expect(progress.getAttribute('aria-valuenow')).resolves.not.toBe('100');
    await page.locator('[role="progressbar"][aria-label="Campaign progress"][aria-valuenow="100"]').waitFor({ timeout: 60_000 });
    await page.getByTestId('campaign-status').getByText('completed').waitFor();
    const stats = page.locator('.stats');
    await expect(stats.getByText('picked up').locator('..').locator('dd').textContent()).resolves.toBe('2');
    await expect(
      stats
        .getByText(/^skipped$/)
        .locator('..')
        .locator('dd')
        .textContent(),
    ).resolves.toMatch(/^1 \(non local/);
    expect(await page.locator('.chart canvas').count()).toBe(1);
    // The stat boxes keep one size whatever they hold (a reason under a number does not grow its box).
    const heights = await stats.locator('div').evaluateAll((boxes) => boxes.map((b) => b.getBoundingClientRect().height));
    expect(new Set(heights).size).toBe(1);
    // Live numbers and rows arrived without moving what was already on the page.
    expect((await layoutShift()) - shiftBefore).toBeLessThan(0.1);
    await shot('campaign');
  }, 90_000);

  it('lists the campaign calls live, filters them, and opens one with its timeline and transcript', async () => {
    await section('Calls');
    // The campaign page left (its own table of calls counted otherwise) and the calls page shown.
    await page.locator('#campaign-calls').waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: 'Calls' }).waitFor();
    const rows = page.locator('tbody tr');
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    await page.getByLabel('Status').selectOption('BUSY');
    await page.getByText('No calls match.').waitFor();
    await page.getByLabel('Status').selectOption('COMPLETED');
    await rows.nth(1).waitFor();
    const tomorrow = new Date(Date.now() + 86_400_000);
    const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
    await page.getByLabel('Since').fill(day);
    await page.getByText('No calls match.').waitFor();
    await page.getByLabel('Since').fill('');
    await rows.nth(1).waitFor();
    await shot('calls');

    await rows.first().getByRole('link').click();
    await page.getByRole('heading', { name: /^Call to / }).waitFor();
    await page.getByTestId('call-status').getByText('completed').waitFor();
    const transcript = page.locator('.transcript .turn');
    await transcript.first().waitFor();
    expect(await transcript.count()).toBeGreaterThan(1);
    expect(await page.locator('.timeline li').allTextContents()).toEqual([expect.stringMatching(/^queued/), expect.stringMatching(/^answered/), expect.stringMatching(/^completed/)]);
    await expect(page.getByTestId('answered-by').textContent()).resolves.toBe('human');
    await shot('call');
  });

  it('makes a test call from the form and watches it progress on its page', async () => {
    await section('Calls');
    await page.getByLabel('To').fill('+14155550123');
    await page.getByRole('button', { name: 'Call' }).click();
    await page.getByRole('heading', { name: 'Call to +14155550123' }).waitFor();
    await page.getByTestId('call-status').getByText('completed').waitFor({ timeout: 20_000 });
    await page.locator('.transcript .turn').first().waitFor();
  }, 30_000);

  it('shows the analytics of the day: totals, calls per day and outcome, per campaign and per agent, as the API computes them', async () => {
    await section('Analytics');
    const totals = page.getByTestId('totals');
    const figure = (name: string) => totals.getByText(name, { exact: true }).locator('..').locator('dd');
    // The demo campaign's two calls and the test call, all completed.
    await figure('calls').getByText('3', { exact: true }).waitFor();
    await expect(figure('answer rate').textContent()).resolves.toBe('100%');
    await expect(figure('median latency').textContent()).resolves.toMatch(/^(\d+ ms|—)$/);
    const table = (caption: string) => page.locator('table', { has: page.locator('caption', { hasText: caption }) });
    expect(await table('Per outcome').locator('tbody tr').allInnerTexts()).toEqual(['completed\t3']);
    expect(await table('Per campaign').locator('tbody tr td:nth-child(-n+2)').allTextContents()).toEqual(['Demo reminder campaign', '2', 'no campaign (test calls)', '1']);
    expect(await table('Per agent').locator('tbody tr td:nth-child(-n+3)').allTextContents()).toEqual(['Demo appointment reminder', '3', '3']);
    expect(await page.locator('.chart canvas').count()).toBe(1);
    await shot('analytics');

    // A range without calls: yesterday alone.
    const yesterday = new Date(Date.now() - 86_400_000);
    const day = `${yesterday.getFullYear()}-${String(yesterday.getMonth() + 1).padStart(2, '0')}-${String(yesterday.getDate()).padStart(2, '0')}`;
    await page.getByLabel('First day').fill(day);
    await page.getByLabel('Last day').fill(day);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('heading', { name: day }).waitFor();
    await figure('calls').getByText('0', { exact: true }).waitFor();
  });

  it("edits the agent's prompt and runs a playground turn showing its tool calls", async () => {
    await section('Agents');
    await page.getByRole('link', { name: 'Demo appointment reminder' }).click();
    const settings = page.getByRole('form', { name: 'Prompt and settings' });
    await settings.getByLabel(/Model temperature/).fill('300');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.locator('[data-field="llmTemperature"]').waitFor();
    await settings.getByLabel(/Model temperature/).fill('40');
    await settings.getByLabel('Prompt').fill('You are a friendly assistant calling {{firstname}} to confirm an appointment tomorrow.');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByRole('status').getByText('Saved.').waitFor();

    await page.getByRole('textbox', { name: 'Value' }).first().fill('Ada');
    await page.getByLabel('You say').fill('Hello?');
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    const conversation = page.getByRole('list', { name: 'Conversation' });
    await conversation.getByText('Hello Ada, I am calling about your appointment.').waitFor();
    await conversation.getByText('end_call({})').waitFor();
    await conversation.getByText('The call ends here: agent_hangup').waitFor();
    const sent = llm.requests.filter((r) => !r.response_format).at(-1)!;
    expect(sent.messages[0].content).toContain('calling Ada to confirm an appointment tomorrow');
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'Hello?' });
    await shot('agent-playground');
  });

  it("triggers a flow with variables and shows its execution's step log as it updates", async () => {
    const steps = [{ step_number: 1, webhook_url: `${receiver.url}/hook`, webhook_method: 'POST', webhook_body: { call_id: '{{call_id}}' } }];
    okData(await t.request('POST', '/v1/webhooks', { token: key, body: { name: 'Console flow', steps } }));
    await section('Flows');
    await page.getByRole('link', { name: 'Console flow' }).click();
    await page.getByLabel('Variables (JSON)').fill('{"call_id": "abc-123"}');
    await page.getByRole('button', { name: 'Trigger' }).click();
    const execution = page.locator('.execution').first();
    await execution.locator('summary').getByText('success', { exact: true }).waitFor();
    await execution.locator('summary').click();
    await execution.getByText('Step 1').waitFor();
    await expect(execution.getByLabel('Request').textContent()).resolves.toBe(`POST ${receiver.url}/hook\n{"call_id":"abc-123"}`);
    await expect(execution.getByLabel('Response excerpt').textContent()).resolves.toBe('HTTP 200\n{"ok":true}');
    expect(JSON.parse(receiver.at('/hook')[0].body)).toEqual({ call_id: 'abc-123' });
    await shot('flow');
  });

  it('lists and searches contacts', async () => {
    await section('Contacts');
    await page.getByText('Page 1 · 3 contacts').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(3);
    await page.getByLabel('Name or number').fill('hopper');
    await page.keyboard.press('Enter');
    await page.getByText('Page 1 · 1 contacts').waitFor();
    expect(await page.locator('tbody tr td').first().textContent()).toBe('Grace Hopper');
    await shot('contacts');
  });

  it('imports a CSV of 1,000 contacts: a preview, the mapping, both bad rows named and nothing written, then the fixed file', async () => {
    const csv = (bad: boolean) => {
      const lines = ['First Name,Last Name,Phone,Plan'];
      for (let i = 0; i < 1000; i++) {
        const line = i + 2; // the header is line 1
        const phone = bad && line === 14 ? 'not a phone' : bad && line === 700 ? '' : `+1415666${String(i).padStart(4, '0')}`;
        lines.push(`Person,Number ${i},${phone},gold`);
      }
      return Buffer.from(`${lines.join('\n')}\n`);
    };
    await section('Contacts');
    await page.getByRole('link', { name: 'Import a CSV' }).click();
    await page.getByLabel(/CSV file/).setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: csv(true) });
    await page.getByText('contacts.csv: 1000 rows').waitFor();
    expect(await page.getByLabel('Phone number', { exact: true }).inputValue()).toBe('Phone');
    expect(await page.getByLabel('First name', { exact: true }).inputValue()).toBe('First Name');
    expect(await page.getByLabel('Last name', { exact: true }).inputValue()).toBe('Last Name');
    expect(await page.getByRole('checkbox', { name: 'Plan' }).isChecked()).toBe(true);
    // The server's dry run: its first 20 good rows, and both bad rows before anything is imported.
    await page.getByText('2 rows have problems: nothing will be imported.').waitFor({ timeout: 20_000 });
    expect(await page.locator('table tbody tr').count()).toBe(20);
    const previewed = await page.locator('.row-errors li').allTextContents();
    expect(previewed).toEqual([expect.stringMatching(/^Line 14 \(phone_number\): /), expect.stringMatching(/^Line 700 \(phone_number\): /)]);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('2 rows have problems: nothing was imported.').waitFor({ timeout: 20_000 });
    expect(await page.locator('.row-errors li').allTextContents()).toEqual(previewed);
    await shot('import-errors');

    await page.getByLabel(/CSV file/).setInputFiles({ name: 'fixed.csv', mimeType: 'text/csv', buffer: csv(false) });
    await page.getByText('fixed.csv: 1000 rows').waitFor();
    await page.getByRole('button', { name: 'Check without importing' }).click();
    await page.getByText('All 1000 rows are valid: nothing was written yet.').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('1000 contacts imported.').waitFor({ timeout: 20_000 });
    await shot('import');
    await section('Contacts');
    await page.getByText('Page 1 · 1003 contacts').waitFor();
  }, 60_000);

  it('fits a narrow screen: no sideways scrolling of the page; each page takes the focus', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    for (const name of ['Analytics', 'Campaigns', 'Calls', 'Agents']) {
      await section(name);
      await page.getByRole('heading', { name, exact: true }).waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      // The new page has the focus: the next Tab reaches its content, not the top of the document.
      expect(await page.evaluate('document.activeElement.tagName')).toBe('MAIN');
    }
    await shot('narrow-agents');
  });
});
