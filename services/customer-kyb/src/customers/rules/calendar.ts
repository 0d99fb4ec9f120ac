/**
 * Calendar dates as the API sends them (`YYYY-MM-DD`, RFC 3339 full-date). Rules never read the
 * clock: "today" is always passed in, as a Date (its UTC calendar day) or as an ISO date string.
 */
export interface CalendarDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

export type Today = Date | string;

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** `2024-02-29` → a date; `2023-02-29`, `2024-13-01`, `2024-1-1` or a datetime → undefined. */
export function parseCalendarDate(text: string): CalendarDate | undefined {
  const match = FULL_DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

/**
 * Today's calendar day in UTC. A string may be a full date or an ISO timestamp (its UTC day).
 * Throws on anything else: a bad clock is a programming error, not a platform's mistake.
 */
export function calendarDateOf(today: Today): CalendarDate {
  if (typeof today === 'string') {
    const date = parseCalendarDate(today);
    if (date) return date;
    const instant = new Date(today);
    if (Number.isNaN(instant.getTime())) throw new RangeError(`today is not an ISO date: ${today}`);
    return calendarDateOf(instant);
  }
  if (Number.isNaN(today.getTime())) throw new RangeError('today is an invalid Date');
  return { year: today.getUTCFullYear(), month: today.getUTCMonth() + 1, day: today.getUTCDate() };
}

/** Negative when a is before b, 0 on the same day, positive after. */
export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

export function formatDate(date: CalendarDate): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

/**
 * Whether someone born on `birth` has had their `years`th birthday by `today`. Exact birthday
 * arithmetic, no day counts: the birthday is the same month and day `years` later. Someone born on
 * 29 February reaches it on 1 March in a common year (never a day early: the later of the two
 * customary readings, as a KYB check should be).
 */
export function hasReachedAge(birth: CalendarDate, today: CalendarDate, years: number): boolean {
  return compareDates({ year: birth.year + years, month: birth.month, day: birth.day }, today) <= 0;
}
