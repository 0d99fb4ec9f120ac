import { InvalidArgumentError } from 'commander';
import {
  collect,
  collectRejection,
  parseBooleanFlag,
  parseIpAllowlist,
  parsePage,
  parseRateLimits,
  parseVerdict,
} from './options.js';

describe('--rate-limits', () => {
  it('reads per_minute/per_hour', () => {
    expect(parseRateLimits('120/1500')).toEqual({ per_minute: 120, per_hour: 1500 });
    expect(parseRateLimits(' 100000 / 6000000 ')).toEqual({ per_minute: 100000, per_hour: 6000000 });
  });

  it.each([
    ['120', /per_minute\/per_hour/],
    ['120/1500/9', /per_minute\/per_hour/],
    ['/1500', /per_minute "" is not a positive whole number/],
    ['120/', /per_hour "" is not a positive whole number/],
    ['abc/1500', /per_minute "abc"/],
    ['0/1500', /per_minute "0"/],
    ['-1/1500', /per_minute "-1"/],
    ['1.5/1500', /per_minute "1.5"/],
    ['120/1e3', /per_hour "1e3"/],
  ])('rejects %j', (value, message) => {
    expect(() => parseRateLimits(value)).toThrow(InvalidArgumentError);
    expect(() => parseRateLimits(value)).toThrow(message);
  });
});

describe('true|false options', () => {
  it('reads exactly true and false', () => {
    expect(parseBooleanFlag('true')).toBe(true);
    expect(parseBooleanFlag('false')).toBe(false);
  });
  it.each(['yes', '0', 'TRUE', ''])('rejects %j rather than guessing', (value) => {
    expect(() => parseBooleanFlag(value)).toThrow('expected true or false');
  });
});

describe('--ip-allowlist', () => {
  it('splits on commas and trims', () => {
    expect(parseIpAllowlist('10.0.0.0/8, 203.0.113.7')).toEqual(['10.0.0.0/8', '203.0.113.7']);
  });
  it('"" is the empty list that lifts the restriction', () => {
    expect(parseIpAllowlist('')).toEqual([]);
  });
});

describe('repeatable options', () => {
  it('accumulate in order', () => {
    expect(collect('b', collect('a', undefined))).toEqual(['a', 'b']);
  });
});

describe('customer review options', () => {
  it('--page reads a whole number ≥ 1', () => {
    expect(parsePage('3')).toBe(3);
    for (const value of ['0', '-1', '1.5', 'x', '']) expect(() => parsePage(value)).toThrow(InvalidArgumentError);
  });

  it('--verdict reads exactly VERIFIED or REJECTED', () => {
    expect(parseVerdict('VERIFIED')).toBe('VERIFIED');
    expect(parseVerdict('REJECTED')).toBe('REJECTED');
    for (const value of ['verified', 'APPROVED', '']) expect(() => parseVerdict(value)).toThrow(InvalidArgumentError);
  });

  it('--reject-owner reads <id>=<comment>, the comment may hold "="', () => {
    expect(collectRejection('o-1=a = b')).toEqual([{ id: 'o-1', comment: 'a = b' }]);
    expect(collectRejection('o-2=x', [{ id: 'o-1', comment: 'y' }])).toHaveLength(2);
    for (const value of ['o-1', '=comment', 'o-1=', 'o-1=  ']) {
      expect(() => collectRejection(value)).toThrow(InvalidArgumentError);
    }
  });
});
