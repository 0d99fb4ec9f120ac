import fc from 'fast-check';
import { calendarDateOf, formatDate } from './calendar.js';
import {
  PERCENTAGE_SCALE,
  characterCount,
  dateOfBirth,
  email,
  futureDate,
  integer,
  pastDate,
  percentage,
  text,
  toMillionths,
} from './field-formats.js';

/** The field formats of seed 2.1 and 2.2 tried on generated values, each against a restatement of its rule. */

const TODAY = '2026-06-15';
const today = calendarDateOf(TODAY);
const RUNS = { numRuns: 1000 };

/** Any text: every code point, astral and control ones included, and lone surrogates. */
const anyText = fc.string({ unit: 'binary', maxLength: 300 });
/** A real calendar day from year 1000 to 9999, as YYYY-MM-DD. */
const anyDay = fc
  .date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

describe('field formats, by property (fast-check)', () => {
  it('text(min, max): kept exactly as sent iff not blank, free of control characters but tab and line breaks, and min to max characters long', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 280 }), (value, min, extra) => {
        const max = min + extra;
        const length = [...value].length;
        // eslint-disable-next-line no-control-regex -- the rule restated: C0 but tab, line feed, carriage return
        const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(value);
        const expected = value.trim() !== '' && !control && length >= min && length <= max;
        const result = text(min, max)(value, today);
        expect(result.ok).toBe(expected);
        if (result.ok) expect(result.value).toBe(value);
        expect(characterCount(value)).toBe(length);
      }),
      RUNS,
    );
  });

  it('integer(min): a whole JSON number from min to 2^53 - 1, nothing else', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.double(), fc.integer(), fc.maxSafeInteger(), fc.string()),
        fc.integer({ min: 0, max: 10 }),
        (value, min) => {
          const expected = typeof value === 'number' && Number.isSafeInteger(value) && value >= min;
          expect(integer(min)(value, today).ok).toBe(expected);
        },
      ),
      RUNS,
    );
  });

  it('percentage: every value of at most six decimals from 0 to 100 reads back as its exact millionths; any other number is refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 * PERCENTAGE_SCALE }), (millionths) => {
        const numeral = `${Math.trunc(millionths / PERCENTAGE_SCALE)}.${String(millionths % PERCENTAGE_SCALE).padStart(6, '0')}`;
        const value = Number(numeral);
        expect(toMillionths(value)).toBe(millionths);
        expect(percentage(value, today)).toEqual({ ok: true, value });
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.double({ noNaN: false }), (value) => {
        const millionths = Math.round(value * PERCENTAGE_SCALE);
        const sixPlaces = Number.isFinite(value) && Number((millionths / PERCENTAGE_SCALE).toFixed(6)) === value;
        const expected = value >= 0 && value <= 100 && sixPlaces;
        expect(percentage(value, today).ok).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it('email: an address the HTML Standard accepts, at most 254 characters, is taken as sent; anything with a space, a control character or no @ is refused', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (address) => {
        const result = email(address, today);
        expect(result.ok).toBe(address.length <= 254);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(anyText, (value) => {
        // eslint-disable-next-line no-control-regex -- the point: control characters are never part of an address
        if (!/^[^\s\u0000-\u001f@]+@[^\s\u0000-\u001f@]+$/.test(value)) expect(email(value, today).ok).toBe(false);
      }),
      RUNS,
    );
  });

  it('dates: past and future are strict against today; a date of birth is taken iff the 18th birthday is today or before', () => {
    fc.assert(
      fc.property(anyDay, (day) => {
        expect(pastDate(day, today).ok).toBe(day < TODAY);
        expect(futureDate(day, today).ok).toBe(day > TODAY);
        // The 18th birthday as a day of the calendar: 29 February falls on 1 March in a common year.
        const [year = 0, month = 0, date = 0] = day.split('-').map(Number);
        const birthday = new Date(Date.UTC(year + 18, month - 1, date)).toISOString().slice(0, 10);
        const eighteenthBirthday = year + 18 > 9999 ? '99999' : birthday;
        expect(dateOfBirth(day, today).ok).toBe(eighteenthBirthday <= TODAY);
      }),
      { numRuns: 5000 },
    );
  });

  it('dates: any text that is not a real YYYY-MM-DD day is refused', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/)), (value) => {
        const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : undefined;
        const real = day !== undefined && !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
        if (!real) expect(pastDate(value, today).ok || futureDate(value, today).ok).toBe(false);
        else expect(formatDate(calendarDateOf(value))).toBe(value);
      }),
      { numRuns: 5000 },
    );
  });
});
