import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';

/** Instants as the JSON of every route reads and writes them. */

/** A service's timestamp as the JSON answers carry it: RFC 3339, in UTC. */
export const iso = (timestamp: Timestamp): string => timestampDate(timestamp).toISOString();

/** A timestamp the service may leave unset: null when it did. */
export const isoOrNull = (timestamp: Timestamp | undefined): string | null => (timestamp ? iso(timestamp) : null);

// RFC 3339's date-time (the OpenAPI `date-time` format): a time zone is required, so the same query
// means the same instant wherever it is sent from.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/i;

/**
 * An RFC 3339 date-time as a Date, or undefined. Stricter than `new Date()`, which reads
 * 2026-02-30 as 2 March and accepts forms no other client would send.
 */
export function parseDateTime(value: string): Date | undefined {
  const match = DATE_TIME.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [offsetHours, offsetMinutes] = [Number(match[9] ?? 0), Number(match[10] ?? 0)];
  // A calendar day that exists (Date rolls 30 February over into March) and a real clock time;
  // setUTCFullYear takes years 0 to 99 as they are, where Date.UTC would read 40 as 1940.
  const midnight = new Date(0);
  midnight.setUTCFullYear(year, month - 1, day);
  if (midnight.getUTCFullYear() !== year || midnight.getUTCMonth() !== month - 1 || midnight.getUTCDate() !== day) {
    return undefined;
  }
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
