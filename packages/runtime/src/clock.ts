/**
 * The one way a service reads the time: every context has `now: Clock`, so deadlines and timestamps
 * can be moved in tests without touching the process's own clock.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** `base` shifted by `offsetMs` (negative: in the past), e.g. to mint tokens that have already expired. */
export function offsetClock(offsetMs: number, base: Clock = systemClock): Clock {
  if (!Number.isFinite(offsetMs)) throw new RangeError(`clock offset must be a finite number of ms, got ${offsetMs}`);
  return () => new Date(base().getTime() + offsetMs);
}

/** Always `date` (tests). Each call returns a new Date, so a caller that mutates one cannot move the clock. */
export function fixedClock(date: Date | string): Clock {
  const ms = new Date(date).getTime();
  if (Number.isNaN(ms)) throw new RangeError(`fixedClock needs a valid date, got ${String(date)}`);
  return () => new Date(ms);
}
