import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signedInConsole } from '../../support/browser';
import { okData, type Tenant, tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';

/**
 * A campaign's page when the API's audience counts stopped at AUDIENCE_COUNT_LIMIT (here 2):
 * a filtered selection's matched number shows as a lower bound ("2+"), its calls and skips as
 * of the first counted, with a line saying so (docs/campaigns.md, "Audience preview").
 */
let t: TestApp;
let a: Tenant;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  t = await startTestApp({ AUDIENCE_COUNT_LIMIT: '2' });
  a = await tenant(t, 'A');
  okData(await t.request('POST', '/v1/contacts', { token: a.key, body: [1, 2, 3].map((n) => ({ phone_number: `+1415555040${n}`, tag_name: 'vip' })) }));
  browser = await launchBrowser();
  page = await signedInConsole(browser, t.url, a.key, 'Calls');
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe("a campaign's audience past the API's count limit", () => {
  it('shows the matched contacts as a lower bound and the calls as of the first counted', async () => {
    okData(await t.request('POST', `/compaign/v1/campaign/update/${a.campaign.id}`, { token: a.key, body: { contacts_list_tags: [['vip']] } }));
    await page.goto(`${t.url}/console/#/campaigns/${a.campaign.id}`);
    const audience = page.getByTestId('audience');
    await expect(audience.getByText('matched').locator('..').locator('dd').textContent()).resolves.toBe('2+');
    await expect(audience.getByText('will be called').locator('..').locator('dd').textContent()).resolves.toBe('2');
    await expect(page.getByTestId('audience-capped').textContent()).resolves.toContain('More than 2 contacts match');
  });
});
