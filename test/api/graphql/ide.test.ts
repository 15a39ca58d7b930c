import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../support/browser';
import { startTestApp, type TestApp } from '../../support/harness';

/** What the page sent to the GraphQL endpoint, and what it was answered. */
interface Exchange {
  authorization: string | undefined;
  introspection: boolean;
  status: number;
}

let t: TestApp;
let browser: Browser;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
  key = (await t.company('IDE')).apiKey;
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t.close();
});

/** A fresh page recording every POST to /graphql it makes. */
async function openPage(): Promise<{ page: Page; exchanges: Exchange[] }> {
  const page = await browser.newPage();
  const exchanges: Exchange[] = [];
  page.on('response', (res) => {
    const req = res.request();
    if (req.method() !== 'POST' || new URL(req.url()).pathname !== '/graphql') return;
    exchanges.push({ authorization: req.headers().authorization, introspection: (req.postData() ?? '').includes('IntrospectionQuery'), status: res.status() });
  });
  return { page, exchanges };
}

/** Waits until GraphiQL shows the schema's root type in its documentation explorer. */
async function expectSchemaShown(page: Page): Promise<void> {
  await page.getByRole('button', { name: /show documentation explorer/i }).click();
  await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().waitFor({ timeout: 15_000 });
}

describe('GraphiQL at GET /graphql, in a headless browser', () => {
  it('asks for the key first, sends nothing before it, then loads the schema once, authenticated', async () => {
    const { page, exchanges } = await openPage();
    await page.goto(`${t.url}/graphql`);
    const input = page.getByLabel(/API key/);
    await input.waitFor();
    expect(exchanges).toEqual([]);

    await input.fill(key);
    await page.getByRole('button', { name: 'Open GraphiQL' }).click();
    await expectSchemaShown(page);
    await page.waitForLoadState('networkidle');

    const introspections = exchanges.filter((e) => e.introspection);
    expect(introspections).toEqual([{ authorization: `Bearer ${key}`, introspection: true, status: 200 }]);
    expect(exchanges.every((e) => e.authorization === `Bearer ${key}` && e.status === 200)).toBe(true);
    expect(await page.locator('#key-form').isVisible()).toBe(false);
    await page.close();
  }, 60_000);

  it('takes the key from the URL fragment, clears it from the address bar, and loads the schema once', async () => {
    const { page, exchanges } = await openPage();
    await page.goto(`${t.url}/graphql#key=${encodeURIComponent(key)}`);
    await expectSchemaShown(page);
    await page.waitForLoadState('networkidle');

    expect(exchanges.filter((e) => e.introspection)).toEqual([{ authorization: `Bearer ${key}`, introspection: true, status: 200 }]);
    expect(page.url()).toBe(`${t.url}/graphql`);
    await page.close();
  }, 60_000);

  it('keeps asking, with the reason, when the key is refused, and loads no schema with it', async () => {
    const { page, exchanges } = await openPage();
    await page.goto(`${t.url}/graphql#key=sk_not_a_real_key`);
    await page
      .getByRole('alert')
      .getByText(/refused/)
      .waitFor();
    await page.waitForLoadState('networkidle');

    expect(await page.getByLabel(/API key/).isVisible()).toBe(true);
    expect(exchanges).toEqual([{ authorization: 'Bearer sk_not_a_real_key', introspection: false, status: 401 }]);
    await page.close();
  }, 60_000);
});
