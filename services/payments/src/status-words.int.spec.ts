import { VirtualAccountStatus } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { TransactionStatus, TransactionType } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { enumNames, enumWords, PAYOUT_STATUS_WORDS, REFUND_STATUS_WORDS } from '@corridor/payments-json';
import { query } from '@corridor/testing';
import { describePayments } from '../test/payments-database.js';
import { COLLECTION_STATUS_WORDS } from './collections/collection-record.js';

/**
 * Each status column's CHECK, as the migrations left it, against the words the code derives from the
 * proto enum: a status added to the proto and not to the table (or the other way) fails here.
 */
const COLUMNS: [table: string, column: string, words: readonly string[]][] = [
  ['payment_transaction', 'status', enumNames(TransactionStatus)],
  ['payment_transaction', 'type', enumNames(TransactionType)],
  ['payment_transaction', 'refund_status', REFUND_STATUS_WORDS],
  ['payout', 'status', PAYOUT_STATUS_WORDS],
  ['collection', 'status', COLLECTION_STATUS_WORDS],
  ['refund', 'status', REFUND_STATUS_WORDS],
  ['virtual_account', 'status', enumWords(VirtualAccountStatus)],
];

describePayments('payments: the status words of the tables are the proto enums’ (migrated schema)', (database) => {
  /** The words of the one CHECK on the column alone (`column in (…)`, as PostgreSQL keeps it). */
  async function checkedWords(table: string, column: string): Promise<string[][]> {
    const checks = await query<{ definition: string }>(
      database.url,
      `select pg_get_constraintdef(c.oid) as definition
       from pg_constraint c
       join pg_class t on t.oid = c.conrelid
       join pg_attribute a on a.attrelid = t.oid and a.attnum = c.conkey[1]
       where c.contype = 'c' and cardinality(c.conkey) = 1 and t.relname = $1 and a.attname = $2`,
      [table, column],
    );
    return checks.map(({ definition }) => [...definition.matchAll(/'([^']*)'::text/g)].map(([, word]) => word ?? ''));
  }

  it.each(COLUMNS)('%s.%s allows exactly the enum’s words', async (table, column, words) => {
    expect(words.length).toBeGreaterThan(1);
    const [check, ...others] = await checkedWords(table, column);
    expect(others).toEqual([]);
    expect([...(check ?? [])].sort()).toEqual([...words].sort());
  });
});
