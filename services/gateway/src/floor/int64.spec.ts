import { int64Of, jsonIntegerOf, nullableJsonIntegerOf } from './int64.js';

describe('minor units between int64 and JSON', () => {
  it('carries every safe integer both ways unchanged', () => {
    for (const value of [0, 1, -1, 150_000, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
      expect(jsonIntegerOf(int64Of(value), 'amount')).toBe(value);
    }
  });

  it('refuses to send a float or an unsafe integer as int64', () => {
    for (const value of [10.5, Number.MAX_SAFE_INTEGER + 1, Infinity, Number.NaN]) {
      expect(() => int64Of(value)).toThrow(RangeError);
    }
  });

  it('throws, naming the field, rather than rounding a service value past 2^53 - 1', () => {
    expect(() => jsonIntegerOf(9_007_199_254_740_992n, 'fee')).toThrow(
      'fee 9007199254740992 is outside the safe integer range of JSON',
    );
    expect(() => jsonIntegerOf(-9_007_199_254_740_992n, 'net')).toThrow(RangeError);
    expect(jsonIntegerOf(-9_007_199_254_740_991n, 'net')).toBe(-9_007_199_254_740_991);
  });

  it('answers an unset optional int64 as null, a set one as its number', () => {
    expect(nullableJsonIntegerOf(undefined, 'minimum')).toBeNull();
    expect(nullableJsonIntegerOf(0n, 'minimum')).toBe(0);
    expect(() => nullableJsonIntegerOf(2n ** 63n - 1n, 'maximum')).toThrow(RangeError);
  });
});
