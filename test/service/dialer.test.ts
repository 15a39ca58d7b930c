import { type Dialer, DIALER_START, startDialer } from '../support/dialer';

// The dialer's rules, one tick at a time on a manual clock, each call ended as the provider
// would end it: retries and their tiers, the concurrency cap, skipped contacts, contact
// selection, pausing and completion. The calling window's edges: dialer-window.test.ts. What
// the API adds (shapes, stats over REST and GraphQL, a campaign run end to end through the
// simulated provider): test/api/campaigns.

let d: Dialer;

beforeAll(async () => {
  d = await startDialer();
});
afterAll(() => d.s.close());
afterEach(() => d.clock.set(DIALER_START));

/** The campaign's calls' statuses, oldest first. */
const statuses = async (campaignId: string) => (await d.calls(campaignId)).map((c) => c.callStatus);

/** Ends every live call of the campaign with `status`. */
async function endLive(campaignId: string, status: Parameters<Dialer['end']>[1], update: Parameters<Dialer['end']>[2] = {}) {
  for (const call of await d.calls(campaignId)) if (call.callStatus === 'pstn-queued') await d.end(call.id, status, update);
}

describe('retry tiers', () => {
  it('retry a busy attempt after each tier’s delay, never before, then settle the contact as failed', async () => {
    const campaign = await d.running({ numberOfCallAttempts: [2, 1], retryDelay: [10, 1], retryDelayUnit: ['minutes', 'hours'] }, d.numbers(1));
    await d.tick(campaign.id);
    await endLive(campaign.id, 'busy');
    await d.tick(campaign.id);
    expect(await d.stats(campaign.id)).toMatchObject({ queued: 1, inProgress: 0, settled: 0, nextAttemptAt: new Date('2026-11-23T15:10:00Z') });

    d.clock.advance(10 * 60_000 - 1_000);
    await d.tick(campaign.id);
    expect(await d.calls(campaign.id)).toHaveLength(1);

    d.clock.advance(1_000);
    await d.tick(campaign.id);
    expect(await statuses(campaign.id)).toEqual(['busy', 'pstn-queued']);
    await endLive(campaign.id, 'busy');
    await d.tick(campaign.id);
    expect(await d.stats(campaign.id)).toMatchObject({ queued: 1, settled: 0, nextAttemptAt: new Date('2026-11-23T16:10:00Z') });

    d.clock.advance(60 * 60_000);
    await d.tick(campaign.id);
    await endLive(campaign.id, 'busy');
    await d.tick(campaign.id);
    expect(await d.stats(campaign.id)).toMatchObject({ status: 'completed', settled: 1, failed: 1, pickedUp: 0, queued: 0, nextAttemptAt: null, callProgress: 100 });
    expect(await statuses(campaign.id)).toEqual(['busy', 'busy', 'busy']);
  });

  it.each([
    ['no-answer', {}],
    ['failed', { disconnectReason: 'dial_failed' }],
    ['completed', { disconnectReason: 'voicemail_reached' }],
  ] as const)('retry an attempt that ended %s %j', async (status, update) => {
    const campaign = await d.running({ numberOfCallAttempts: [3], retryDelay: [30], retryDelayUnit: ['seconds'] }, d.numbers(1));
    await d.tick(campaign.id);
    await endLive(campaign.id, status, update);
    await d.tick(campaign.id);
    expect(await d.stats(campaign.id)).toMatchObject({ queued: 1, settled: 0, nextAttemptAt: new Date('2026-11-23T15:00:30Z') });
  });

  it('give one attempt and no retry without tiers, the contact failed with its reason', async () => {
    const campaign = await d.running({}, d.numbers(1));
    await d.tick(campaign.id);
    await endLive(campaign.id, 'busy');
    await d.tick(campaign.id);
    expect(await d.stats(campaign.id)).toMatchObject({ settled: 1, failed: 1, queued: 0, status: 'completed' });
    expect(await d.calls(campaign.id)).toHaveLength(1);
  });

  it('wait for the next window when a retry falls outside it', async () => {
    d.clock.set('2026-11-23T21:59:00Z'); // 16:59 New York
    const campaign = await d.running({ numberOfCallAttempts: [2], retryDelay: [5], retryDelayUnit: ['minutes'] }, d.numbers(1));
    await d.tick(campaign.id);
    await endLive(campaign.id, 'failed');
    await d.tick(campaign.id);
    // Due 17:04, after the window closes: it reopens at 09:00 the next day.
    expect((await d.stats(campaign.id)).nextAttemptAt).toEqual(new Date('2026-11-24T14:00:00Z'));
    d.clock.set('2026-11-23T22:04:30Z');
    await d.tick(campaign.id);
    expect(await d.calls(campaign.id)).toHaveLength(1);
    d.clock.set('2026-11-24T14:00:05Z');
    await d.tick(campaign.id);
    expect(await statuses(campaign.id)).toEqual(['failed', 'pstn-queued']);
  });
});

describe('an attempt answered by a person', () => {
  it('settles its contact as picked up, mirrored on the contact, and completes the campaign', async () => {
    const campaign = await d.running({ numberOfCallAttempts: [3], retryDelay: [1], retryDelayUnit: ['minutes'] }, d.numbers(1));
    await d.tick(campaign.id);
    const [call] = await d.calls(campaign.id);
    await d.end(call.id, 'in-progress');
    expect(await d.stats(campaign.id)).toMatchObject({ inProgress: 1, callProgress: 0 });
    d.clock.advance(42_000);
    await d.end(call.id, 'completed');
    await d.tick(campaign.id);
    expect(await d.stats(campaign.id)).toMatchObject({ status: 'completed', settled: 1, pickedUp: 1, inProgress: 0, queued: 0, callProgress: 100 });
    const contact = await d.s.services.contacts.get(d.s.caller(d.companyId), call.contactId!);
    expect(contact).toMatchObject({ lastCallStatus: 'picked-up', lastCallDuration: 42 });
  });
});

describe('the concurrency cap', () => {
  it('keeps at most max_concurrent_calls live, and fills each slot an ended call frees', async () => {
    const campaign = await d.running({ maxConcurrentCalls: 2 }, d.numbers(5));
    await d.tick(campaign.id);
    await d.tick(campaign.id);
    expect(await d.stats(campaign.id)).toMatchObject({ contactsSelected: 5, inProgress: 2, queued: 3 });

    const [first] = await d.calls(campaign.id);
    await d.end(first.id, 'completed');
    await d.tick(campaign.id);
    expect(await d.stats(campaign.id)).toMatchObject({ inProgress: 2, queued: 2, pickedUp: 1 });
    expect(await d.calls(campaign.id)).toHaveLength(3);
  });
});

describe('pausing', () => {
  it('stops new calls while live ones end and are counted; resuming goes on where it stopped, calling no one twice', async () => {
    const campaign = await d.running({ maxConcurrentCalls: 2 }, d.numbers(4));
    await d.tick(campaign.id);
    await d.s.services.campaigns.update(d.s.caller(d.companyId), campaign.id, { status: 'paused' });
    await endLive(campaign.id, 'completed');
    await d.tick(campaign.id);
    expect(await d.stats(campaign.id)).toMatchObject({ status: 'paused', pickedUp: 2, inProgress: 0, queued: 2, nextAttemptAt: null });
    expect(await d.calls(campaign.id)).toHaveLength(2);

    await d.s.services.campaigns.update(d.s.caller(d.companyId), campaign.id, { status: 'active' });
    await d.tick(campaign.id);
    await endLive(campaign.id, 'completed');
    await d.tick(campaign.id);
    expect(await d.stats(campaign.id)).toMatchObject({ status: 'completed', pickedUp: 4, callProgress: 100 });
    const called = (await d.calls(campaign.id)).map((c) => c.contactId);
    expect(new Set(called).size).toBe(4);
    expect(called).toHaveLength(4);
  });
});

describe('skipped contacts', () => {
  it('skip non-local numbers and numbers on the do-not-call list, with the reason, and complete', async () => {
    const [local, listed] = d.numbers(2);
    await d.s.services.doNotCall.add(d.s.caller(d.companyId), { numbers: [listed] });
    const campaign = await d.running({}, [local, listed, '+442079460958']);
    await d.tick(campaign.id);
    expect(await d.stats(campaign.id)).toMatchObject({ contactsSelected: 3, inProgress: 1, skipped: 2, skippedReasons: { do_not_call: 1, non_local: 1 } });
    expect((await d.calls(campaign.id)).map((c) => c.callTo)).toEqual([local]);
    await endLive(campaign.id, 'completed');
    await d.tick(campaign.id);
    expect(await d.stats(campaign.id)).toMatchObject({ status: 'completed', settled: 3, pickedUp: 1, callProgress: 100 });
  });

  it('call non-local numbers when the campaign allows them', async () => {
    const campaign = await d.running({ allowNonLocalCalls: true }, ['+442079460959']);
    await d.tick(campaign.id);
    expect((await d.calls(campaign.id)).map((c) => c.callTo)).toEqual(['+442079460959']);
  });

  it('skip a contact made inactive after it was selected', async () => {
    d.clock.set('2026-11-23T13:00:00Z'); // 08:00 New York: selected, not dialed
    const [number] = d.numbers(1);
    const campaign = await d.running({}, [number]);
    await d.tick(campaign.id);
    const [contact] = (await d.s.services.contacts.page(d.s.caller(d.companyId), { search: number })).items;
    await d.s.services.contacts.update(d.s.caller(d.companyId), contact.id, { status: 'inactive' });
    d.clock.set('2026-11-23T14:00:01Z');
    await d.tick(campaign.id);
    expect(await d.stats(campaign.id)).toMatchObject({ skipped: 1, skippedReasons: { contact_inactive: 1 }, status: 'completed' });
    expect(await d.calls(campaign.id)).toEqual([]);
  });
});

describe('progress', () => {
  it('keeps the counts of selected and settled contacts as entries are added, skipped, settled, retried and expired, and stores call_progress from them', async () => {
    const [listed, ...others] = d.numbers(5);
    await d.s.services.doNotCall.add(d.s.caller(d.companyId), { numbers: [listed] });
    const campaign = await d.running({ maxConcurrentCalls: 5, numberOfCallAttempts: [2], retryDelay: [1], retryDelayUnit: ['hours'], endedAt: '2026-11-23' }, [listed, ...others]);
    await d.tick(campaign.id);
    // Five selected, and as many slots: the listed one skipped (settled), the four others called.
    expect(await d.kept(campaign.id)).toEqual({ selected: 5, settled: 1, callProgress: 20 });
    const [first, second] = await d.calls(campaign.id);
    await d.end(first.id, 'completed');
    await d.end(second.id, 'busy');
    await d.tick(campaign.id);
    // The first picked up (settled), the second queued for its retry an hour later.
    expect(await d.kept(campaign.id)).toEqual({ selected: 5, settled: 2, callProgress: 40 });
    expect(await d.stats(campaign.id)).toMatchObject({ contactsSelected: 5, settled: 2, queued: 1, inProgress: 2 });
    // After the last date's window: the live calls end unanswered, and every entry waiting for an attempt expires.
    d.clock.set('2026-11-23T23:00:00Z');
    await endLive(campaign.id, 'no-answer');
    await d.tick(campaign.id);
    expect(await d.stats(campaign.id)).toMatchObject({ status: 'completed', contactsSelected: 5, settled: 5, queued: 0 });
    expect(await d.kept(campaign.id)).toEqual({ selected: 5, settled: 5, callProgress: 100 });
  });

  it('counts the entries of a campaign from before the kept counts on its next tick, then keeps them', async () => {
    const campaign = await d.running({ maxConcurrentCalls: 1 }, d.numbers(3));
    await d.tick(campaign.id);
    await d.s.orm.em.fork().execute('UPDATE campaigns SET entries_selected = NULL, entries_settled = NULL WHERE id = ? AND company_id = ?', [campaign.id, d.companyId]);
    await endLive(campaign.id, 'completed');
    await d.tick(campaign.id);
    expect(await d.kept(campaign.id)).toEqual({ selected: 3, settled: 1, callProgress: 33 });
    await endLive(campaign.id, 'completed');
    await d.tick(campaign.id);
    expect(await d.kept(campaign.id)).toEqual({ selected: 3, settled: 2, callProgress: 66 });
  });
});

describe('contact selection', () => {
  it('takes the campaign’s own contacts plus those matching every non-empty filter (AND), active ones only', async () => {
    const caller = () => d.s.caller(d.companyId);
    const campaign = await d.running({ status: 'draft', contactsListTags: [], contactsListSource: ['src-and'], contactsListCategories: [['cat-and']] }, []);
    const [own, both, otherCategory, inactive] = d.numbers(4);
    await d.s.services.contacts.create(caller(), [
      { phoneNumber: own, campaignId: campaign.id },
      { phoneNumber: both, sourceName: 'src-and', categoryName: 'cat-and' },
      { phoneNumber: otherCategory, sourceName: 'src-and', categoryName: 'other' },
      { phoneNumber: inactive, sourceName: 'src-and', categoryName: 'cat-and', status: 'inactive' },
    ]);
    await d.s.services.campaigns.update(caller(), campaign.id, { status: 'active' });
    await d.tick(campaign.id);
    expect((await d.stats(campaign.id)).contactsSelected).toBe(2);
    expect((await d.calls(campaign.id)).map((c) => c.callTo).sort()).toEqual([own, both].sort());
  });
});
