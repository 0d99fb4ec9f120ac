import { parseDateTime } from './times.js';

describe('parseDateTime: RFC 3339 date-times, the OpenAPI date-time format', () => {
  it.each([
    ['2026-11-21T09:00:00Z', '2026-11-21T09:00:00.000Z'],
    ['2026-11-21T09:00:00.123+01:00', '2026-11-21T08:00:00.123Z'],
    ['2028-02-29T00:00:00z', '2028-02-29T00:00:00.000Z'],
    // Schemathesis's: a year below 100 and an offset of minutes, both RFC 3339 (Date.UTC read 40 as 1940).
    ['0040-05-10T04:37:41-06:35', '0040-05-10T11:12:41.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
  ])('reads %s as %s', (value, instant) => {
    expect(parseDateTime(value)?.toISOString()).toBe(instant);
  });

  it.each([
    '2026-11-21T09:00:00',
    '2026-02-30T00:00:00Z',
    '2027-02-29T00:00:00Z',
    '2026-11-21T24:00:00Z',
    '2026-11-21T09:00:00+24:00',
    '2026-11-21 09:00:00Z',
    '21/11/2026',
    '',
  ])('refuses %j', (value) => {
    expect(parseDateTime(value)).toBeUndefined();
  });
});
