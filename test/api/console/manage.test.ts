import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshots } from '../../support/browser';
import { okData, type Tenant } from '../../support/fixtures';
import { startTestApp, type TestApp } from '../../support/harness';
import { FLOW_ENV, Receiver } from '../flows/support';
import { gqlData } from '../graphql/graphql-client';
import { insertCalls } from '../graphql/records';

let receiver: Receiver;
let t: TestApp;
let browser: Browser;
let page: Page;
const { clear, shot } = screenshots('console-manage', () => page);
let key: string;

beforeAll(async () => {
  await clear();
  receiver = await Receiver.start();
  // A credential is trusted (and an open socket's re-checked) for 1 s: a revoked key's socket closes within it.
  t = await startTestApp({ ...FLOW_ENV, SEED_DEMO: '1', AUTH_TRUST_S: '1' });
  key = t.app.demo!.apiKey;
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (err) => process.stdout.write(`page error: ${err.message}\n`));
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await receiver?.close();
});

const section = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();

async function signIn(apiKey: string) {
  await page.getByLabel('API key or JWT').fill(apiKey);
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

describe('creating and managing everything from the web console', () => {
  it('signs in: the label on one line, the favicon served', async () => {
    await page.goto(`${t.url}/console/`);
    const label = await page.locator('label[for="key"]').boundingBox();
    expect(label!.height).toBeLessThan(30);
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect((await page.request.get(new URL(icon!, page.url()).href)).status()).toBe(200);
    await signIn(key);
    await heading('Analytics');
  });

  it('creates an API key, shown once', async () => {
    await section('API keys');
    await heading('API keys');
    await page.getByRole('button', { name: 'Create a key' }).click();
    const secret = (await page.getByTestId('new-key').textContent())!;
    expect(secret).toMatch(/^sk_/);
    await page.getByRole('cell', { name: `${secret.slice(0, 10)}…`, exact: true }).waitFor();
    expect((await gqlData(t, '{ __typename }', {}, secret)).__typename).toBe('Query');
    await shot('api-key-created');
    await section('Calls');
    await section('API keys');
    await page.getByRole('cell', { name: `${secret.slice(0, 10)}…`, exact: true }).waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it("adds a phone number, with the API's error beside the field first", async () => {
    await section('Numbers');
    await heading('Phone numbers');
    await page.getByLabel('Number (any format)').fill('not a number');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.locator('[data-field="phoneNumber"]').waitFor();
    await page.getByLabel('Number (any format)').fill('+1 (415) 555-0199');
    await page.getByLabel('Label').fill('Second line');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('cell', { name: '+14155550199', exact: true }).waitFor();
    expect(await page.locator('[data-field="phoneNumber"]').count()).toBe(0);
    await shot('numbers');
  });

  it('creates an agent from a template, then edits its model and call settings', async () => {
    await section('Agents');
    await page.getByRole('link', { name: 'New agent' }).click();
    await heading('New agent');
    await page.getByLabel('Template').selectOption({ label: 'Lead qualification' });
    expect(await page.getByLabel('Prompt').inputValue()).toMatch(/^You are a sales development representative/);
    await page.getByLabel('Name', { exact: true }).fill('My SDR');
    await page.getByRole('button', { name: 'Create the agent' }).click();
    await heading('My SDR');
    const settings = page.getByRole('form', { name: 'Prompt and settings' });
    await settings.getByLabel('Voice speed (0-100)').fill('70');
    await settings.getByLabel('Transfers').selectOption('WARM');
    await settings.getByLabel('Opening disclosure').fill('This call is recorded.');
    await settings.getByText('More: status, kind, flow, variables, outcomes').click();
    await settings.getByLabel('Outcomes recorded after a call (JSON)').fill('{"interested": "yes"}');
    await settings.getByRole('button', { name: 'Save' }).click();
    // Beside its field: an outcome's value is its type.
    await settings
      .locator('[data-field="agentPostCallOutcomes"]')
      .getByText(/expected one of/)
      .waitFor();
    await settings.getByLabel('Outcomes recorded after a call (JSON)').fill('{"interested": "boolean"}');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByRole('status').getByText('Saved.').waitFor();
    const id = page.url().split('/').at(-1)!;
    const stored = okData(await t.request('GET', `/v1/ai-agent/${id}`, { token: key }));
    expect(stored).toMatchObject({ name: 'My SDR', voice_speed: 70, transfer_mode: 'warm', opening_disclosure: 'This call is recorded.', agent_post_call_outcomes: { interested: 'boolean' } });
    expect(stored.prompt).toMatch(/^You are a sales development representative/);
    await shot('agent-created');
  });

  it('creates a campaign step by step, asks before activating it on every contact, pauses, resumes and deletes it', async () => {
    await section('Campaigns');
    await page.getByRole('link', { name: 'New campaign' }).click();
    await heading('New campaign');
    const form = page.getByRole('form', { name: /^Step/ });
    await form.getByLabel('Agent').selectOption({ label: 'My SDR' });
    // The name left empty: the API's error brings the first step back, the rest kept.
    for (let i = 0; i < 4; i++) await form.getByRole('button', { name: 'Next' }).click();
    await form.getByRole('button', { name: 'Create the campaign' }).click();
    await page.getByRole('heading', { name: 'Step 1 of 6: Name and agent' }).waitFor();
    await form.locator('[data-field="name"]').waitFor();
    await form.getByLabel('Name', { exact: true }).fill('Console campaign');
    await form.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Step 2 of 6: Numbers' }).waitFor();
    expect(await page.evaluate('document.activeElement.id')).toBe('step-title');
    await form.getByLabel('Calls from').selectOption({ label: '+14155550199 Second line' });
    await form.getByRole('button', { name: 'Next' }).click();
    await form.getByRole('status').getByText('No filter: the campaign selects every contact of the company (3 active).', { exact: false }).waitFor();
    await shot('campaign-new-contacts');
    await form.getByRole('button', { name: 'Next' }).click();
    await form.getByLabel('Time zone').fill('America/New_York');
    await form.getByRole('button', { name: 'Next' }).click();
    await form.getByRole('button', { name: 'Create the campaign' }).click();
    // The draft's audience, as the API counts it: Grace Hopper's +44 number is not local to the +1 calling number.
    await page.getByRole('heading', { name: 'Step 6 of 6: Who it will call' }).waitFor();
    expect(await page.evaluate('document.activeElement.id')).toBe('review');
    const audience = page.getByTestId('audience');
    await expect(audience.getByText('matched').locator('..').locator('dd').textContent()).resolves.toBe('3');
    await expect(audience.getByText('will be called').locator('..').locator('dd').textContent()).resolves.toBe('2');
    await expect(audience.getByText('skipped, not local').locator('..').locator('dd').textContent()).resolves.toBe('1');
    expect(await page.locator('.audience tbody tr').count()).toBe(2);
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.getByRole('alertdialog').getByText('it selects every contact of the company (3) and will call 2 of them.', { exact: false }).waitFor();
    await shot('campaign-new-audience');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Not now' }).click();
    await page.getByRole('link', { name: 'Open the campaign (draft)' }).click();
    await heading('Console campaign');
    const id = page.url().split('/').at(-1)!;
    expect(okData(await t.request('GET', `/v1/campaigns/by-id/${id}`, { token: key }))).toMatchObject({ status: 'draft', time_zone: 'America/New_York', contacts_list_tags: [] });

    await page.getByRole('button', { name: 'Activate' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('This campaign has no contact filter: it selects every contact of the company (3) and will call 2 of them. Activate it?').waitFor();
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Call them all');
    await expect(page.getByTestId('audience').getByText('will be called').locator('..').locator('dd').textContent()).resolves.toBe('2');
    await shot('campaign-confirm');
    await confirm.getByRole('button', { name: 'Not now' }).click();
    await expect(page.getByTestId('campaign-status').textContent()).resolves.toBe('draft');
    // The question gone, the focus is back on the button that asked it.
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Activate');
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Call them all' }).click();
    await page.getByTestId('campaign-status').getByText('active').waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByTestId('campaign-status').getByText('paused').waitFor();
    // Resuming asks nothing: the selection was confirmed when the campaign was activated.
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByTestId('campaign-status').getByText('active').waitFor();

    await page.getByRole('button', { name: 'Delete this campaign' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await heading('Campaigns');
    await page.getByRole('link', { name: 'Demo reminder campaign' }).waitFor();
    expect(await page.getByRole('link', { name: 'Console campaign' }).count()).toBe(0);
  }, 60_000);

  it('switches the demo flow on, points its step at a receiver, subscribes it to an event and triggers it', async () => {
    await section('Flows');
    await page.getByRole('link', { name: 'Demo: post call results' }).click();
    await page.getByTestId('flow-status').getByText('stopped').waitFor();
    await page.getByText('This flow is switched off: switch it on to trigger it.').waitFor();
    await shot('flow-stopped');
    await page.getByRole('button', { name: 'Switch on' }).click();
    await page.getByTestId('flow-status').getByText('running').waitFor();

    const settings = page.getByRole('form', { name: 'Steps and events' });
    await settings.getByLabel('URL').fill(`${receiver.url}/demo`);
    await settings.getByLabel(/a call ends/).check();
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByRole('status').getByText('Saved.').waitFor();

    await page.getByLabel('Variables (JSON)').fill('{"call_id": "c-1", "call_status": "completed"}');
    await page.getByRole('button', { name: 'Trigger', exact: true }).click();
    await page.locator('.execution').first().locator('summary').getByText('success', { exact: true }).waitFor();
    expect(JSON.parse(receiver.at('/demo')[0].body)).toEqual({ call_id: 'c-1', status: 'completed' });
    const id = page.url().split('/').at(-1)!;
    expect(okData(await t.request('GET', `/v1/webhooks/${id}`, { token: key }))).toMatchObject({ status: 'running', events: ['call.ended'] });
    await shot('flow');
  });

  it('creates a flow from an integration template, its signing secret shown once', async () => {
    await section('Flows');
    await page.getByRole('link', { name: 'New flow' }).click();
    await page.getByLabel('Integration template').selectOption({ label: 'Slack incoming webhook (messaging)' });
    await page.getByLabel('Name', { exact: true }).fill('Team alerts');
    await page.getByRole('button', { name: 'Create the flow' }).click();
    const secret = (await page.getByTestId('flow-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('link', { name: 'Open the flow' }).click();
    await heading(/^Team alerts/);
    await page.getByTestId('flow-status').getByText('running').waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('creates a flow with its steps', async () => {
    await section('Flows');
    await page.getByRole('link', { name: 'New flow' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Console made flow');
    await page.getByLabel('URL').fill(`${receiver.url}/made`);
    await page.getByLabel(/^Body/).fill('{"id": "{{id}}"}');
    // A step the API refuses: its error shows beside the field GraphQL names.
    await page.getByLabel(/^Retries/).fill('11');
    await page.getByRole('button', { name: 'Create the flow' }).click();
    await page.locator('[data-field="steps[0].retryLimit"]').waitFor();
    await page.getByLabel(/^Retries/).fill('');
    await page.getByRole('button', { name: 'Create the flow' }).click();
    await expect(page.getByTestId('flow-secret').textContent()).resolves.toMatch(/^whsec_/);
    await page.getByRole('link', { name: 'Open the flow' }).click();
    await heading(/^Console made flow/);
    await page.getByTestId('flow-status').getByText('running').waitFor();
    await page.getByLabel('Variables (JSON)').fill('{"id": "x"}');
    await page.getByRole('button', { name: 'Trigger', exact: true }).click();
    await page.locator('.execution').first().locator('summary').getByText('success', { exact: true }).waitFor();
    expect(JSON.parse(receiver.at('/made')[0].body)).toEqual({ id: 'x' });
  });

  it('adds numbers to the do-not-call list by hand and from a file, and removes one', async () => {
    await section('Do not call');
    await page.getByLabel(/^Numbers, one a line/).fill('+1 415 555 0111');
    await page.getByRole('button', { name: 'Add to the list' }).click();
    await page.getByRole('cell', { name: '+14155550111', exact: true }).waitFor();
    await page.getByLabel(/import a file/).setInputFiles({ name: 'numbers.csv', mimeType: 'text/csv', buffer: Buffer.from('phone\n+14155550112\n(415) 555-0113\n') });
    await page.getByRole('status').getByText('2 numbers listed.').waitFor();
    await page.getByText('Page 1 · 3 numbers').waitFor();
    await page.getByRole('button', { name: 'Remove +14155550112' }).click();
    await page.getByText('Page 1 · 2 numbers').waitFor();
    await shot('do-not-call');
  });

  it('opens a contact: its campaign, edits it, lists its number as do-not-call; deletes another', async () => {
    await section('Contacts');
    const [ada] = okData(await t.request('GET', '/v1/contacts?search=Ada', { token: key })).items;
    const [grace] = okData(await t.request('GET', '/v1/contacts?search=Grace', { token: key })).items;
    const [agent] = okData(await t.request('GET', '/v1/ai-agent', { token: key }));
    const demo = { companyId: ada.company_id, agent, campaign: { id: ada.campaign_id } } as unknown as Tenant;
    const [adaCall] = await insertCalls(t, demo, 1, { contact: ada.id, callStatus: 'busy' });
    const [graceCall] = await insertCalls(t, demo, 1, { contact: grace.id });
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await heading('Ada Lovelace');
    await page.getByRole('link', { name: 'Demo reminder campaign' }).waitFor();
    // Her calls, filtered by the server (Grace's call of the same campaign is not hers; the
    // campaign activated above may have called her too, inside its calling window).
    const calls = page.getByRole('list', { name: 'Calls of this contact' });
    await calls.getByRole('link').first().waitFor();
    const listed = await calls.getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    expect(listed.some((href) => href.includes(adaCall.id))).toBe(true);
    expect(listed.some((href) => href.includes(graceCall.id))).toBe(false);
    await page.getByLabel('Notes').fill('Prefers mornings');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    await page.getByRole('button', { name: 'Add +14155552671 to the do-not-call list' }).click();
    await page.getByRole('status').getByText('+14155552671 is on the do-not-call list').waitFor();
    await shot('contact');

    await section('Contacts');
    await page.getByRole('link', { name: 'Grace Hopper' }).click();
    await page.getByRole('button', { name: 'Delete this contact' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Page 1 · 2 contacts').waitFor();
    expect(okData(await t.request('GET', '/v1/do-not-call', { token: key })).items.map((e: any) => e.phone_number)).toContain('+14155552671');
  });

  it("forgets the previous file's errors when another file is chosen for import", async () => {
    await section('Contacts');
    await page.getByRole('link', { name: 'Import a CSV' }).click();
    await page.getByLabel(/CSV file/).setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('phone\n+14155550176\nnope\n') });
    // The preview is the server's dry run: the bad row's error before anything is imported.
    await page.getByText('1 row has problems: nothing will be imported.').waitFor();
    expect(await page.locator('.row-errors li').allTextContents()).toEqual(['Line 3 (phone_number): Invalid phone number format']);
    expect(await page.locator('table tbody tr').allTextContents()).toEqual(['2+14155550176']);
    await page.getByLabel(/CSV file/).setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from('phone\n+14155550177\n') });
    await page.getByText('good.csv: 1 rows').waitFor();
    expect(await page.getByText('1 row has problems').count()).toBe(0);
    expect(await page.locator('.row-errors li').count()).toBe(0);
  });

  it('imports a semicolon-separated file, as the server reads it too', async () => {
    await section('Contacts');
    await page.getByRole('link', { name: 'Import a CSV' }).click();
    await page.getByLabel(/CSV file/).setInputFiles({ name: 'semicolons.csv', mimeType: 'text/csv', buffer: Buffer.from('firstname;lastname;phone_number\nJürgen;Semi;+14155550188\n') });
    await page.getByText('semicolons.csv: 1 rows, columns firstname, lastname, phone_number (separated by ";").').waitFor();
    expect(await page.getByLabel('Phone number', { exact: true }).inputValue()).toBe('phone_number');
    expect(await page.locator('table tbody tr').allTextContents()).toEqual(['2+14155550188JürgenSemi']);
    await page.getByRole('button', { name: 'Check without importing' }).click();
    await page.getByText('All 1 rows are valid: nothing was written yet.').waitFor();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('1 contacts imported.').waitFor();
    const found = okData(await t.request('GET', '/v1/contacts?search=Semi', { token: key }));
    expect(found.items.map((c: any) => [c.firstname, c.phone_number])).toEqual([['Jürgen', '+14155550188']]);
  });

  it('previews a Windows-1252 file as the server reads it: refused, as the API refuses it, never stored garbled', async () => {
    await section('Contacts');
    await page.getByRole('link', { name: 'Import a CSV' }).click();
    const cp1252 = Buffer.concat([Buffer.from('firstname;phone_number\nJ'), Buffer.from([0xfc]), Buffer.from('rgen;+14155550189\n')]);
    await page.getByLabel(/CSV file/).setInputFiles({ name: 'excel.csv', mimeType: 'text/csv', buffer: cp1252 });
    await page.getByText('The server refuses this file: nothing was imported.').waitFor();
    const api = await fetch(`${t.url}/v1/contacts/import?dry_run=true`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' }, body: cp1252 });
    const refused = (await api.json()) as any;
    expect(refused.data).toEqual([{ field: 'file', message: 'Must be UTF-8 text; this file is not (Excel: save as "CSV UTF-8")' }]);
    expect(await page.locator('.row-errors li').allTextContents()).toEqual([`file: ${refused.data[0].message}`]);
    expect(await page.getByRole('button', { name: 'Import', exact: true }).count()).toBe(0);
    expect(okData(await t.request('GET', '/v1/contacts?search=%2B14155550189', { token: key })).items).toEqual([]);
  });

  it('fits a narrow screen on the new pages', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    for (const [name, title] of [
      ['Numbers', 'Phone numbers'],
      ['Do not call', 'Do not call'],
      ['API keys', 'API keys'],
    ]) {
      await section(name);
      await heading(title);
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    }
    await section('Campaigns');
    await page.getByRole('link', { name: 'New campaign' }).click();
    await heading('New campaign');
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await shot('narrow-new-campaign');
    await page.setViewportSize({ width: 1200, height: 900 });
  });

  it('signs out with a message when the signed-in key is revoked, on the next answer; a reload keeps no dead key', async () => {
    const made = (await gqlData(t, 'mutation { createApiKey { id secret } }', {}, key)).createApiKey;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(made.secret);
    await section('API keys');
    await page.getByRole('button', { name: `Revoke ${made.secret.slice(0, 10)}…` }).click();
    // The list re-read after the revocation is refused (401): signed out, saying why.
    await page.getByRole('alert').getByText('The service no longer accepts this key (revoked or expired)').waitFor();
    expect(await page.evaluate('sessionStorage.getItem("switchboard.apiKey")')).toBeNull();
    await shot('signed-out');
    await page.reload();
    await page.getByLabel('API key or JWT').waitFor();
  });

  it('signs out when the socket of a revoked key is closed, with no request of its own', async () => {
    const made = (await gqlData(t, 'mutation { createApiKey { id secret } }', {}, key)).createApiKey;
    await signIn(made.secret);
    // The calls page holds a subscription: its socket is open.
    await section('Calls');
    await heading('Calls');
    await gqlData(t, 'mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: made.id }, key);
    await page.getByRole('alert').getByText('The service no longer accepts this key (revoked or expired)').waitFor();
    expect(await page.evaluate('sessionStorage.getItem("switchboard.apiKey")')).toBeNull();
  });

  it('does not keep a key revoked while the tab was away: the reload signs out', async () => {
    const made = (await gqlData(t, 'mutation { createApiKey { id secret } }', {}, key)).createApiKey;
    await signIn(made.secret);
    await gqlData(t, 'mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: made.id }, key);
    await page.reload();
    await page.getByRole('alert').getByText('The service no longer accepts this key (revoked or expired)').waitFor();
    expect(await page.evaluate('sessionStorage.getItem("switchboard.apiKey")')).toBeNull();
  });
});
