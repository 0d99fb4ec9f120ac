import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  PaymentRequestViewSchema,
  type PaymentRequestView,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { failedPrecondition, notFound } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import type { PaymentsContext } from '../context.js';
import { dateOf, int8, sql, type Row } from '../ledger/index.js';
import { readTransaction } from '../transactions/transaction-store.js';
import { endPendingCollection } from './collect.js';

/**
 * The payer's side of a money request (the payment link's page, issue 11): what the page shows, and
 * the payer's approval or refusal. The payment token is the payer's only credential.
 */

/** A money request by its payment token (the payer's page): 404 when no such request. */
async function requestByToken(em: EntityManager, token: string, lock: boolean): Promise<Row> {
  const [collection] =
    token.length > 0
      ? await sql(em, `select * from collection where payment_token = ?${lock ? ' for update' : ''}`, [token])
      : [];
  if (!collection) throw notFound('PAYMENT_REQUEST_NOT_FOUND', 'no payment request has this link');
  return collection;
}

async function viewOf(em: EntityManager, context: PaymentsContext, collection: Row): Promise<PaymentRequestView> {
  const transaction = await readTransaction(em, String(collection.id));
  const business = await context.identity?.getBusiness({ id: String(collection.business_id) }).catch(() => undefined);
  return create(PaymentRequestViewSchema, {
    transactionId: transaction.id,
    businessName: business?.business?.name ?? '',
    amount: int8(collection.amount),
    currency: String(collection.currency),
    description: String(collection.description ?? ''),
    status: String(collection.status).toUpperCase(),
    expiresAt: timestampFromDate(dateOf(collection.expires_at)),
    redirectUrl: collection.redirect_url === null ? undefined : String(collection.redirect_url),
  });
}

export async function getPaymentRequest(
  em: EntityManager,
  context: PaymentsContext,
  token: string,
): Promise<PaymentRequestView> {
  return viewOf(em, context, await requestByToken(em, token, false));
}

/**
 * The payer approves or declines on the payment link. 400 when the request is no longer pending;
 * a request past its expiry time expires now and answers EXPIRED.
 */
export async function authorizePaymentRequest(
  em: EntityManager,
  context: PaymentsContext,
  token: string,
  approve: boolean,
): Promise<PaymentRequestView> {
  const collection = await em.transactional(async (tx) => {
    const locked = await requestByToken(tx, token, true);
    if (locked.status !== 'pending') {
      throw failedPrecondition(
        'PAYMENT_REQUEST_NOT_PENDING',
        `this payment request is already ${String(locked.status).toUpperCase()}`,
      );
    }
    await endPendingCollection(tx, context, locked, approve ? 'pay' : 'decline');
    return requestByToken(tx, token, false);
  });
  return viewOf(em, context, collection);
}
