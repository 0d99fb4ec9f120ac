import { iso31661, iso31661Reserved } from 'iso-3166';
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { parsed, problem, type Parsed, quoted } from './validation.js';
import { describeJson } from '@corridor/validation';

/** Officially assigned ISO 3166-1 alpha-2 codes (249), from the maintained `iso-3166` package. */
const ASSIGNED = new Map(iso31661.map((country) => [country.alpha2, country.name]));
/** Reserved codes (UK, EU, …): not countries, but worth a precise message. */
const RESERVED = new Map(iso31661Reserved.map((code) => [code.alpha2, code.name]));
/** Reserved codes whose usual intent is an assigned one. */
const INTENDED: Record<string, string> = { UK: 'GB' };

export function isAlpha2(code: string): boolean {
  return ASSIGNED.has(code);
}

export function countryName(code: string): string | undefined {
  return ASSIGNED.get(code);
}

/** A country field: an assigned ISO 3166-1 alpha-2 code, upper case as the standard writes it. */
export function parseCountryCode(value: unknown): Parsed<string> {
  if (typeof value !== 'string')
    return problem(`must be an ISO 3166-1 alpha-2 country code, got ${describeJson(value)}`);
  if (ASSIGNED.has(value)) return parsed(value);
  const upper = value.toUpperCase();
  if (upper !== value && ASSIGNED.has(upper)) {
    return problem(`must be an ISO 3166-1 alpha-2 country code in upper case: ${upper}, not ${value}`);
  }
  const reserved = RESERVED.get(upper);
  if (reserved !== undefined) {
    const intended = INTENDED[upper];
    return problem(
      `must be an assigned ISO 3166-1 alpha-2 country code; ${upper} is reserved (${reserved})` +
        (intended ? `, use ${intended}` : ''),
    );
  }
  return problem(`must be an ISO 3166-1 alpha-2 country code (e.g. NG, GB, US); ${quoted(value)} is not one`);
}

/**
 * Postal codes where a country has no format known to `postcode-validator` (countries without
 * postal codes, such as AE or HK, and ones whose format it lacks): letters, digits, spaces and
 * hyphens, 1 to 20 characters, as every national format the UPU lists is. See the README.
 */
const ANY_POSTAL_CODE = /^[A-Za-z0-9](?:[A-Za-z0-9 -]{0,18}[A-Za-z0-9])?$/;

/**
 * Every national format is written in these characters; checked before `postcode-validator`, whose
 * CA pattern takes any \s between the halves (a line break, U+2028: found by a property test).
 */
const POSTAL_CODE_CHARACTERS = /^[A-Za-z0-9 -]+$/;

/** Whether `postcode-validator` knows the country's format (else the generic rule above applies). */
export function hasKnownPostalCodeFormat(country: string): boolean {
  return isAlpha2(country) && postcodeValidatorExistsForCountry(country);
}

/**
 * A postal code checked against its country (seed 2.1: `zip_code` against `country`,
 * `operating_zip_code` against `operating_country`). `country` must already be a valid code.
 */
export function checkPostalCode(code: string, country: string): string | undefined {
  if (hasKnownPostalCodeFormat(country)) {
    return POSTAL_CODE_CHARACTERS.test(code) && postcodeValidator(code, country)
      ? undefined
      : `is not a valid postal code for ${country} (${countryName(country) ?? country})`;
  }
  return ANY_POSTAL_CODE.test(code)
    ? undefined
    : 'must be 1 to 20 letters, digits, spaces or hyphens, starting and ending with a letter or digit';
}
