import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { ListTransactionsRequestSchema } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { TransactionStatus, TransactionType } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { testPaymentsContext } from '../../test/test-context.js';
import { getTransaction, listTransactions } from './read-transactions.js';
import { insertTransaction } from './transaction-store.js';
import { describePayments } from '../../test/payments-database.js';

describePayments('payments: reading transactions (real PostgreSQL)', (database) => {
  let context: PaymentsContext;
  const business = randomUUID();
  const other = randomUUID();
  const ids: string[] = [];
  const base = Date.parse('2026-11-24T10:00:00.000Z');

  beforeAll(async () => {
    context = testPaymentsContext(database.orm, () => new Date(base), { shards: 1 });
    // 7 of the business's (oldest first; two share a timestamp, so the id breaks the tie), 1 of another's.
    const rows = [
      ['SWAP', 'USD', 0],
      ['ADJUSTMENT', 'NGN', 1],
      ['SWAP', 'NGN', 2],
      ['SWAP', 'USD', 2],
      ['ADJUSTMENT', 'USD', 3],
      ['SWAP', 'GBP', 4],
      ['SWAP', 'USD', 5],
    ] as const;
    for (const [index, [type, currency, minute]] of rows.entries()) {
      const transaction = await database.em().transactional((tx) =>
        insertTransaction(tx, context, {
          id: randomUUID(),
          businessId: business,
          type,
          status: 'SUCCESSFUL',
          currency,
          amount: -100n,
          fee: 1n,
          reference: `ref-${index}`,
          description: 'test',
          at: new Date(base + minute * 60_000),
        }),
      );
      ids.push(transaction.id);
    }
    await database.em().transactional((tx) =>
      insertTransaction(tx, context, {
        id: randomUUID(),
        businessId: other,
        type: 'SWAP',
        status: 'SUCCESSFUL',
        currency: 'USD',
        amount: -1n,
        fee: 0n,
        reference: 'ref-0',
        description: 'another business',
        at: new Date(base),
      }),
    );
  });

  const list = (fields: Parameters<typeof create<typeof ListTransactionsRequestSchema>>[1] = {}) =>
    listTransactions(database.em(), business, create(ListTransactionsRequestSchema, fields));

  it('walks every page forward and back with cursors: newest first, no gap, no repeat, only the business’s own', async () => {
    const seen: string[] = [];
    let page = await list({ page: { limit: 3 } });
    expect(page.previousCursor).toBeUndefined();
    const pages = [page];
    while (true) {
      seen.push(...page.transactions.map((transaction) => transaction.id));
      if (!page.nextCursor) break;
      page = await list({ page: { limit: 3, cursor: page.nextCursor } });
      pages.push(page);
    }
    const newestFirst = await query<{ id: string }>(
      database.url,
      'select id from payment_transaction where business_id = $1 order by created_at desc, id desc',
      [business],
    );
    expect(seen).toEqual(newestFirst.map((row) => row.id));
    expect(pages.map((p) => p.transactions.length)).toEqual([3, 3, 1]);
    // Back from the last page to the first.
    const back = await list({ page: { limit: 3, cursor: page.previousCursor ?? '' } });
    expect(back.transactions.map((t) => t.id)).toEqual(pages[1]?.transactions.map((t) => t.id));
    const first = await list({ page: { limit: 3, cursor: back.previousCursor ?? '' } });
    expect(first.transactions.map((t) => t.id)).toEqual(pages[0]?.transactions.map((t) => t.id));
    expect(first.previousCursor).toBeUndefined();
  });

  it('filters exactly, alone and combined', async () => {
    expect((await list({ type: TransactionType.ADJUSTMENT })).transactions.map((t) => t.id)).toEqual([ids[4], ids[1]]);
    expect((await list({ currency: 'USD', type: TransactionType.SWAP })).transactions.map((t) => t.id)).toEqual([
      ids[6],
      ids[3],
      ids[0],
    ]);
    expect((await list({ reference: 'ref-2' })).transactions.map((t) => t.id)).toEqual([ids[2]]);
    expect((await list({ status: TransactionStatus.EXPIRED })).transactions).toEqual([]);
    const window = await list({
      from: timestampFromDate(new Date(base + 2 * 60_000)),
      to: timestampFromDate(new Date(base + 4 * 60_000)),
    });
    expect(window.transactions.map((t) => t.id).sort()).toEqual([ids[2], ids[3], ids[4]].sort());
  });

  it('another business’s transaction is not found, and a bad cursor or page size is refused naming it', async () => {
    const [foreign] = await query<{ id: string }>(
      database.url,
      'select id from payment_transaction where business_id = $1',
      [other],
    );
    await expect(getTransaction(database.em(), business, foreign?.id ?? '')).rejects.toMatchObject({
      reason: 'TRANSACTION_NOT_FOUND',
    });
    await expect(getTransaction(database.em(), business, 'not-a-uuid')).rejects.toMatchObject({
      reason: 'TRANSACTION_NOT_FOUND',
    });
    expect((await getTransaction(database.em(), business, ids[0] ?? '')).id).toBe(ids[0]);
    await expect(list({ page: { cursor: 'bm90IGEgY3Vyc29y' } })).rejects.toMatchObject({
      fieldErrors: { cursor: expect.any(Array) },
    });
    await expect(list({ page: { limit: 101 } })).rejects.toMatchObject({
      fieldErrors: { per_page: expect.any(Array) },
    });
  });

  it('every filter is served by an index at scale: no sequential scan, no sort of the business’s rows', async () => {
    // 20,000 rows of one business and 20,000 of others, then the plans of each list query.
    await query(
      database.url,
      `insert into payment_transaction (id, business_id, type, status, currency, amount, fee, net, description, created_at, updated_at)
       select gen_random_uuid(), case when i % 2 = 0 then $1::uuid else gen_random_uuid() end,
              (array['SWAP','ADJUSTMENT'])[1 + i % 2], (array['SUCCESSFUL','FAILED','PENDING'])[1 + i % 3],
              (array['USD','NGN','GBP'])[1 + i % 3], -10, 0, -10, 'bulk', now() - i * interval '1 second', now()
       from generate_series(1, 40000) as i`,
      [business],
    );
    await query(database.url, 'analyze payment_transaction');
    const filters = [
      '',
      "and status = 'FAILED'",
      "and type = 'ADJUSTMENT'",
      "and currency = 'GBP'",
      "and reference = 'ref-1'",
      "and (created_at, id) < (now(), '00000000-0000-4000-8000-000000000000')",
    ];
    for (const filter of filters) {
      const plan = await query<{ 'QUERY PLAN': string }>(
        database.url,
        `explain select * from payment_transaction where business_id = $1 ${filter} order by created_at desc, id desc limit 16`,
        [business],
      );
      const text = plan.map((row) => row['QUERY PLAN']).join('\n');
      expect(text).not.toMatch(/Seq Scan/);
      // A reference is unique per business: its one row needs no index order.
      if (!filter.includes('reference')) expect(text).not.toMatch(/Sort/);
    }
  });
});
