import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import sparticuzChromium from '@sparticuz/chromium';
import { type Browser, chromium, type Page } from 'playwright-core';

/** A Chromium installed by the system (Debian's `chromium` package), used when present. */
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
/**
 * Headless, and `--no-sandbox` because the tests may run as root (Chromium refuses to start its
 * sandbox as root). Not @sparticuz/chromium's own `args`: they turn web security off
 * (`--disable-web-security`), which test/api/operations/cors.test.ts needs on.
 */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/**
 * The Chromium the browser tests drive: `CHROMIUM_PATH` when set; else the system's when one is
 * installed; else the one the npm package @sparticuz/chromium ships, unpacked from its brotli
 * archive into the temporary folder (`os.tmpdir()/chromium`) on first use and reused after.
 * The test set-up calls it once, so the test files never unpack it side by side.
 */
export async function chromiumPath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  return sparticuzChromium.executablePath();
}

/**
 * A headless Chromium for tests that check what a browser user sees; close it in afterAll. Its
 * locale is en-US whatever the machine's: under `LANG=C.UTF-8` the headless shell reports
 * `navigator.language` as `en-US@posix`, which `Intl` refuses (the console then fails to start).
 */
export const launchBrowser = async (): Promise<Browser> => chromium.launch({ executablePath: await chromiumPath(), args: FLAGS, env: { ...process.env, LANG: 'en_US.UTF-8' } });

/** A desktop-sized page of the console at `baseUrl`, signed in with `key`, once `home`'s heading shows; page errors are printed. */
export async function signedInConsole(browser: Browser, baseUrl: string, key: string, home = 'Analytics'): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (err) => process.stdout.write(`page error: ${err.message}\n`));
  await page.goto(`${baseUrl}/console/`);
  await page.getByLabel(/API key/).fill(key);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: home }).waitFor();
  return page;
}

/**
 * The console tests' screenshots, for a reviewer's eyes (no test asserts them), taken only when
 * SCREENSHOTS=1 (docs/console.md): each full page costs the browser a PNG encoding. `shot`
 * writes `.data/screenshots/<folder>/<name>.png` of the page `page()` answers; the folder is
 * emptied when the file starts (`clear`, in its `beforeAll`).
 */
export function screenshots(folder: string, page: () => Page): { clear(): Promise<void>; shot(name: string): Promise<void> } {
  const dir = path.resolve('.data/screenshots', folder);
  const on = process.env.SCREENSHOTS === '1';
  return {
    async clear() {
      if (!on) return;
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      process.stdout.write(`web console screenshots: ${dir}\n`);
    },
    async shot(name) {
      if (on) await page().screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
    },
  };
}
