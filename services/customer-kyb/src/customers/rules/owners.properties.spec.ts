import fc from 'fast-check';
import { PERCENTAGE_DECIMALS, PERCENTAGE_SCALE, percentage } from './field-formats.js';
import { calendarDateOf } from './calendar.js';
import { checkOwnershipSumsTo100 } from './owners.js';

/**
 * Ownership sums (seed 2.2, 3.2 rule 3, 4.2) tried on generated splits rather than the examples
 * someone thought of: exact in decimals, whatever binary floating point makes of the parts.
 */

const HUNDRED = 100 * PERCENTAGE_SCALE;
const today = calendarDateOf('2026-06-15');

/** Millionths as the JSON numeral a platform writes, with exactly `decimals` places (0 to 6), read as JSON reads it. */
const sent = (millionths: number, decimals: number) => {
  const whole = Math.trunc(millionths / PERCENTAGE_SCALE);
  const fraction = String(millionths % PERCENTAGE_SCALE)
    .padStart(PERCENTAGE_DECIMALS, '0')
    .slice(0, decimals);
  return Number(decimals === 0 ? `${whole}` : `${whole}.${fraction}`);
};

/** n parts of `total` millionths, each a multiple of 10^(6 - decimals), cut at sorted points. */
const split = (total: number, decimals: number) => {
  const step = 10 ** (PERCENTAGE_DECIMALS - decimals);
  return fc.array(fc.integer({ min: 0, max: Math.floor(total / step) }), { minLength: 0, maxLength: 7 }).map((cuts) => {
    const points = [0, ...cuts.map((cut) => cut * step).sort((a, b) => a - b), total];
    return points.slice(1).map((point, index) => point - (points[index] ?? 0));
  });
};

const owners = (shares: number[]) => shares.map((ownership_percentage) => ({ ownership_percentage }));

describe('ownership sums, by property (fast-check)', () => {
  it('any split of 100 into 1 to 8 parts of at most six decimals is accepted, part by part and as a sum', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 0, max: PERCENTAGE_DECIMALS })
          .chain((decimals) => split(HUNDRED, decimals).map((parts) => parts.map((part) => sent(part, decimals)))),
        (shares) => {
          for (const share of shares) expect(percentage(share, today)).toEqual({ ok: true, value: share });
          expect(checkOwnershipSumsTo100(owners(shares))).toBeUndefined();
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('some of those splits are exactly the ones a float sum gets wrong', () => {
    // The property above is not vacuous: a float sum misses 100 on splits it accepts.
    const shares = [0.01, 65.4, 34.59];
    expect(shares.reduce((sum, share) => sum + share, 0)).not.toBe(100);
    expect(checkOwnershipSumsTo100(owners(shares))).toBeUndefined();
  });

  it('any split of another total is refused, naming the exact sum', () => {
    const otherTotal = fc
      .tuple(fc.integer({ min: 0, max: 2 * HUNDRED }), fc.integer({ min: 0, max: PERCENTAGE_DECIMALS }))
      .map(([total, decimals]) => {
        const step = 10 ** (PERCENTAGE_DECIMALS - decimals);
        return { total: Math.floor(total / step) * step, decimals };
      })
      .filter(({ total }) => total !== HUNDRED);
    fc.assert(
      fc.property(
        otherTotal.chain(({ total, decimals }) =>
          split(total, decimals).map((parts) => ({ total, shares: parts.map((part) => sent(part, decimals)) })),
        ),
        ({ total, shares }) => {
          const whole = Math.trunc(total / PERCENTAGE_SCALE);
          const fraction = String(total % PERCENTAGE_SCALE)
            .padStart(PERCENTAGE_DECIMALS, '0')
            .replace(/0+$/, '');
          const sum = fraction ? `${whole}.${fraction}` : `${whole}`;
          expect(checkOwnershipSumsTo100(owners(shares))).toEqual({
            owners: [`ownership_percentage values must sum to exactly 100 (they sum to ${sum})`],
          });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a part with a seventh decimal place is refused at its own path, whatever the others sum to', () => {
    fc.assert(
      fc.property(
        split(HUNDRED, PERCENTAGE_DECIMALS).filter((parts) => parts.some((part) => part < HUNDRED)),
        fc.integer({ min: 1, max: 9 }),
        fc.nat(),
        (parts, seventh, pick) => {
          const index = parts.findIndex((part, at) => part < HUNDRED && at >= pick % parts.length);
          const at = index < 0 ? parts.findIndex((part) => part < HUNDRED) : index;
          const shares = parts.map((part) => sent(part, PERCENTAGE_DECIMALS));
          const part = parts[at] ?? 0;
          const whole = Math.trunc(part / PERCENTAGE_SCALE);
          const fraction = String(part % PERCENTAGE_SCALE).padStart(PERCENTAGE_DECIMALS, '0');
          shares[at] = Number(`${whole}.${fraction}${seventh}`);
          expect(percentage(shares[at], today)).toMatchObject({ ok: false });
          expect(checkOwnershipSumsTo100(owners(shares))).toEqual({
            [`owners.${at}.ownership_percentage`]: ['must be a number from 0 to 100 with at most 6 decimal places'],
          });
        },
      ),
      { numRuns: 1000 },
    );
  });
});
