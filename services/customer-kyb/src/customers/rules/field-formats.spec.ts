import { calendarDateOf } from './calendar.js';
import {
  boolean,
  characterCount,
  dateOfBirth,
  email,
  futureDate,
  httpUri,
  integer,
  oneOf,
  pastDate,
  percentage,
  text,
  toMillionths,
} from './field-formats.js';

const today = calendarDateOf('2026-06-15');
const ok = <T>(value: T) => ({ ok: true, value });
const bad = (problem: string) => ({ ok: false, problem });

describe('field formats', () => {
  it('text: at most 255 characters (255 passes, 256 fails), counted in characters not UTF-16 units', () => {
    const name = text(1, 255);
    expect(name('a'.repeat(255), today)).toEqual(ok('a'.repeat(255)));
    expect(name('a'.repeat(256), today)).toEqual(bad('must be at most 255 characters (got 256)'));
    expect(characterCount('😀'.repeat(255))).toBe(255);
    expect(name('😀'.repeat(255), today)).toEqual(ok('😀'.repeat(255)));
  });

  it('text: a range names both bounds (street 9 to 255)', () => {
    const street = text(9, 255);
    expect(street('a'.repeat(8), today)).toEqual(bad('must be 9 to 255 characters (got 8)'));
    expect(street('a'.repeat(9), today)).toEqual(ok('a'.repeat(9)));
  });

  it('text: blank strings and non-strings are refused; values are kept as sent', () => {
    expect(text()('   ', today)).toEqual(bad('must not be blank'));
    expect(text()('', today)).toEqual(bad('must not be blank'));
    expect(text()(42, today)).toEqual(bad('must be a string, got a number'));
    expect(text()({}, today)).toEqual(bad('must be a string, got an object'));
    expect(text()(' Acme ', today)).toEqual(ok(' Acme '));
  });

  it('text: a control character is refused (a NUL cannot be stored); tab and line breaks are text', () => {
    const control = bad(
      'must not contain control characters (U+0000 to U+001F but tab, line feed and carriage return)',
    );
    expect(text()('Acme\u0000', today)).toEqual(control);
    expect(text()('Ac\u001bme', today)).toEqual(control);
    expect(text()('12 Main St\r\nSuite 4\t', today)).toEqual(ok('12 Main St\r\nSuite 4\t'));
  });

  it('enums: exactly one of the listed values, case-sensitive', () => {
    const scope = oneOf(['FULL', 'MINIMAL'] as const);
    expect(scope('FULL', today)).toEqual(ok('FULL'));
    expect(scope('full', today)).toEqual(bad('must be one of FULL, MINIMAL; got "full"'));
    expect(scope(1, today)).toEqual(bad('must be one of FULL, MINIMAL; got a number'));
  });

  it('booleans: JSON true or false only', () => {
    expect(boolean(false, today)).toEqual(ok(false));
    expect(boolean('true', today)).toEqual(bad('must be true or false, got a string'));
    expect(boolean(1, today)).toEqual(bad('must be true or false, got a number'));
  });

  it('integers: whole JSON numbers from the minimum up', () => {
    const count = integer(0);
    expect(count(0, today)).toEqual(ok(0));
    expect(count(12.0, today)).toEqual(ok(12));
    expect(count(-1, today)).toEqual(bad('must be at least 0 (got -1)'));
    expect(count(1.5, today)).toEqual(bad('must be a whole number (got 1.5)'));
    expect(count('12', today)).toEqual(bad('must be a whole number of at least 0, got a string'));
    expect(count(2 ** 53, today)).toMatchObject({ ok: false });
  });

  it('percentages: 0 to 100 inclusive, at most six decimal places (issue 18: seed 2.2 sets no precision)', () => {
    expect(percentage(0, today)).toEqual(ok(0));
    expect(percentage(100, today)).toEqual(ok(100));
    expect(percentage(33.33, today)).toEqual(ok(33.33));
    expect(percentage(33.333, today)).toEqual(ok(33.333));
    expect(percentage(33.333333, today)).toEqual(ok(33.333333));
    expect(percentage(100.01, today)).toEqual(bad('must be from 0 to 100 (got 100.01)'));
    expect(percentage(-0.01, today)).toEqual(bad('must be from 0 to 100 (got -0.01)'));
    expect(percentage(33.3333333, today)).toEqual(bad('must have at most 6 decimal places (got 33.3333333)'));
    expect(percentage(1e-7, today)).toEqual(bad('must have at most 6 decimal places (got 1e-7)'));
    expect(percentage('50', today)).toEqual(bad('must be a number from 0 to 100, got a string'));
  });

  it('millionths are exact where binary floating point is not', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(toMillionths(0.1)! + toMillionths(0.2)!).toBe(toMillionths(0.3));
    expect(toMillionths(33.333)).toBe(33_333_000);
    expect(toMillionths(0.000001)).toBe(1);
    expect(toMillionths(100)).toBe(100_000_000);
    expect(toMillionths(-0)).toBe(0);
    expect(toMillionths(12.3456789)).toBeUndefined();
    expect(toMillionths(-1)).toBeUndefined();
    expect(toMillionths(Number.NaN)).toBeUndefined();
    expect(toMillionths(Number.POSITIVE_INFINITY)).toBeUndefined();
  });

  it('emails: a local part, @, and a domain of at least two labels', () => {
    for (const address of ['ada@example.com', 'Ada.Lovelace+kyb@mail.example.co.uk', "o'neil@example.ng"]) {
      expect(email(address, today)).toEqual(ok(address));
    }
    for (const address of [
      'ada',
      'ada@',
      '@example.com',
      'ada@example',
      'ada@@example.com',
      'ada @example.com',
      'ada@-example.com',
    ]) {
      expect(email(address, today)).toEqual(
        bad(`must be an email address like name@example.com; got ${JSON.stringify(address)}`),
      );
    }
    expect(email(`${'a'.repeat(243)}@example.com`, today)).toEqual(bad('must be at most 254 characters (got 255)'));
    expect(email(null, today)).toEqual(bad('must be an email address, got null'));
  });

  it('URIs: absolute http or https with a host', () => {
    for (const uri of ['https://acme.example', 'http://acme.example/about?x=1', 'https://localhost:8443']) {
      expect(httpUri(uri, today)).toEqual(ok(uri));
    }
    for (const uri of [
      'acme.example',
      'ftp://acme.example',
      'mailto:ada@example.com',
      'https://',
      'https://acme .example',
      'javascript:alert(1)',
    ]) {
      expect(httpUri(uri, today)).toEqual(
        bad(`must be an http or https URI like https://example.com; got ${JSON.stringify(uri)}`),
      );
    }
    const long = (length: number) => `https://a.example/${'a'.repeat(length - 'https://a.example/'.length)}`;
    expect(httpUri(long(2048), today)).toEqual(ok(long(2048)));
    expect(httpUri(long(2049), today)).toEqual(bad('must be at most 2048 characters (got 2049)'));
  });

  it('dates: a real calendar date as YYYY-MM-DD', () => {
    expect(pastDate('2023-02-29', today)).toEqual(bad('must be a real calendar date as YYYY-MM-DD; got "2023-02-29"'));
    expect(pastDate('15/06/2020', today)).toEqual(bad('must be a real calendar date as YYYY-MM-DD; got "15/06/2020"'));
    expect(pastDate(20200615, today)).toEqual(bad('must be a date as YYYY-MM-DD, got a number'));
  });

  it('seed 2.1: incorporation_date strictly in the past: yesterday passes, today fails', () => {
    expect(pastDate('2026-06-14', today)).toEqual(ok('2026-06-14'));
    expect(pastDate('2026-06-15', today)).toEqual(bad('must be in the past (before 2026-06-15)'));
  });

  it('seed 2.2: id_expiry_date strictly after today: tomorrow passes, today fails', () => {
    expect(futureDate('2026-06-16', today)).toEqual(ok('2026-06-16'));
    expect(futureDate('2026-06-15', today)).toEqual(
      bad('must be after today (2026-06-15): the ID document has expired'),
    );
  });

  it('seed 2.2, seed 8: date_of_birth at least 18 years ago: 18 today passes, 18 tomorrow fails', () => {
    expect(dateOfBirth('2008-06-15', today)).toEqual(ok('2008-06-15'));
    expect(dateOfBirth('2008-06-16', today)).toEqual(bad('must be at least 18 years before today (2026-06-15)'));
    expect(dateOfBirth('2008-02-29', calendarDateOf('2026-02-28'))).toEqual(
      bad('must be at least 18 years before today (2026-02-28)'),
    );
    expect(dateOfBirth('2008-02-29', calendarDateOf('2026-03-01'))).toEqual(ok('2008-02-29'));
  });
});
