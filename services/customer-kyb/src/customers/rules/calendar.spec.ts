import { calendarDateOf, compareDates, formatDate, hasReachedAge, parseCalendarDate } from './calendar.js';

const day = (text: string) => {
  const date = parseCalendarDate(text);
  if (!date) throw new Error(`test date ${text} is invalid`);
  return date;
};

describe('calendar dates', () => {
  it('parses YYYY-MM-DD real calendar dates only', () => {
    expect(parseCalendarDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseCalendarDate('2000-02-29')).toEqual({ year: 2000, month: 2, day: 29 });
    for (const bad of [
      '2023-02-29',
      '1900-02-29',
      '2024-04-31',
      '2024-13-01',
      '2024-00-10',
      '2024-01-00',
      '2024-1-1',
      '24-01-01',
      '2024-01-01T00:00:00Z',
      '',
    ]) {
      expect(parseCalendarDate(bad)).toBeUndefined();
    }
  });

  it('reads the injected clock as a UTC calendar day, from a Date, a date or a timestamp', () => {
    expect(calendarDateOf(new Date('2026-06-15T23:59:59.999Z'))).toEqual({ year: 2026, month: 6, day: 15 });
    expect(calendarDateOf(new Date('2026-06-15T23:30:00-01:00'))).toEqual({ year: 2026, month: 6, day: 16 });
    expect(calendarDateOf('2026-06-15')).toEqual({ year: 2026, month: 6, day: 15 });
    expect(calendarDateOf('2026-06-15T10:00:00+02:00')).toEqual({ year: 2026, month: 6, day: 15 });
  });

  it('refuses a clock that is not a date (a programming error)', () => {
    expect(() => calendarDateOf('yesterday')).toThrow('today is not an ISO date: yesterday');
    expect(() => calendarDateOf(new Date(Number.NaN))).toThrow('today is an invalid Date');
  });

  it('compares and formats dates', () => {
    expect(compareDates(day('2026-06-15'), day('2026-06-16'))).toBeLessThan(0);
    expect(compareDates(day('2026-06-15'), day('2026-06-15'))).toBe(0);
    expect(compareDates(day('2027-01-01'), day('2026-12-31'))).toBeGreaterThan(0);
    expect(formatDate({ year: 987, month: 3, day: 4 })).toBe('0987-03-04');
  });

  it('seed 2.2: age by exact birthday, 18 on the birthday itself and not the day before', () => {
    expect(hasReachedAge(day('2008-06-15'), day('2026-06-15'), 18)).toBe(true);
    expect(hasReachedAge(day('2008-06-16'), day('2026-06-15'), 18)).toBe(false);
    expect(hasReachedAge(day('2008-06-14'), day('2026-06-15'), 18)).toBe(true);
  });

  it('seed 2.2: someone born on 29 February turns 18 on 1 March (an 18th birthday never falls in a leap year)', () => {
    expect(hasReachedAge(day('2008-02-29'), day('2026-02-28'), 18)).toBe(false);
    expect(hasReachedAge(day('2008-02-29'), day('2026-03-01'), 18)).toBe(true);
    expect(hasReachedAge(day('2012-02-29'), day('2030-02-28'), 18)).toBe(false);
    expect(hasReachedAge(day('2012-02-29'), day('2030-03-01'), 18)).toBe(true);
    expect(hasReachedAge(day('2004-02-29'), day('2022-02-28'), 18)).toBe(false);
    expect(hasReachedAge(day('2004-02-29'), day('2022-03-01'), 18)).toBe(true);
    // Born on 28 February: the birthday is 28 February, leap year or not.
    expect(hasReachedAge(day('2006-02-28'), day('2024-02-28'), 18)).toBe(true);
    expect(hasReachedAge(day('2006-02-28'), day('2024-02-27'), 18)).toBe(false);
    // The same arithmetic for other ages: 29 February 2000 is 4 on 29 February 2004.
    expect(hasReachedAge(day('2000-02-29'), day('2004-02-29'), 4)).toBe(true);
    expect(hasReachedAge(day('2000-02-29'), day('2004-02-28'), 4)).toBe(false);
  });
});
