import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { ListTransactionsRequest } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import type { Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { notFound } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { dateOf, sql } from '../ledger/index.js';
import { keysetPage, keysetRead } from '@corridor/pagination';
import {
  TRANSACTION_COLUMNS,
  transactionOf,
  transactionStatusName,
  transactionTypeName,
} from './transaction-record.js';

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
  const read = keysetRead(request.page);
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
  if (read.seek) {
    where.push(read.seek);
    params.push(...read.seekParams);
  }
  const rows = await sql(
    em,
    `select ${TRANSACTION_COLUMNS} from payment_transaction where ${where.join(' and ')} order by ${read.order} limit ?`,
    [...params, read.limit + 1],
  );
  const page = keysetPage(rows, read, (row) => ({ createdAt: dateOf(row.created_at), id: String(row.id) }));
  return {
    transactions: page.rows.map(transactionOf),
    nextCursor: page.nextCursor,
    previousCursor: page.previousCursor,
    limit: page.limit,
  };
}
