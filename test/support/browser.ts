import { type Browser, chromium } from 'playwright-core';

/** Debian's package (`apt-get install chromium`; .ci/run installs it when missing): playwright-core downloads none here. */
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** A headless Chromium for tests that check what a browser user sees; close it in afterAll. */
export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
