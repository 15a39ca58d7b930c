/** Display helpers shared by the pages. */

/** `IN_PROGRESS` -> `in progress` (the API's enum values, as people read them). */
export const label = (value: string | null | undefined): string => (value ? value.toLowerCase().replace(/_/g, ' ') : '—');

export const dateTime = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');

export const duration = (seconds: number): string => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

export const money = (amount: number, unit: string): string => `${amount.toFixed(4)} ${unit}`;

export const TERMINAL_CALL_STATUSES = ['COMPLETED', 'BUSY', 'NO_ANSWER', 'FAILED', 'CANCELED'];

/** A count as people read it: `10,000`; a lower bound (a count that stopped there) as `10,000+`. */
export const count = (n: number, exact = true): string => `${n.toLocaleString('en-US')}${exact ? '' : '+'}`;

export const percent = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 100) : 0);
