import { type Dialer, DIALER_START, startDialer } from '../support/dialer';

// The dialer's selection (docs/campaigns.md, "Which contacts"): a pass over the company's
// contacts in slices, one a tick, dialing meanwhile; and its refresh while the campaign runs.
// Which contacts a selection takes: dialer.test.ts.

let sliced: Dialer;
let d: Dialer;

beforeAll(async () => {
  sliced = await startDialer({ CAMPAIGN_SELECTION_SLICE: '2', CAMPAIGN_SELECTION_SLICE_MAX: '4' });
  d = await startDialer();
});
afterAll(async () => {
  await sliced.s.close();
  await d.s.close();
});
afterEach(() => {
  sliced.clock.set(DIALER_START);
  d.clock.set(DIALER_START);
});

async function endLive(dialer: Dialer, campaignId: string) {
  for (const call of await dialer.calls(campaignId)) if (call.callStatus === 'pstn-queued') await dialer.end(call.id, 'completed');
}

it('select in slices, one a tick, dialing each slice at once; a pass outlasting the refresh interval goes on, and the campaign completes only once it has read every contact', async () => {
  const campaign = await sliced.running({ maxConcurrentCalls: 10 }, sliced.numbers(2));
  await sliced.s.services.contacts.create(
    sliced.s.caller(sliced.companyId),
    sliced.numbers(3).map((phoneNumber) => ({ phoneNumber, tagName: 'not-selected' })),
  );
  // Five contacts, slices of two: the pass reads them in three ticks, the first two dialed at once.
  await sliced.tick(campaign.id);
  expect(await sliced.stats(campaign.id)).toMatchObject({ contactsSelected: 2, inProgress: 2 });
  await endLive(sliced, campaign.id);
  sliced.clock.advance(120_000);
  await sliced.tick(campaign.id);
  expect(await sliced.stats(campaign.id)).toMatchObject({ status: 'active', contactsSelected: 2, pickedUp: 2 });
  sliced.clock.advance(120_000);
  await sliced.tick(campaign.id);
  expect(await sliced.stats(campaign.id)).toMatchObject({ status: 'completed', contactsSelected: 2, pickedUp: 2, callProgress: 100 });
  const called = (await sliced.calls(campaign.id)).map((c) => c.contactId);
  expect(new Set(called).size).toBe(2);
  expect(called).toHaveLength(2);
});

/**
 * A company of its own with `contacts` contacts (the only ones a campaign of it reads) and an
 * active campaign of every contact, dialing from `from` in New York's time, every day.
 */
async function everyoneOfItsOwn(name: string, contacts: number, from: string) {
  const { companyId } = await sliced.s.company(name);
  const caller = () => sliced.s.caller(companyId);
  await sliced.s.services.contacts.create(
    caller(),
    sliced.numbers(contacts).map((phoneNumber) => ({ phoneNumber })),
  );
  const { id: aiAgentId } = await sliced.s.services.agents.create(caller(), { name: `${name} agent`, prompt: 'Hello' });
  const { id: outboundPhoneNumberId } = await sliced.s.services.phoneNumbers.create(caller(), { phoneNumber: from, label: name.toLowerCase() });
  const campaign = await sliced.s.services.campaigns.create(caller(), {
    name: 'Everyone',
    aiAgentId,
    outboundPhoneNumberId,
    timeZone: 'America/New_York',
    daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
    status: 'active',
  });
  return { caller, campaign };
}

it('read as many contacts in each later slice as all the slices before it, up to the largest slice', async () => {
  sliced.clock.set('2026-11-23T12:00:00Z'); // 07:00 New York: selected, not dialed
  const { caller, campaign } = await everyoneOfItsOwn('Growth', 11, '+14155552672');
  // Slices of 2, 2, 4, then 4 (the largest), the last of which reads the last 3 contacts.
  const selected: number[] = [];
  for (let tick = 0; tick < 4; tick += 1) {
    await sliced.s.services.dialer.tick(caller(), campaign.id);
    selected.push((await sliced.s.services.campaigns.stats(caller(), campaign.id)).contactsSelected);
  }
  expect(selected).toEqual([2, 4, 8, 11]);
  const [row] = await sliced.s.orm.em.fork().execute('SELECT selected_at IS NOT NULL AS selected, selection_started_at, selection_read FROM campaigns WHERE id = ?', [campaign.id]);
  expect(row).toEqual({ selected: true, selection_started_at: null, selection_read: null });
});

it('go through a whole pass in one job: its ticks follow one another while slices are left, each saying whether any is', async () => {
  sliced.clock.set('2026-11-23T12:00:00Z'); // 07:00 New York: selected, not dialed
  const { caller, campaign } = await everyoneOfItsOwn('One job', 11, '+14155552674');
  const selected = async () => (await sliced.s.services.campaigns.stats(caller(), campaign.id)).contactsSelected;
  // Slices of 2, 2, 4, then 4: a tick alone reads the first and says more are left.
  expect(await sliced.s.services.dialer.tick(caller(), campaign.id)).toBe(true);
  expect(await selected()).toBe(2);
  await sliced.s.services.dialer.run(caller(), campaign.id);
  expect(await selected()).toBe(11);
  const [row] = await sliced.s.orm.em.fork().execute('SELECT selected_at IS NOT NULL AS selected, selection_started_at FROM campaigns WHERE id = ?', [campaign.id]);
  expect(row).toEqual({ selected: true, selection_started_at: null });
  expect(await sliced.s.services.dialer.tick(caller(), campaign.id)).toBe(false);
});

it('add contacts created or changed since the selection once the refresh interval has passed since it, not before', async () => {
  d.clock.set('2026-11-23T12:00:00Z'); // 07:00 New York: selected, not dialed
  const caller = () => d.s.caller(d.companyId);
  const [later, changed] = d.numbers(2);
  const existing = (await d.s.services.contacts.create(caller(), { phoneNumber: changed, tagName: 'elsewhere' })) as { id: string };
  const campaign = await d.running({}, d.numbers(1));
  await d.tick(campaign.id);
  expect((await d.stats(campaign.id)).contactsSelected).toBe(1);

  await d.s.services.contacts.create(caller(), [{ phoneNumber: later, campaignId: campaign.id }]);
  await d.s.services.contacts.update(caller(), existing.id, { campaignId: campaign.id });
  d.clock.advance(59_000);
  await d.tick(campaign.id);
  expect((await d.stats(campaign.id)).contactsSelected).toBe(1);

  d.clock.advance(1_000);
  await d.tick(campaign.id);
  expect((await d.stats(campaign.id)).contactsSelected).toBe(3);
});

it('start the pass again from the first contact when the campaign is edited while it runs', async () => {
  sliced.clock.set('2026-11-23T12:00:00Z'); // 07:00 New York: selected, not dialed
  const caller = () => sliced.s.caller(sliced.companyId);
  await sliced.s.services.contacts.create(caller(), { phoneNumber: sliced.numbers(1)[0], tagName: 'edit-target' });
  await sliced.s.services.contacts.create(
    caller(),
    sliced.numbers(2).map((phoneNumber) => ({ phoneNumber, tagName: 'elsewhere' })),
  );
  const campaign = await sliced.running({}, sliced.numbers(2));
  // The first test's five contacts, then these five. Slices of 2, 2 and 4: after three ticks the pass has
  // read past the contact the edit will select, not yet the campaign's own two.
  for (let tick = 0; tick < 3; tick += 1) await sliced.tick(campaign.id);
  await sliced.s.services.campaigns.update(caller(), campaign.id, { contactsListTags: [['edit-target']] });
  for (let tick = 0; tick < 6; tick += 1) await sliced.tick(campaign.id);
  expect(await sliced.stats(campaign.id)).toMatchObject({ contactsSelected: 1, status: 'active' });
});

it('add each contact once when a pass starts again over contacts the campaign has selected (an edit while it runs)', async () => {
  sliced.clock.set('2026-11-23T12:00:00Z'); // 07:00 New York: selected, not dialed
  const { caller, campaign } = await everyoneOfItsOwn('Restart', 5, '+14155552673');
  // Slices of 2 and 2: four contacts selected, then an edit starts the pass again, over them.
  for (let tick = 0; tick < 2; tick += 1) await sliced.s.services.dialer.tick(caller(), campaign.id);
  expect((await sliced.s.services.campaigns.stats(caller(), campaign.id)).contactsSelected).toBe(4);
  await sliced.s.services.campaigns.update(caller(), campaign.id, { name: 'Everyone, renamed' });
  for (let tick = 0; tick < 3; tick += 1) await sliced.s.services.dialer.tick(caller(), campaign.id);
  expect((await sliced.s.services.campaigns.stats(caller(), campaign.id)).contactsSelected).toBe(5);
  const [row] = await sliced.s.orm.em
    .fork()
    .execute(
      'SELECT count(DISTINCT contact_id)::int AS contacts, selected_at IS NOT NULL AS selected FROM campaign_contacts, campaigns c WHERE campaign_id = ? AND c.id = campaign_id GROUP BY c.selected_at',
      [campaign.id],
    );
  expect(row).toEqual({ contacts: 5, selected: true });
});

// Last: it stops this file's dialer.
it('end a pass a job is going on with after the current slice once the process is stopping (the sweep resumes it)', async () => {
  sliced.clock.set('2026-11-23T12:00:00Z'); // 07:00 New York: selected, not dialed
  const { caller, campaign } = await everyoneOfItsOwn('Stopping', 11, '+14155552675');
  sliced.s.services.dialer.stop();
  await sliced.s.services.dialer.run(caller(), campaign.id);
  expect((await sliced.s.services.campaigns.stats(caller(), campaign.id)).contactsSelected).toBe(2);
  const swept = await sliced.s.orm.em.fork().execute('SELECT 1 FROM campaigns WHERE id = ? AND selection_started_at IS NOT NULL', [campaign.id]);
  expect(swept).toHaveLength(1);
});
