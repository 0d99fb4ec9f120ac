import { fixedClock, offsetClock, systemClock } from './clock.js';

describe('clocks', () => {
  it('the system clock reads the time of the machine', () => {
    const before = Date.now();
    const read = systemClock().getTime();
    expect(read).toBeGreaterThanOrEqual(before);
    expect(read).toBeLessThanOrEqual(Date.now());
  });

  it('a fixed clock always answers the date it was given', () => {
    const clock = fixedClock('2026-11-21T10:00:00.000Z');
    expect(clock().toISOString()).toBe('2026-11-21T10:00:00.000Z');
    expect(clock().toISOString()).toBe('2026-11-21T10:00:00.000Z');
  });

  it('a fixed clock cannot be moved by mutating a date it returned or the date it was given', () => {
    const given = new Date('2026-11-21T10:00:00.000Z');
    const clock = fixedClock(given);
    given.setUTCFullYear(2000);
    clock().setUTCFullYear(1999);
    expect(clock().toISOString()).toBe('2026-11-21T10:00:00.000Z');
  });

  it('a fixed clock refuses an invalid date', () => {
    expect(() => fixedClock('not a date')).toThrow('fixedClock needs a valid date');
  });

  it('an offset clock shifts its base by the offset, into the past when negative', () => {
    const base = fixedClock('2026-11-21T10:00:00.000Z');
    expect(offsetClock(-7_200_000, base)().toISOString()).toBe('2026-11-21T08:00:00.000Z');
    expect(offsetClock(1_500, base)().toISOString()).toBe('2026-11-21T10:00:01.500Z');
    expect(offsetClock(0, base)().toISOString()).toBe('2026-11-21T10:00:00.000Z');
  });

  it('an offset clock follows its base as it moves', () => {
    let ms = Date.parse('2026-11-21T10:00:00.000Z');
    const clock = offsetClock(60_000, () => new Date(ms));
    expect(clock().toISOString()).toBe('2026-11-21T10:01:00.000Z');
    ms += 30_000;
    expect(clock().toISOString()).toBe('2026-11-21T10:01:30.000Z');
  });

  it('an offset clock on the system clock by default is that far from now', () => {
    const read = offsetClock(-3_600_000)().getTime();
    expect(Math.abs(read - (Date.now() - 3_600_000))).toBeLessThan(1_000);
  });

  it('an offset clock refuses an offset that is not a finite number', () => {
    expect(() => offsetClock(Number.NaN)).toThrow('clock offset must be a finite number');
    expect(() => offsetClock(Number.POSITIVE_INFINITY)).toThrow('clock offset must be a finite number');
  });
});
