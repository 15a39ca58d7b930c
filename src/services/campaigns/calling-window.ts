import { DateTime, IANAZone } from 'luxon';
import type { Campaign } from '../../entities';

/** When a campaign may call, all read in its IANA time zone (semantics: Campaigns). */
export interface CallingWindow {
  timeZone: string;
  /** HH:MM:SS. A window whose end is before its start wraps past midnight; equal means all day. */
  from: string;
  to: string;
  /** 1 = Monday ... 7 = Sunday. */
  daysOfWeek: readonly number[];
  /** First and last calling dates, YYYY-MM-DD, inclusive; null for no bound. */
  startDate: string | null;
  endDate: string | null;
}

/** A campaign's calling window: the one place its stored fields are read as one. */
export const windowOf = (c: Pick<Campaign, 'timeZone' | 'callTimeOfDayFrom' | 'callTimeOfDayTo' | 'daysOfWeek' | 'startedAt' | 'endedAt'>): CallingWindow => ({
  timeZone: c.timeZone,
  from: c.callTimeOfDayFrom,
  to: c.callTimeOfDayTo,
  daysOfWeek: c.daysOfWeek,
  startDate: c.startedAt,
  endDate: c.endedAt,
});

export const isValidTimeZone = (zone: string): boolean => IANAZone.isValidZone(zone);

const seconds = (hms: string): number => {
  const [h = 0, m = 0, s = 0] = hms.split(':').map(Number);
  return h * 3600 + m * 60 + s;
};

/** The local day a moment's window belongs to: the after-midnight part of a wrapped window is the previous day's. */
function windowDay(local: DateTime, w: CallingWindow): DateTime | null {
  const from = seconds(w.from);
  const to = seconds(w.to);
  const t = local.hour * 3600 + local.minute * 60 + local.second;
  if (from === to) return local.startOf('day');
  if (from < to) return t >= from && t < to ? local.startOf('day') : null;
  if (t >= from) return local.startOf('day');
  if (t < to) return local.startOf('day').minus({ days: 1 });
  return null;
}

const dayAllowed = (day: DateTime, w: CallingWindow): boolean => {
  const date = day.toISODate()!;
  return w.daysOfWeek.includes(day.weekday) && (w.startDate === null || date >= w.startDate) && (w.endDate === null || date <= w.endDate);
};

/**
 * Whether `at` falls inside the window: its time of day within [from, to), on an allowed
 * weekday, within the date range. A wrapped window (22:00 to 02:00) belongs to the day it
 * opens, so Friday's window runs into Saturday morning. DST is luxon's: local times are
 * read from the zone's rules for that instant.
 */
export function isOpen(at: Date, w: CallingWindow): boolean {
  const day = windowDay(DateTime.fromJSDate(at, { zone: w.timeZone }), w);
  return day !== null && dayAllowed(day, w);
}

const timeParts = (hms: string) => {
  const [hour = 0, minute = 0, second = 0] = hms.split(':').map(Number);
  return { hour, minute, second, millisecond: 0 };
};

/** True once the window of the last calling date has closed: no window opens again. */
export function isOver(at: Date, w: CallingWindow): boolean {
  if (w.endDate === null) return false;
  const last = DateTime.fromISO(w.endDate, { zone: w.timeZone });
  const from = seconds(w.from);
  const to = seconds(w.to);
  const closing = from < to ? last.set(timeParts(w.to)) : from === to ? last.plus({ days: 1 }) : last.plus({ days: 1 }).set(timeParts(w.to));
  return at.getTime() >= closing.toMillis();
}

/**
 * The first moment at or after `after` inside the window, or null when none comes within
 * the next 370 days (no allowed weekday, or the date range is over). A window opening at a
 * local time that a DST change skips opens at the first valid instant after it.
 */
export function nextOpening(after: Date, w: CallingWindow): Date | null {
  if (isOpen(after, w)) return after;
  const start = DateTime.fromJSDate(after, { zone: w.timeZone }).startOf('day').minus({ days: 1 });
  for (let i = 0; i < 370; i++) {
    const day = start.plus({ days: i });
    if (!dayAllowed(day, w)) continue;
    const opening = day.set(timeParts(w.from));
    if (opening.toMillis() >= after.getTime()) return opening.toJSDate();
  }
  return null;
}
