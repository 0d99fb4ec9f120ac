import { applySpread, convertDown, formatRate, fromAmountFor, invertRate, parseRate } from './decimal-rate.js';

const rate = (text: string) => {
  const parsed = parseRate(text);
  if (parsed === undefined) throw new Error(`not a rate: ${text}`);
  return parsed;
};

describe('exchange rates as exact decimals (decision 0011)', () => {
  it('parses and formats decimal strings without losing a digit', () => {
    expect(formatRate(rate('1550.25'))).toBe('1550.25');
    expect(formatRate(rate('0.000645161290'))).toBe('0.00064516129');
    expect(formatRate(rate('1'))).toBe('1');
    expect(formatRate(rate('999999999999.999999999999'))).toBe('999999999999.999999999999');
  });

  it('refuses zero, negatives, exponents, more than 12 fraction digits and other text', () => {
    for (const text of [
      '0',
      '0.0',
      '-1',
      '1e3',
      '1.0000000000001',
      '',
      '.5',
      '1.',
      'abc',
      '1 ',
      '1,5',
      '1234567890123',
    ]) {
      expect(parseRate(text)).toBeUndefined();
    }
  });

  it('takes the spread off the mid-rate, rounding down', () => {
    expect(formatRate(applySpread(rate('1550'), 50))).toBe('1542.25');
    expect(formatRate(applySpread(rate('1.27'), 0))).toBe('1.27');
    expect(formatRate(applySpread(rate('0.000000000003'), 5000))).toBe('0.000000000001');
  });

  it('derives the reverse of a pair rounded down to 12 decimals', () => {
    expect(formatRate(invertRate(rate('1550')))).toBe('0.000645161290'.replace(/0+$/, ''));
    expect(formatRate(invertRate(rate('0.5')))).toBe('2');
  });

  it('converts minor units rounding the received amount down to a whole minor unit', () => {
    // 100.00 USD at 1550.25 NGN/USD = 155,025.00 NGN exactly
    expect(convertDown(10_000n, rate('1550.25'), 2, 2)).toBe(15_502_500n);
    // 1.00 NGN at 0.000645 USD/NGN = 0.0645 cents → 0
    expect(convertDown(100n, rate('0.000645'), 2, 2)).toBe(0n);
    // 10.00 GBP at 1.27 = 12.70 USD; 0.01 GBP at 1.27 = 0.0127 USD → 0.01
    expect(convertDown(1_000n, rate('1.27'), 2, 2)).toBe(1_270n);
    expect(convertDown(1n, rate('1.27'), 2, 2)).toBe(1n);
    // exponents differ: 1.00 USD (2) to a 0-decimal currency at 150.5 → 150
    expect(convertDown(100n, rate('150.5'), 2, 0)).toBe(150n);
  });

  it('finds the fewest from-units that buy a to-amount, and they always buy at least it', () => {
    const r = rate('1.27');
    expect(fromAmountFor(1_270n, r, 2, 2)).toBe(1_000n);
    expect(fromAmountFor(1_271n, r, 2, 2)).toBe(1_001n);
    for (const to of [1n, 7n, 99n, 1_000n, 123_457n]) {
      for (const text of ['1.27', '1550.25', '0.000645161', '3.333333333333']) {
        const from = fromAmountFor(to, rate(text), 2, 2);
        expect(convertDown(from, rate(text), 2, 2)).toBeGreaterThanOrEqual(to);
        if (from > 1n) expect(convertDown(from - 1n, rate(text), 2, 2)).toBeLessThan(to);
      }
    }
  });
});
