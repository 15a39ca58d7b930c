import pg from 'pg';
import { applyChanges, loadCampaign, selectContacts } from '../../src/services/campaigns/campaign.store';
import { type Dialer, DIALER_START, startDialer } from '../support/dialer';
import { waitFor } from '../support/wait';

// A campaign's entries (campaign_contacts) have no foreign keys to their campaign and contact
// (docs/campaigns.md, "Which contacts"): triggers on DELETE and the slice's lock on its
// campaign keep what those guarded. The product only soft-deletes contacts and campaigns
// (dialer.test.ts); these are the deletions outright that an operator or a company's
// deletion makes, and the races of each with a selection slice.

let d: Dialer;
let sql: pg.Pool;

beforeAll(async () => {
  d = await startDialer();
  sql = new pg.Pool({ connectionString: d.s.databaseUrl, max: 4 });
});
afterAll(async () => {
  await sql.end();
  await d.s.close();
});
afterEach(() => d.clock.set(DIALER_START));

const count = async (where: string, params: unknown[]) => (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM campaign_contacts WHERE ${where}`, params)).rows[0]?.n;

/** One slice of the campaign's selection in a transaction of its own, `during` run before it commits. */
async function slice(companyId: string, campaignId: string, during: () => Promise<void> = async () => undefined) {
  return d.s.orm.em.fork().transactional(async (tx) => {
    const campaign = await loadCampaign(tx, { id: campaignId, companyId });
    const added = campaign ? await selectContacts(tx, campaign, d.clock.now(), { first: 100, max: 100 }) : null;
    await during();
    return added;
  });
}

/** Waits until a statement starting with `prefix` waits for a lock. */
const lockWait = (prefix: string) =>
  waitFor(`${prefix} to wait for a lock`, async () => {
    const { rowCount } = await sql.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1 || '%'`, [prefix]);
    return rowCount ? true : undefined;
  });

/** New contacts of the dialer's company, as `ContactService.create` answers a list. */
async function newContacts(tag: string, count: number) {
  const created = await d.s.services.contacts.create(
    d.s.caller(d.companyId),
    d.numbers(count).map((phoneNumber) => ({ phoneNumber, tagName: tag })),
  );
  return Array.isArray(created) ? created : [created];
}

/** Two campaigns (not dialing: 07:00 in New York) selecting the same three new contacts; answers them and the contacts' ids. */
async function twoCampaigns() {
  d.clock.set('2026-11-23T12:00:00Z');
  const tag = `deletions-${Date.now()}`;
  const contacts = await newContacts(tag, 3);
  const a = await d.running({ contactsListTags: [[tag]] }, []);
  const b = await d.running({ contactsListTags: [[tag]] }, []);
  await d.tick(a.id);
  await d.tick(b.id);
  return { a, b, contactIds: contacts.map((c) => c.id) };
}

it('delete the entries of a contact deleted outright, in every campaign, and no other entry, taking them off the campaigns’ kept counts', async () => {
  const { a, b, contactIds } = await twoCampaigns();
  expect([await count('campaign_id = $1', [a.id]), await count('campaign_id = $1', [b.id])]).toEqual([3, 3]);
  // The contact's entry in `a` settled (skipped), as the dialer settles one.
  await d.s.orm.em
    .fork()
    .transactional((tx) => applyChanges(tx, { id: a.id, companyId: d.companyId }, [{ contactId: contactIds[0], state: 'settled', outcome: 'skipped', reason: 'do_not_call' }], d.clock.now()));
  expect([await d.kept(a.id), await d.kept(b.id)]).toMatchObject([
    { selected: 3, settled: 1 },
    { selected: 3, settled: 0 },
  ]);
  await sql.query('DELETE FROM contacts WHERE id = $1', [contactIds[0]]);
  expect(await count('contact_id = $1', [contactIds[0]])).toBe(0);
  expect([await count('campaign_id = $1', [a.id]), await count('campaign_id = $1', [b.id])]).toEqual([2, 2]);
  expect([await d.kept(a.id), await d.kept(b.id)]).toMatchObject([
    { selected: 2, settled: 0 },
    { selected: 2, settled: 0 },
  ]);
});

it('delete the entries of a campaign deleted outright, and no other campaign’s', async () => {
  const { a, b } = await twoCampaigns();
  await sql.query('DELETE FROM campaigns WHERE id = $1', [a.id]);
  expect([await count('campaign_id = $1', [a.id]), await count('campaign_id = $1', [b.id])]).toEqual([0, 3]);
});

it('leave no entry of a deleted company, and every entry of another', async () => {
  const { a } = await twoCampaigns();
  const { companyId } = await d.s.company('Deleted');
  await d.s.services.contacts.create(
    d.s.caller(companyId),
    d.numbers(4).map((phoneNumber) => ({ phoneNumber })),
  );
  const campaign = await d.s.services.campaigns.create(d.s.caller(companyId), { name: 'Everyone' });
  expect(await slice(companyId, campaign.id)).toEqual({ added: 4, done: true });
  await sql.query('DELETE FROM companies WHERE id = $1', [companyId]);
  expect(await count('company_id = $1', [companyId])).toBe(0);
  expect(await count('campaign_id = $1', [a.id])).toBe(3);
});

it('keep none of the entries a slice adds while its campaign is deleted: the deletion waits for the slice, then deletes them', async () => {
  const { companyId } = await d.s.company('Deleted while selecting');
  await d.s.services.contacts.create(
    d.s.caller(companyId),
    d.numbers(2).map((phoneNumber) => ({ phoneNumber })),
  );
  const campaign = await d.s.services.campaigns.create(d.s.caller(companyId), { name: 'Everyone' });
  let deleting: Promise<unknown> = Promise.resolve();
  const added = await slice(companyId, campaign.id, async () => {
    deleting = sql.query('DELETE FROM campaigns WHERE id = $1', [campaign.id]);
    await lockWait('DELETE FROM campaigns');
  });
  await deleting;
  expect(added).toEqual({ added: 2, done: true });
  expect(await count('campaign_id = $1', [campaign.id])).toBe(0);
});

it('add no entry in a slice that starts while its campaign is being deleted: it waits, then finds the campaign gone', async () => {
  const { companyId } = await d.s.company('Deleted before selecting');
  await d.s.services.contacts.create(d.s.caller(companyId), { phoneNumber: d.numbers(1)[0] });
  const campaign = await d.s.services.campaigns.create(d.s.caller(companyId), { name: 'Everyone' });
  const deleter = await sql.connect();
  try {
    await deleter.query('BEGIN');
    await deleter.query('DELETE FROM campaigns WHERE id = $1', [campaign.id]);
    const selecting = slice(companyId, campaign.id);
    await lockWait('SELECT selected_at IS NOT DISTINCT FROM');
    await deleter.query('COMMIT');
    expect(await selecting).toEqual({ added: 0, done: false });
  } finally {
    deleter.release();
  }
  expect(await count('campaign_id = $1', [campaign.id])).toBe(0);
});

it('settle, without calling it, an entry whose contact was deleted outright while the slice adding it ran, and complete the campaign', async () => {
  d.clock.set('2026-11-23T12:00:00Z'); // 07:00 New York: selected, not dialed
  const tag = `raced-${Date.now()}`;
  const [gone, kept] = await newContacts(tag, 2);
  const campaign = await d.running({ contactsListTags: [[tag]] }, []);
  // The slice does not lock the contacts it reads: the DELETE goes through, and its trigger cannot see the slice's entries yet.
  const added = await slice(d.companyId, campaign.id, async () => {
    await sql.query('DELETE FROM contacts WHERE id = $1', [gone.id]);
  });
  expect(added).toEqual({ added: 2, done: true });
  expect(await count('contact_id = $1', [gone.id])).toBe(1);
  d.clock.set(DIALER_START);
  await d.tick(campaign.id);
  const calls = await d.calls(campaign.id);
  expect(calls.map((c) => c.contactId)).toEqual([kept.id]);
  expect(await d.stats(campaign.id)).toMatchObject({ contactsSelected: 2, skipped: 1, skippedReasons: { contact_inactive: 1 }, inProgress: 1 });
  await d.end(calls[0].id, 'completed');
  await d.tick(campaign.id);
  expect(await d.stats(campaign.id)).toMatchObject({ status: 'completed', settled: 2, pickedUp: 1 });
});
