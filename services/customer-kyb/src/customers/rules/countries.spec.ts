import { checkPostalCode, countryName, hasKnownPostalCodeFormat, isAlpha2, parseCountryCode } from './countries.js';

describe('country codes (seed 2.1, 2.2: ISO 3166-1 alpha-2)', () => {
  it('seed 2.1: accepts assigned ISO 3166-1 alpha-2 codes', () => {
    for (const code of ['NG', 'GB', 'US', 'DE', 'AE', 'HK', 'AX'])
      expect(parseCountryCode(code)).toEqual({ ok: true, value: code });
    expect(countryName('NG')).toBe('Nigeria');
  });

  it('refuses a lower-case code, naming the upper-case one', () => {
    expect(parseCountryCode('ng')).toEqual({
      ok: false,
      problem: 'must be an ISO 3166-1 alpha-2 country code in upper case: NG, not ng',
    });
  });

  it('refuses reserved codes that are not countries, pointing UK to GB', () => {
    expect(parseCountryCode('UK')).toEqual({
      ok: false,
      problem: 'must be an assigned ISO 3166-1 alpha-2 country code; UK is reserved (United Kingdom), use GB',
    });
    expect(parseCountryCode('EU')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('EU is reserved (European Union)'),
    });
  });

  it('refuses unassigned codes, alpha-3 codes and user-assigned XK', () => {
    for (const code of ['XK', 'ZZ', 'NGA', 'N', '']) {
      expect(parseCountryCode(code)).toEqual({
        ok: false,
        problem: `must be an ISO 3166-1 alpha-2 country code (e.g. NG, GB, US); ${JSON.stringify(code)} is not one`,
      });
    }
    expect(isAlpha2('XK')).toBe(false);
  });

  it('refuses values that are not strings, saying what was sent', () => {
    expect(parseCountryCode(566)).toEqual({
      ok: false,
      problem: 'must be an ISO 3166-1 alpha-2 country code, got a number',
    });
    expect(parseCountryCode(['NG'])).toEqual({
      ok: false,
      problem: 'must be an ISO 3166-1 alpha-2 country code, got an array',
    });
  });
});

describe('postal codes (seed 2.1: zip_code against country, operating_zip_code against operating_country)', () => {
  it('seed 2.1: checks the format of countries postcode-validator knows', () => {
    expect(checkPostalCode('SW1A 1AA', 'GB')).toBeUndefined();
    expect(checkPostalCode('94105', 'US')).toBeUndefined();
    expect(checkPostalCode('94105-1234', 'US')).toBeUndefined();
    expect(checkPostalCode('100001', 'NG')).toBeUndefined();
    expect(checkPostalCode('9410', 'US')).toBe('is not a valid postal code for US (United States of America)');
    expect(checkPostalCode('94105', 'GB')).toBe(
      'is not a valid postal code for GB (United Kingdom of Great Britain and Northern Ireland)',
    );
    expect(checkPostalCode('10000', 'NG')).toBe('is not a valid postal code for NG (Nigeria)');
  });

  it('accepts any plausible code where no format is known (countries without postal codes such as AE, HK)', () => {
    expect(hasKnownPostalCodeFormat('AE')).toBe(false);
    expect(hasKnownPostalCodeFormat('HK')).toBe(false);
    expect(hasKnownPostalCodeFormat('GB')).toBe(true);
    expect(checkPostalCode('00000', 'AE')).toBeUndefined();
    expect(checkPostalCode('A'.repeat(20), 'HK')).toBeUndefined();
    expect(checkPostalCode('KLN-1 2', 'HK')).toBeUndefined();
  });

  it('still refuses garbage where no format is known: over 20 characters, symbols, leading or trailing separators', () => {
    const generic = 'must be 1 to 20 letters, digits, spaces or hyphens, starting and ending with a letter or digit';
    expect(checkPostalCode('A'.repeat(21), 'AE')).toBe(generic);
    expect(checkPostalCode('12#45', 'AE')).toBe(generic);
    expect(checkPostalCode('-1234', 'AE')).toBe(generic);
    expect(checkPostalCode('1234 ', 'AE')).toBe(generic);
  });
});
