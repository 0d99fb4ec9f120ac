import type { EntityManager } from '@mikro-orm/core';

export type Row = Record<string, unknown>;

/** One SQL statement in the transaction of `em`, if it has one (`?` placeholders). */
export function sql(em: EntityManager, text: string, params: unknown[] = []): Promise<Row[]> {
  return em.getConnection().execute<Row[]>(text, params, 'all', em.getTransactionContext());
}

/** A bigint column as PostgreSQL returns it (text), as a bigint. */
export const int8 = (value: unknown): bigint => BigInt(String(value));
