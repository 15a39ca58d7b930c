import { type Dialer, startDialer } from '../support/dialer';

// The calling window as the dialer applies it: one tick, driven here, at instants either
// side of each edge (the window's own arithmetic: test/unit/campaigns/calling-window.test.ts).

let d: Dialer;

beforeAll(async () => {
  d = await startDialer();
});
afterAll(() => d.s.close());

describe('the calling window', () => {
  it.each([
    ['one second before it opens', '2026-11-23T13:59:59Z', {}, false],
    ['one second after it opens', '2026-11-23T14:00:01Z', {}, true],
    ['one second before it closes', '2026-11-23T21:59:59Z', {}, true],
    ['one second after it closes', '2026-11-23T22:00:01Z', {}, false],
    ['on a day of week it leaves out (Saturday)', '2026-11-28T15:00:00Z', { daysOfWeek: [1, 2, 3, 4, 5] }, false],
    ['before its first date', '2026-11-23T15:00:00Z', { startedAt: '2026-11-24' }, false],
    ['on its last date', '2026-11-23T15:00:00Z', { endedAt: '2026-11-23' }, true],
    ['New York spring-forward day, 09:00:01 EDT', '2026-03-08T13:00:01Z', {}, true],
    ['New York spring-forward day, 08:59:59 EDT', '2026-03-08T12:59:59Z', {}, false],
    ['Berlin fall-back day, 09:00:01 CET', '2026-10-25T08:00:01Z', { timeZone: 'Europe/Berlin' }, true],
    ['Berlin fall-back day, 08:59:59 CET', '2026-10-25T07:59:59Z', { timeZone: 'Europe/Berlin' }, false],
    ['past midnight, Saturday 01:00 in a Friday 22:00-02:00 window', '2026-11-28T06:00:00Z', { callTimeOfDayFrom: '22:00:00', callTimeOfDayTo: '02:00:00', daysOfWeek: [5] }, true],
    ['past midnight, Saturday 02:00:01 in a Friday 22:00-02:00 window', '2026-11-28T07:00:01Z', { callTimeOfDayFrom: '22:00:00', callTimeOfDayTo: '02:00:00', daysOfWeek: [5] }, false],
  ])('%s: dials %s', async (_, now, fields, dials) => {
    d.clock.set(now);
    const campaign = await d.running(fields, d.numbers(2));
    // Selection and dialing happen in one tick: once the contacts are selected, the calls are placed or not.
    await d.tick(campaign.id);
    const stats = await d.stats(campaign.id);
    expect(stats.contactsSelected).toBe(2);
    expect(stats.inProgress + stats.settled).toBe(dials ? 2 : 0);
    expect(await d.calls(campaign.id)).toHaveLength(dials ? 2 : 0);
    if (!dials) expect(stats.nextAttemptAt).not.toBeNull();
  });
});
