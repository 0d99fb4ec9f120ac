import { nextAttemptAt } from './schedule.js';

const SEED_SCHEDULE = [0, 60_000, 300_000, 900_000, 3_600_000];
const now = new Date('2026-11-21T12:00:00.000Z');
const after = (made: number) => nextAttemptAt(SEED_SCHEDULE, made, now)?.toISOString() ?? null;

describe('retry schedule (seed 6.4 rule 4)', () => {
  it('attempt 1 is immediate', () => expect(after(0)).toBe('2026-11-21T12:00:00.000Z'));
  it('attempt 2 is 1 minute after the first', () => expect(after(1)).toBe('2026-11-21T12:01:00.000Z'));
  it('attempt 3 is 5 minutes after the second', () => expect(after(2)).toBe('2026-11-21T12:05:00.000Z'));
  it('attempt 4 is 15 minutes after the third', () => expect(after(3)).toBe('2026-11-21T12:15:00.000Z'));
  it('attempt 5 is 1 hour after the fourth', () => expect(after(4)).toBe('2026-11-21T13:00:00.000Z'));
  it('after the fifth failure there is no sixth: the delivery is failed', () => expect(after(5)).toBeNull());
});
