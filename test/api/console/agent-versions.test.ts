import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshots, signedInConsole } from '../../support/browser';
import { okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';

let t: TestApp;
let a: Tenant;
let browser: Browser;
let page: Page;
const { clear, shot } = screenshots('console-versions', () => page);

beforeAll(async () => {
  await clear();
  t = await startTestApp();
  a = await tenant(t, 'A');
  browser = await launchBrowser();
  page = await signedInConsole(browser, t.url, a.key, 'Calls');
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const versionsOf = async (id: string) => okData(await t.request('GET', `/v1/ai-agent/${id}/versions`, { token: a.key })).items as any[];

describe("an agent's versions in the console", () => {
  it('publishes the draft with a note, compares two versions field by field, and rolls back', async () => {
    const agent = okData(await t.request('POST', '/v1/ai-agent', { token: a.key, body: { name: 'Versioned', prompt: 'You confirm appointments.', llm_temperature: 30 } }));
    await page.goto(`${t.url}/console/#/agents/${agent.id}`);
    const versions = page.getByRole('region', { name: 'Versions' });
    await versions.getByText('Never published.').waitFor();

    await versions.getByLabel('Note').fill('First release');
    await versions.getByRole('button', { name: 'Publish the draft' }).click();
    await versions.getByRole('status').getByText('Published version 1.').waitFor();

    const settings = page.getByRole('form', { name: 'Prompt and settings' });
    await settings.getByLabel('Prompt').fill('You confirm appointments and take cancellations.');
    await settings.getByLabel(/Model temperature/).fill('60');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByRole('status').getByText('Saved.').waitFor();
    await versions.getByLabel('Note').fill('Cancellations');
    await versions.getByRole('button', { name: 'Publish the draft' }).click();
    await versions.getByRole('status').getByText('Published version 2.').waitFor();

    const table = versions.getByRole('table', { name: 'Published versions, newest first' });
    await table.getByRole('cell', { name: 'Cancellations' }).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(2);
    const diff = versions.getByRole('table', { name: 'Fields that differ' });
    await diff.waitFor();
    expect(await diff.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-field')))).toEqual(['prompt', 'llmTemperature']);
    const prompt = diff.locator('tr[data-field="prompt"] td');
    expect(await prompt.allInnerTexts()).toEqual(['You confirm appointments.', 'You confirm appointments and take cancellations.']);
    expect(await diff.locator('tr[data-field="llmTemperature"] td').allInnerTexts()).toEqual(['30', '60']);
    await shot('versions-diff');

    await versions.getByLabel('To').selectOption('1');
    await versions.getByRole('status').getByText('No differences.').waitFor();

    await versions.getByRole('button', { name: 'Roll back to version 1' }).click();
    await versions.getByRole('status').getByText('Published version 3.').waitFor();
    await table.locator('tbody tr').first().getByRole('cell', { name: 'Roll back to version 1' }).waitFor();
    const stored = await versionsOf(agent.id);
    expect(stored.map((v) => [v.version, v.prompt, v.llm_temperature])).toEqual([
      [3, 'You confirm appointments.', 30],
      [2, 'You confirm appointments and take cancellations.', 60],
      [1, 'You confirm appointments.', 30],
    ]);
    await shot('versions-rolled-back');
  }, 30_000);
});
