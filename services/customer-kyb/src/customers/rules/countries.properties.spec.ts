import fc from 'fast-check';
import { iso31661 } from 'iso-3166';
import { checkPostalCode, hasKnownPostalCodeFormat, isAlpha2, parseCountryCode } from './countries.js';

/** Country and postal-code rules (seed 2.1, 2.2) tried on generated values. */

const ASSIGNED = iso31661.map((country) => country.alpha2);
const anyText = fc.string({ unit: 'binary', maxLength: 40 });
const anyCountry = fc.constantFrom(...ASSIGNED);
const RUNS = { numRuns: 2000 };

describe('countries and postal codes, by property (fast-check)', () => {
  it('a country code is taken iff it is an assigned alpha-2 code, exactly as written; its lower case is refused naming it', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, fc.stringMatching(/^[A-Za-z]{2}$/), anyCountry), (value) => {
        const result = parseCountryCode(value);
        expect(result.ok).toBe(ASSIGNED.includes(value));
        if (result.ok) {
          expect(result.value).toBe(value);
          expect(value).toMatch(/^[A-Z]{2}$/);
          expect(parseCountryCode(value.toLowerCase())).toMatchObject({
            ok: false,
            problem: expect.stringContaining(value),
          });
        }
      }),
      RUNS,
    );
  });

  it('a postal code is judged for every assigned country without throwing, and a refusal names the country', () => {
    fc.assert(
      fc.property(anyText, anyCountry, (code, country) => {
        const problem = checkPostalCode(code, country);
        if (problem !== undefined && hasKnownPostalCodeFormat(country)) expect(problem).toContain(country);
      }),
      RUNS,
    );
  });

  it('where no national format is known: 1 to 20 letters, digits, spaces or hyphens, starting and ending with a letter or digit', () => {
    const unknown = ASSIGNED.filter((country) => isAlpha2(country) && !hasKnownPostalCodeFormat(country));
    expect(unknown.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(
        fc.oneof(anyText, fc.stringMatching(/^[A-Za-z0-9 -]{1,22}$/)),
        fc.constantFrom(...unknown),
        (code, country) => {
          const expected =
            code.length >= 1 &&
            code.length <= 20 &&
            /^[A-Za-z0-9 -]*$/.test(code) &&
            /^[A-Za-z0-9]/.test(code) &&
            /[A-Za-z0-9]$/.test(code);
          expect(checkPostalCode(code, country) === undefined).toBe(expected);
        },
      ),
      RUNS,
    );
  });

  it('an accepted postal code, of any country, holds no control character, line break or other space than U+0020', () => {
    // Two halves around one whitespace character: how CA (and others) write theirs, with a space.
    const halves = fc
      .tuple(
        fc.stringMatching(/^[A-Z][0-9][A-Z]$/),
        fc.constantFrom('\t', '\n', '\r', '\u000b', '\u00a0', '\u2028', '\u3000'),
        fc.stringMatching(/^[0-9][A-Z][0-9]$/),
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(anyText, halves), fc.oneof(anyCountry, fc.constant('CA')), (code, country) => {
        // eslint-disable-next-line no-control-regex -- the point: no stored postal code may hold these
        if (checkPostalCode(code, country) === undefined) expect(code).not.toMatch(/[^\S ]|[\u0000-\u001f\u007f]/);
      }),
      { numRuns: 5000 },
    );
  });
});
