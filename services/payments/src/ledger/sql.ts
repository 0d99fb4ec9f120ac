export { sql, dateOf } from '@corridor/db';

export type Row = Record<string, unknown>;

/** A bigint column as PostgreSQL returns it (text), as a bigint. */
export const int8 = (value: unknown): bigint => BigInt(String(value));
