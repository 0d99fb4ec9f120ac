import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { ListTransactionsRequest } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import type { Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { invalidArgument, isUuid, notFound } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import { sql } from '../ledger/index.js';
import { decodeCursor, encodeCursor, type Cursor } from './cursor.js';
import {
  TRANSACTION_COLUMNS,
  transactionOf,
  transactionStatusName,
  transactionTypeName,
} from './transaction-record.js';

export const DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_SIZE = 100;

export async function getTransaction(
  em: EntityManager,
  businessId: string,
  transactionId: string,
): Promise<Transaction> {
  // Another business's transaction is indistinguishable from a missing one (DESIGN.md tenancy).
  const rows = isUuid(transactionId)
    ? await sql(em, `select ${TRANSACTION_COLUMNS} from payment_transaction where id = ? and business_id = ?`, [
        transactionId,
        businessId,
      ])
    : [];
  const [row] = rows;
  if (!row) throw notFound('TRANSACTION_NOT_FOUND', `no transaction ${transactionId} for this business`);
  return transactionOf(row);
}

export interface TransactionPage {
  transactions: Transaction[];
  nextCursor: string | undefined;
  previousCursor: string | undefined;
  limit: number;
}

/**
 * The business's transactions, newest first, one keyset page: each filter is served by an index on
 * (business_id, <filter>, created_at desc, id desc), and no row is counted that is not returned.
 */
export async function listTransactions(
  em: EntityManager,
  businessId: string,
  request: ListTransactionsRequest,
): Promise<TransactionPage> {
  const limit = request.page?.limit ? request.page.limit : DEFAULT_PAGE_SIZE;
  if (limit < 1 || limit > MAX_PAGE_SIZE) {
    throw invalidArgument(`per_page must be between 1 and ${MAX_PAGE_SIZE}`, {
      per_page: [`must be between 1 and ${MAX_PAGE_SIZE}`],
    });
  }
  let cursor: Cursor | undefined;
  if (request.page?.cursor) {
    cursor = decodeCursor(request.page.cursor);
    if (!cursor)
      throw invalidArgument('cursor is not a cursor this API returned', {
        cursor: ['is not a cursor this API returned'],
      });
  }
  const where = ['business_id = ?'];
  const params: unknown[] = [businessId];
  if (request.status !== undefined) {
    where.push('status = ?');
    params.push(transactionStatusName(request.status));
  }
  if (request.type !== undefined) {
    where.push('type = ?');
    params.push(transactionTypeName(request.type));
  }
  if (request.currency !== undefined) {
    where.push('currency = ?');
    params.push(request.currency);
  }
  if (request.reference !== undefined) {
    where.push('reference = ?');
    params.push(request.reference);
  }
  if (request.from) {
    where.push('created_at >= ?');
    params.push(timestampDate(request.from));
  }
  if (request.to) {
    where.push('created_at < ?');
    params.push(timestampDate(request.to));
  }
  const newer = cursor?.direction === 'newer';
  if (cursor) {
    where.push(newer ? '(created_at, id) > (?, ?)' : '(created_at, id) < (?, ?)');
    params.push(cursor.createdAt, cursor.id);
  }
  const order = newer ? 'created_at asc, id asc' : 'created_at desc, id desc';
  const rows = await sql(
    em,
    `select ${TRANSACTION_COLUMNS} from payment_transaction where ${where.join(' and ')} order by ${order} limit ?`,
    [...params, limit + 1],
  );
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (newer) page.reverse();
  const transactions = page.map(transactionOf);
  const first = transactions[0];
  const last = transactions[transactions.length - 1];
  const position = (transaction: Transaction | undefined, direction: Cursor['direction']) =>
    transaction?.createdAt
      ? encodeCursor({ createdAt: timestampDate(transaction.createdAt), id: transaction.id, direction })
      : undefined;
  // Reading older: newer rows exist whenever we came from a cursor. Reading newer: older rows exist.
  const hasOlder = newer ? true : more;
  const hasNewer = newer ? more : cursor !== undefined;
  return {
    transactions,
    nextCursor: hasOlder ? position(last, 'older') : undefined,
    previousCursor: hasNewer ? position(first, 'newer') : undefined,
    limit,
  };
}
