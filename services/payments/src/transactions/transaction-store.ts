import { recordEvent } from '@corridor/bus';
import { environmentFromName, newEvent } from '@corridor/contracts/events';
import type { Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { alreadyExists } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import type { PaymentsContext } from '../context.js';
import { sql } from '../ledger/index.js';
import {
  TRANSACTION_COLUMNS,
  transactionOf,
  transactionStatusOf,
  type StoredAdjustmentDetails,
  type StoredSwapDetails,
  type TransactionStatusName,
  type TransactionTypeName,
} from './transaction-record.js';

export interface NewTransaction {
  id: string;
  businessId: string;
  type: TransactionTypeName;
  status: TransactionStatusName;
  currency: string;
  /** Signed as the wallet sees it: negative when money leaves. */
  amount: bigint;
  fee: bigint;
  reference: string | undefined;
  description: string;
  swapDetails?: StoredSwapDetails;
  adjustmentDetails?: StoredAdjustmentDetails;
  at: Date;
  /** Rows that belong with the transaction (a payout's), written before its event is made. */
  beforeEvent?: () => Promise<void>;
}

const REFERENCE_TAKEN = 'payment_transaction_reference_unique';

/**
 * Writes a transaction and its transaction.created event in the unit of work of `tx` (outbox).
 * A reference already used by the business is refused by the unique index, not by a read first.
 */
export async function insertTransaction(
  tx: EntityManager,
  context: PaymentsContext,
  input: NewTransaction,
): Promise<Transaction> {
  let rows;
  try {
    rows = await sql(
      tx,
      `insert into payment_transaction (id, business_id, type, status, currency, amount, fee, net, reference,
         description, swap_details, adjustment_details, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?)
       returning ${TRANSACTION_COLUMNS}`,
      [
        input.id,
        input.businessId,
        input.type,
        input.status,
        input.currency,
        input.amount.toString(),
        input.fee.toString(),
        (input.amount - input.fee).toString(),
        input.reference ?? null,
        input.description,
        input.swapDetails ? JSON.stringify(input.swapDetails) : null,
        input.adjustmentDetails ? JSON.stringify(input.adjustmentDetails) : null,
        input.at,
        input.at,
      ],
    );
  } catch (error) {
    if ((error as { constraint?: unknown }).constraint === REFERENCE_TAKEN) {
      throw alreadyExists(
        'REFERENCE_ALREADY_USED',
        `reference ${JSON.stringify(input.reference)} is already used by another transaction of this business; send a new reference, or the same Idempotency-Key to get the first answer again`,
      );
    }
    throw error;
  }
  const [inserted] = rows;
  if (!inserted) throw new Error('insert into payment_transaction returned no row');
  let transaction = transactionOf(inserted);
  if (input.beforeEvent) {
    await input.beforeEvent();
    transaction = await readTransaction(tx, input.id);
  }
  recordEvent(tx, {
    topic: context.topic,
    key: transaction.id,
    event: newEvent({
      businessId: input.businessId,
      environment: environmentFromName(context.environment),
      occurredAt: input.at,
      payload: { case: 'transactionCreated', value: { transaction } },
    }),
  });
  return transaction;
}

/**
 * Moves a transaction from one status to another and records transaction.updated with it, in `tx`.
 * Undefined when it was no longer in `from` (another worker got there first): nothing is written.
 */
export async function changeTransactionStatus(
  tx: EntityManager,
  context: PaymentsContext,
  id: string,
  from: TransactionStatusName,
  to: TransactionStatusName,
  at: Date,
): Promise<Transaction | undefined> {
  const updated = await sql(
    tx,
    'update payment_transaction set status = ?, updated_at = ? where id = ? and status = ? returning id',
    [to, at, id, from],
  );
  if (updated.length === 0) return undefined;
  const [row] = await sql(tx, `select ${TRANSACTION_COLUMNS} from payment_transaction where id = ?`, [id]);
  if (!row) throw new Error(`transaction ${id} vanished`);
  const transaction = transactionOf(row);
  recordEvent(tx, {
    topic: context.topic,
    key: transaction.id,
    event: newEvent({
      businessId: transaction.businessId,
      environment: environmentFromName(context.environment),
      occurredAt: at,
      payload: { case: 'transactionUpdated', value: { transaction, previousStatus: transactionStatusOf(from) } },
    }),
  });
  return transaction;
}

/** One transaction with its payout, as written so far in `tx`. */
export async function readTransaction(tx: EntityManager, id: string): Promise<Transaction> {
  const [row] = await sql(tx, `select ${TRANSACTION_COLUMNS} from payment_transaction where id = ?`, [id]);
  if (!row) throw new Error(`transaction ${id} not found`);
  return transactionOf(row);
}
