import { environmentFromName, newEvent, recordEvent } from '@corridor/bus';
import type { Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { alreadyExists } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import type { PaymentsContext } from '../context.js';
import { sql } from '../ledger/index.js';
import {
  transactionOf,
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
       returning *`,
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
  const [row] = rows;
  if (!row) throw new Error('insert into payment_transaction returned no row');
  const transaction = transactionOf(row);
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
