import type { Browser } from 'playwright-core';
import { EXAMPLE_ID } from '../../../src/services/shared/common.input';
import { launchBrowser } from '../../support/browser';
import { startTestApp, type TestApp } from '../../support/harness';

let t: TestApp;
let browser: Browser;

beforeAll(async () => {
  t = await startTestApp();
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t.close();
});

describe('Swagger UI at GET /docs, in a headless browser', () => {
  it("fills make-call's example body from the document's examples, not with values it makes up", async () => {
    const page = await browser.newPage();
    await page.goto(`${t.url}/docs#/Calls/makeCall`);
    const body = page.locator('#operations-Calls-makeCall .opblock-body');
    await body.getByText('Example Value').first().waitFor({ timeout: 20_000 });
    const example = JSON.parse(await body.locator('.body-param__example, .highlight-code').first().innerText());
    expect(example).toEqual({
      ai_agent_id: EXAMPLE_ID,
      ai_agent_version: 1,
      call_from: '+14155552671',
      call_to: '+14155552671',
      dynamic_variables: [{ name: 'first_name', value: 'Ada' }],
      workspace: 'default',
    });
    await page.close();
  }, 60_000);
});
