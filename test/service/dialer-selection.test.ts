import { type Dialer, DIALER_START, startDialer } from '../support/dialer';

// The dialer's selection (docs/campaigns.md, "Which contacts"): a pass over the company's
// contacts in slices, one a tick, dialing meanwhile; and its refresh while the campaign runs.
// Which contacts a selection takes: dialer.test.ts.

let sliced: Dialer;
let d: Dialer;

beforeAll(async () => {
  sliced = await startDialer({ CAMPAIGN_SELECTION_SLICE: '2' });
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
  const campaign = await sliced.running({}, sliced.numbers(2));
  // Slices of two: after three ticks the pass has read past the contact the edit will select.
  for (let tick = 0; tick < 3; tick += 1) await sliced.tick(campaign.id);
  await sliced.s.services.campaigns.update(caller(), campaign.id, { contactsListTags: [['edit-target']] });
  for (let tick = 0; tick < 6; tick += 1) await sliced.tick(campaign.id);
  expect(await sliced.stats(campaign.id)).toMatchObject({ contactsSelected: 1, status: 'active' });
});
