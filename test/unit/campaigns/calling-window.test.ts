import { type CallingWindow, isOpen, isOver, nextOpening } from '../../../src/services/campaigns/calling-window';

const window = (over: Partial<CallingWindow> = {}): CallingWindow => ({
  timeZone: 'America/New_York',
  from: '09:00:00',
  to: '17:00:00',
  daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
  startDate: null,
  endDate: null,
  ...over,
});

const at = (iso: string) => new Date(iso);

describe('the calling window', () => {
  it.each([
    ['one second before it opens', '2026-11-23T13:59:59Z', false],
    ['the second it opens', '2026-11-23T14:00:00Z', true],
    ['one second after it opens', '2026-11-23T14:00:01Z', true],
    ['one second before it closes', '2026-11-23T21:59:59Z', true],
    ['the second it closes', '2026-11-23T22:00:00Z', false],
    ['one second after it closes', '2026-11-23T22:00:01Z', false],
  ])('09:00-17:00 New York (EST, UTC-5): %s', (_, instant, open) => {
    expect(isOpen(at(instant), window())).toBe(open);
  });

  it('reads days of week in the zone: Monday 09:30 New York is Monday, though already Monday in UTC too; Saturday is not a weekday', () => {
    const weekdays = window({ daysOfWeek: [1, 2, 3, 4, 5] });
    expect(isOpen(at('2026-11-23T14:30:00Z'), weekdays)).toBe(true); // Monday
    expect(isOpen(at('2026-11-28T14:30:00Z'), weekdays)).toBe(false); // Saturday
    // Friday 23:30 in Los Angeles is already Saturday in UTC: Friday counts.
    expect(isOpen(at('2026-11-28T07:30:00Z'), window({ timeZone: 'America/Los_Angeles', from: '20:00:00', to: '23:59:59', daysOfWeek: [5] }))).toBe(true);
  });

  it('keeps to the date range, both days included, in the zone', () => {
    const ranged = window({ startDate: '2026-12-01', endDate: '2026-12-03' });
    expect(isOpen(at('2026-11-30T15:00:00Z'), ranged)).toBe(false);
    expect(isOpen(at('2026-12-01T15:00:00Z'), ranged)).toBe(true);
    expect(isOpen(at('2026-12-03T21:59:59Z'), ranged)).toBe(true);
    expect(isOpen(at('2026-12-04T15:00:00Z'), ranged)).toBe(false);
    expect(isOver(at('2026-12-03T21:59:59Z'), ranged)).toBe(false);
    expect(isOver(at('2026-12-03T22:00:00Z'), ranged)).toBe(true);
    expect(isOver(at('2030-01-01T00:00:00Z'), window())).toBe(false);
  });

  describe('on DST change days', () => {
    it('New York, spring forward (2026-03-08): 09:00 is 13:00 UTC, no longer 14:00', () => {
      expect(isOpen(at('2026-03-08T12:59:59Z'), window())).toBe(false);
      expect(isOpen(at('2026-03-08T13:00:01Z'), window())).toBe(true);
      expect(isOpen(at('2026-03-08T20:59:59Z'), window())).toBe(true);
      expect(isOpen(at('2026-03-08T21:00:01Z'), window())).toBe(false);
    });

    it('New York, fall back (2026-11-01): 09:00 is 14:00 UTC again', () => {
      expect(isOpen(at('2026-11-01T13:59:59Z'), window())).toBe(false);
      expect(isOpen(at('2026-11-01T14:00:01Z'), window())).toBe(true);
    });

    it('Berlin, fall back (2026-10-25): 09:00 is 08:00 UTC, no longer 07:00', () => {
      const berlin = window({ timeZone: 'Europe/Berlin' });
      expect(isOpen(at('2026-10-25T07:59:59Z'), berlin)).toBe(false);
      expect(isOpen(at('2026-10-25T08:00:01Z'), berlin)).toBe(true);
      expect(isOpen(at('2026-10-25T15:59:59Z'), berlin)).toBe(true);
      expect(isOpen(at('2026-10-25T16:00:01Z'), berlin)).toBe(false);
    });

    it('Berlin, spring forward (2026-03-29): a window opening at a skipped local time opens at the first instant after it', () => {
      const night = window({ timeZone: 'Europe/Berlin', from: '02:30:00', to: '04:00:00' });
      expect(nextOpening(at('2026-03-29T00:00:00Z'), night)).toEqual(at('2026-03-29T01:30:00Z'));
    });
  });

  describe('past midnight (22:00 to 02:00, Fridays)', () => {
    const late = window({ from: '22:00:00', to: '02:00:00', daysOfWeek: [5] });
    it.each([
      ['Friday 21:59:59', '2026-11-28T02:59:59Z', false],
      ['Friday 22:00:01', '2026-11-28T03:00:01Z', true],
      ['Saturday 01:59:59 (Friday night)', '2026-11-28T06:59:59Z', true],
      ['Saturday 02:00:01', '2026-11-28T07:00:01Z', false],
      ['Friday 01:00 (Thursday night)', '2026-11-27T06:00:00Z', false],
      ['Thursday 23:00', '2026-11-27T04:00:00Z', false],
    ])('%s', (_, instant, open) => {
      expect(isOpen(at(instant), late)).toBe(open);
    });
  });

  it('from equal to to is open all day', () => {
    expect(isOpen(at('2026-11-23T05:00:00Z'), window({ from: '00:00:00', to: '00:00:00' }))).toBe(true);
  });

  it('finds the next opening: later today, the next allowed day, never', () => {
    expect(nextOpening(at('2026-11-23T12:00:00Z'), window())).toEqual(at('2026-11-23T14:00:00Z'));
    expect(nextOpening(at('2026-11-23T15:00:00Z'), window())).toEqual(at('2026-11-23T15:00:00Z'));
    expect(nextOpening(at('2026-11-27T23:00:00Z'), window({ daysOfWeek: [1] }))).toEqual(at('2026-11-30T14:00:00Z'));
    expect(nextOpening(at('2026-12-10T12:00:00Z'), window({ endDate: '2026-12-01' }))).toBeNull();
    expect(nextOpening(at('2026-11-23T12:00:00Z'), window({ daysOfWeek: [] }))).toBeNull();
  });
});
