import { InvalidArgumentError } from 'commander';

/** The admin API's rate_limits object. */
export interface RateLimits {
  per_minute: number;
  per_hour: number;
}

const WHOLE_NUMBER = /^[1-9]\d*$/;

/**
 * `--rate-limits 120/1500` → {per_minute: 120, per_hour: 1500}. Only the shape is checked here;
 * the ranges (and per_hour ≥ per_minute) are identity's rules, and its 422 names the field.
 */
export function parseRateLimits(value: string): RateLimits {
  const parts = value.split('/');
  if (parts.length !== 2) throw new InvalidArgumentError('expected per_minute/per_hour, for example 120/1500.');
  const [perMinute = '', perHour = ''] = parts.map((part) => part.trim());
  if (!WHOLE_NUMBER.test(perMinute))
    throw new InvalidArgumentError(`per_minute "${perMinute}" is not a positive whole number.`);
  if (!WHOLE_NUMBER.test(perHour))
    throw new InvalidArgumentError(`per_hour "${perHour}" is not a positive whole number.`);
  return { per_minute: Number(perMinute), per_hour: Number(perHour) };
}

/** `--api-enabled true|false`: spelled out, so a typo cannot silently mean false. */
export function parseBooleanFlag(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new InvalidArgumentError('expected true or false.');
}

/** `--ip-allowlist 10.0.0.0/8,203.0.113.7` → entries; `""` → [] (no restriction). */
export function parseIpAllowlist(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

/** Repeatable options (`--bundle a --bundle b`) accumulate into a list. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `--page 2`: a whole number ≥ 1. */
export function parsePage(value: string): number {
  if (!WHOLE_NUMBER.test(value)) throw new InvalidArgumentError('expected a whole number ≥ 1.');
  return Number(value);
}

/** `--until-event collection.successful`: an event's name (seed 6.3), so a typo fails at once instead of never matching. */
export function parseEventName(value: string): string {
  if (!/^[a-z_]+(\.[a-z_]+)*$/.test(value))
    throw new InvalidArgumentError('expected an event name such as collection.successful, payout.failed or refund.');
  return value;
}

export const VERDICTS = ['VERIFIED', 'REJECTED'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** `--verdict VERIFIED|REJECTED`, exactly: a verdict moves the customer and fires a webhook. */
export function parseVerdict(value: string): Verdict {
  const verdict = VERDICTS.find((candidate) => candidate === value);
  if (!verdict) throw new InvalidArgumentError('expected VERIFIED or REJECTED.');
  return verdict;
}

/** A rejection of an owner or document: its id and the comment the platform reads. */
export interface Rejection {
  id: string;
  comment: string;
}

/** `--reject-owner <id>=<comment>` (repeatable; each one adds a comment to that owner). */
export function collectRejection(value: string, previous: Rejection[] = []): Rejection[] {
  const separator = value.indexOf('=');
  const id = value.slice(0, separator).trim();
  const comment = value.slice(separator + 1).trim();
  if (separator < 0 || !id || !comment) {
    throw new InvalidArgumentError('expected <id>=<comment>: a REJECTED owner or document needs a comment.');
  }
  return [...previous, { id, comment }];
}

/** `--amount 1000000`: minor units, a positive safe integer (the public API's own limit). */
export function parseMinorAmount(value: string): number {
  const amount = Number(value);
  if (!WHOLE_NUMBER.test(value) || !Number.isSafeInteger(amount))
    throw new InvalidArgumentError('expected a whole number of minor units ≥ 1 (1000000 is 10,000.00 USD).');
  return amount;
}

/** A mid-rate as payments stores it: a positive decimal string, at most 12 fraction digits. */
export function parseRate(value: string): string {
  if (!/^\d+(\.\d{1,12})?$/.test(value) || !/[1-9]/.test(value))
    throw new InvalidArgumentError('expected a positive decimal such as 1550.25 (at most 12 fraction digits).');
  return value;
}

export const DIRECTIONS = ['credit', 'debit'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** `--direction credit|debit`, exactly: an adjustment moves real balances. */
export function parseDirection(value: string): Direction {
  const direction = DIRECTIONS.find((candidate) => candidate === value);
  if (!direction) throw new InvalidArgumentError('expected credit or debit.');
  return direction;
}
