import { disabledNow, HEALTHY, judge, type UrlHealth, type Verdict } from './url-health.js';

const DAY = 24 * 3_600_000;
const rules = { disableAfterMs: 5 * DAY, disableAfterEvents: 3 };
const start = new Date('2026-11-20T00:00:00.000Z');
const at = (days: number) => new Date(start.getTime() + days * DAY);

/** The health after each verdict at its day, in order. */
function after(steps: [Verdict, number][], from: UrlHealth = HEALTHY): UrlHealth {
  return steps.reduce((health, [verdict, day]) => judge(health, verdict, at(day), rules), from);
}

describe('endpoint health rules (decision 0068)', () => {
  it('disables a URL whose deliveries all failed for the span, first failure to latest, judged at now', () => {
    const run = after([
      ['failed_finally', 0],
      ['failed_finally', 4.9],
    ]);
    expect(run).toEqual({ failingSince: at(0), consecutiveFailures: 2, disabledAt: null, disabledReason: null });
    const disabled = judge(run, 'failed_finally', at(5), { ...rules, disableAfterEvents: 100 });
    expect(disabled).toMatchObject({ disabledAt: at(5), disabledReason: 'failing_for', consecutiveFailures: 3 });
    expect(disabledNow(run, disabled)).toBe(true);
  });

  it('disables after N deliveries in a row failed, however short the run', () => {
    const twice = after([
      ['failed_finally', 0],
      ['failed_finally', 0.01],
    ]);
    expect(twice.disabledAt).toBeNull();
    expect(judge(twice, 'failed_finally', at(0.02), rules)).toMatchObject({
      disabledReason: 'consecutive',
      disabledAt: at(0.02),
      consecutiveFailures: 3,
    });
  });

  it('disables at once on 410 Gone, the run of one', () => {
    expect(after([['gone', 1]])).toEqual({
      failingSince: at(1),
      consecutiveFailures: 1,
      disabledAt: at(1),
      disabledReason: 'gone',
    });
  });

  it('a 2xx resets the run: failures before it count for nothing', () => {
    const reset = after([
      ['failed_finally', 0],
      ['failed_finally', 1],
      ['delivered', 4],
      ['failed_finally', 4.5],
      ['failed_finally', 9],
    ]);
    // 4.5 days from the run's first failure, two in a row: not disabled.
    expect(reset).toEqual({ failingSince: at(4.5), consecutiveFailures: 2, disabledAt: null, disabledReason: null });
    expect(judge(reset, 'failed_finally', at(9.5), rules).disabledReason).toBe('failing_for');
  });

  it('an attempt with retries to come changes nothing', () => {
    const run = after([['failed_finally', 0]]);
    expect(judge(run, 'retrying', at(30), rules)).toBe(run);
  });

  it('a disabled URL stays disabled, with its reason and time, until enabled; a 2xx only resets the run', () => {
    const gone = after([['gone', 1]]);
    const later = after(
      [
        ['failed_finally', 7],
        ['delivered', 8],
      ],
      gone,
    );
    expect(later).toEqual({ failingSince: null, consecutiveFailures: 0, disabledAt: at(1), disabledReason: 'gone' });
    expect(disabledNow(gone, later)).toBe(false);
  });
});
