import { formatMinorUnits, minorUnitsAsInput, parseAmount } from './amount.js';

describe('formatMinorUnits', () => {
  it.each([
    [0n, 2, '0.00'],
    [1n, 2, '0.01'],
    [-1n, 2, '-0.01'],
    [99n, 2, '0.99'],
    [100n, 2, '1.00'],
    [150_000n, 2, '1,500.00'],
    [-15_075_000n, 2, '-150,750.00'],
    [100_000_000_001n, 2, '1,000,000,000.01'],
    // int64's extremes, beyond Number's exact integers.
    [9_223_372_036_854_775_807n, 2, '92,233,720,368,547,758.07'],
    [-9_223_372_036_854_775_808n, 2, '-92,233,720,368,547,758.08'],
    [0n, 0, '0'],
    [1n, 0, '1'],
    [1_500n, 0, '1,500'],
    [-1_234_567n, 0, '-1,234,567'],
    [0n, 8, '0.00000000'],
    [1n, 8, '0.00000001'],
    [123_456_789n, 8, '1.23456789'],
    [-100_000_000_000n, 8, '-1,000.00000000'],
    [1n, 3, '0.001'],
  ])('%s minor units at exponent %s are %s', (minor, exponent, text) => {
    expect(formatMinorUnits(minor, exponent)).toBe(text);
  });

  it('takes the minor units as a decimal string too, exactly', () => {
    expect(formatMinorUnits('100000000001', 2)).toBe('1,000,000,000.01');
    expect(formatMinorUnits('-5', 2)).toBe('-0.05');
    expect(formatMinorUnits('123456789012345678901234567890', 2)).toBe('1,234,567,890,123,456,789,012,345,678.90');
  });

  it('refuses what is not a whole number or an exponent', () => {
    expect(() => formatMinorUnits('1.5', 2)).toThrow(RangeError);
    expect(() => formatMinorUnits('', 2)).toThrow(RangeError);
    expect(() => formatMinorUnits(1n, -1)).toThrow(RangeError);
    expect(() => formatMinorUnits(1n, 2.5)).toThrow(RangeError);
  });

  it('writes a form field without grouping', () => {
    expect(minorUnitsAsInput(150_000n, 2)).toBe('1500.00');
    expect(minorUnitsAsInput(1_500n, 0)).toBe('1500');
  });
});

describe('parseAmount', () => {
  it.each([
    ['1500', 2, 150_000n],
    ['1500.5', 2, 150_050n],
    ['1,500.50', 2, 150_050n],
    [' 0.01 ', 2, 1n],
    ['1000000000.01', 2, 100_000_000_001n],
    ['1500', 0, 1_500n],
    ['0.00000001', 8, 1n],
    ['92233720368547758.07', 2, 9_223_372_036_854_775_807n],
  ])('reads %s at exponent %s as %s minor units', (text, exponent, minor) => {
    expect(parseAmount(text, exponent, 'XXX')).toEqual({ ok: true, minor });
  });

  it.each([
    ['', 2, 'The amount is empty'],
    ['abc', 2, '“abc” is not an amount'],
    ['-1.00', 2, '“-1.00” is not an amount'],
    ['1e3', 2, 'is not an amount'],
    ['1,50.00', 2, 'is not an amount'],
    ['1.005', 2, 'GBP has 2 decimal places: “1.005” has 3'],
    ['1.5', 0, 'GBP has no minor unit'],
    ['0', 2, 'more than zero'],
    ['0.00', 2, 'more than zero'],
    ['92233720368547758.08', 2, 'The amount must be at most 92,233,720,368,547,758.07 GBP'],
  ])('refuses %s at exponent %s, naming the problem', (text, exponent, problem) => {
    const parsed = parseAmount(text, exponent, 'GBP');
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.problem).toContain(problem);
  });
});
