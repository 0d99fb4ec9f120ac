import type { Refund } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import type { CreateRefundRequest } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { failedPrecondition, invalidArgument, notFound } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { applyTransfers, dateOf, eachInItsOwnTransaction, int8, sql, type Row } from '../ledger/index.js';
import { feeFor } from '../reference/fee-rule.js';
import { feeRuleFor } from '../reference/fees.js';
import { changeTransactionStatus, insertTransaction } from '../transactions/transaction-store.js';
import { reserveForRail, settleReservation } from '../wallets/rail-reservation.js';
import { refundOf } from '../collections/collection-record.js';

/** seed 4.4: only EUR and GBP collections, within 7 days, in full, once. */
export const REFUNDABLE_CURRENCIES = ['EUR', 'GBP'] as const;
export const REFUND_WINDOW_MS = 7 * 86_400_000;

/** Each ineligibility is its own 422 (seed 4.4), checked under the collection's row lock. */
function requireRefundable(collection: Row, transaction: Row, request: CreateRefundRequest, now: Date): void {
  const id = String(transaction.id);
  const refuse = (reason: string, message: string, field = 'transaction_id') => {
    throw invalidArgument(message, { [field]: [message.replace(/^[^:]*: /, '')] }, reason);
  };
  if (transaction.status !== 'SUCCESSFUL') {
    refuse(
      'COLLECTION_NOT_SUCCESSFUL',
      `collection ${id} is ${String(transaction.status)}: only a successful collection can be refunded`,
    );
  }
  const currency = String(collection.currency);
  if (!(REFUNDABLE_CURRENCIES as readonly string[]).includes(currency)) {
    refuse(
      'REFUND_CURRENCY_NOT_SUPPORTED',
      `collection ${id} is in ${currency}: refunds are available for ${REFUNDABLE_CURRENCIES.join(' and ')} collections only`,
    );
  }
  const collectedAt = dateOf(collection.completed_at ?? collection.created_at);
  if (now.getTime() - collectedAt.getTime() > REFUND_WINDOW_MS) {
    refuse(
      'REFUND_WINDOW_CLOSED',
      `collection ${id} was collected on ${collectedAt.toISOString()}: a refund must be started within 7 days of the collection`,
    );
  }
  const amount = int8(collection.amount);
  if (request.amount !== undefined && request.amount !== amount) {
    refuse(
      'PARTIAL_REFUND_NOT_SUPPORTED',
      `amount ${request.amount}: only the full amount of the collection, ${amount}, can be refunded`,
      'amount',
    );
  }
}

/** What a refund already claimed means for this request: the same refund again, or a refusal. */
async function existingAnswer(
  tx: EntityManager,
  businessId: string,
  collectionId: string,
  reference: string | undefined,
): Promise<Refund | undefined> {
  if (reference !== undefined) {
    const [named] = await sql(tx, 'select * from refund where business_id = ? and reference = ?', [
      businessId,
      reference,
    ]);
    if (named) {
      if (named.collection_id === collectionId) return refundOf(named);
      throw failedPrecondition(
        'REFERENCE_USED_ON_ANOTHER_TRANSACTION',
        `reference ${JSON.stringify(reference)} already names refund ${String(named.id)} of transaction ${String(named.collection_id)}; a reference can be reused only on the same transaction`,
      );
    }
  }
  const [refunded] = await sql(tx, 'select * from refund where collection_id = ?', [collectionId]);
  if (refunded) {
    throw invalidArgument(
      `collection ${collectionId} already has refund ${String(refunded.id)} (${String(refunded.status)}): each collection is refunded once`,
      { transaction_id: ['is already refunded'] },
      'ALREADY_REFUNDED',
    );
  }
  return undefined;
}

/**
 * POST /refund (seed 2.5, 3.5, 4.4): under the collection's row lock, answers the refund its
 * reference already names, or checks eligibility, claims the refund row (its two unique indexes
 * decide a racing request), reserves the amount from the wallet (pending) and writes the REFUND
 * transaction (PROCESSING, refund_initiated). The refund worker asks the rail for the outcome.
 */
export async function createRefund(
  tx: EntityManager,
  context: PaymentsContext,
  businessId: string,
  request: CreateRefundRequest,
): Promise<{ refund: Refund; existing: boolean }> {
  const [transaction] = isUuid(request.transactionId)
    ? await sql(tx, 'select * from payment_transaction where id = ? and business_id = ? for update', [
        request.transactionId,
        businessId,
      ])
    : [];
  if (!transaction)
    throw notFound('TRANSACTION_NOT_FOUND', `no transaction ${request.transactionId} for this business`);
  const [collection] = await sql(tx, 'select * from collection where id = ?', [request.transactionId]);
  if (!collection) {
    throw invalidArgument(
      `transaction ${request.transactionId} is a ${String(transaction.type)}: only collections can be refunded`,
      { transaction_id: ['is not a collection'] },
      'NOT_A_COLLECTION',
    );
  }
  const collectionId = String(collection.id);
  const existing = await existingAnswer(tx, businessId, collectionId, request.reference);
  if (existing) return { refund: existing, existing: true };

  const now = await context.clock.now(tx, businessId);
  requireRefundable(collection, transaction, request, now);
  const currency = String(collection.currency);
  const amount = int8(collection.amount);
  const fee = feeFor(await feeRuleFor(tx, businessId, 'refund', currency), amount).total;
  const id = randomUUID();
  const sent = context.collectionRail.refund(amount, now);
  const [claimed] = await sql(
    tx,
    `insert into refund (id, business_id, collection_id, status, currency, amount, fee, reason, reference, created_at,
       updated_at, next_check_at)
     values (?, ?, ?, 'processing', ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict do nothing returning *`,
    [
      id,
      businessId,
      collectionId,
      currency,
      amount.toString(),
      fee.toString(),
      request.reason ?? null,
      request.reference ?? null,
      now,
      now,
      sent.decidedAt,
    ],
  );
  if (!claimed) {
    // A request with the same reference on another collection committed first: its answer now.
    const answer = await existingAnswer(tx, businessId, collectionId, request.reference);
    if (answer) return { refund: answer, existing: true };
    throw new Error(`refund of ${collectionId} conflicted with no refund`);
  }

  await sql(tx, `update payment_transaction set refund_status = 'processing', updated_at = ? where id = ?`, [
    now,
    collectionId,
  ]);
  await insertTransaction(tx, context, {
    id,
    businessId,
    type: 'REFUND',
    status: 'PROCESSING',
    currency,
    amount: -amount,
    fee,
    reference: undefined,
    description: `Refund of collection ${collectionId}`,
    at: now,
  });
  // The wallet is locked last (applyTransfers): its other operations wait for no round trip of this one.
  await reserveForRail(tx, context, { kind: 'refund', id, businessId, currency, amount, fee }, () =>
    invalidArgument(
      `the ${currency} wallet's available balance is less than the refund of ${amount + fee} minor units (amount ${amount} + fee ${fee}): a refund returns the collection's full amount, but the wallet was credited that amount less the collection fee (decision 0014), so fund the wallet or wait for other collections`,
      { transaction_id: ['the wallet cannot cover this refund'] },
      'INSUFFICIENT_FUNDS',
    ),
  );
  return { refund: refundOf(claimed), existing: false };
}

export async function getRefund(em: EntityManager, businessId: string, id: string): Promise<Refund> {
  const [row] = isUuid(id)
    ? await sql(em, 'select * from refund where id = ? and business_id = ?', [id, businessId])
    : [];
  if (!row) throw notFound('REFUND_NOT_FOUND', `no refund ${id} for this business`);
  return refundOf(row);
}

/** The refund of a collection, for GET /transaction/{id} (seed 2.5). */
export async function refundOfCollection(em: EntityManager, collectionId: string): Promise<Refund | undefined> {
  const [row] = await sql(em, 'select * from refund where collection_id = ?', [collectionId]);
  return row ? refundOf(row) : undefined;
}

/**
 * The refund worker's pass: refunds whose answer from the rail is due are claimed with SKIP LOCKED
 * (several replicas never decide one refund twice), then posted (successful) or voided (failed, seed
 * 3.5: the money is back in the wallet, nothing to retry), each with its transaction's event, each
 * in a transaction of its own (eachInItsOwnTransaction).
 */
export async function decideDueRefunds(em: EntityManager, context: PaymentsContext, batch = 50): Promise<number> {
  return eachInItsOwnTransaction(
    em,
    batch,
    () => {
      const due = context.clock.due('r', 'next_check_at');
      return {
        sql: `select r.*, c.amount as collection_amount from refund r join collection c on c.id = r.collection_id
              where ${due.sql} and r.status = 'processing'
              order by r.next_check_at limit 1 for update of r skip locked`,
        params: due.params,
      };
    },
    async (tx, refund) => decideRefund(tx, context, refund, await context.clock.now(tx, String(refund.business_id))),
  );
}

async function decideRefund(tx: EntityManager, context: PaymentsContext, refund: Row, now: Date): Promise<void> {
  const id = String(refund.id);
  const { failureReason } = context.collectionRail.refundOutcome(int8(refund.collection_amount));
  const status = failureReason ? 'failed' : 'successful';
  await sql(
    tx,
    `update refund set status = ?, failure_reason = ?, completed_at = ?, updated_at = ?, next_check_at = null where id = ?`,
    [status, failureReason ?? null, now, now, id],
  );
  await sql(tx, 'update payment_transaction set refund_status = ?, updated_at = ? where id = ?', [
    status,
    now,
    String(refund.collection_id),
  ]);
  await changeTransactionStatus(tx, context, id, 'PROCESSING', failureReason ? 'FAILED' : 'SUCCESSFUL', now);
  // The wallet last, as a new refund locks it (after the collection's row): the two never wait on each other in a circle.
  await applyTransfers(
    tx,
    settleReservation({ kind: 'refund', id, fee: int8(refund.fee) }, failureReason ? 'void' : 'post'),
  );
}
