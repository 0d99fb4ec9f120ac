import type { CreateCollectionRequest } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import type { Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { failedPrecondition, invalidArgument, notFound, permissionDenied } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { randomBytes, randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { requireCustomer } from '../customers/customer-projection.js';
import { applyTransfers, dateOf, int8, sql, walletAccount, type Row } from '../ledger/index.js';
import { allCurrencies, requireCurrency } from '../reference/currencies.js';
import { feeFor } from '../reference/fee-rule.js';
import { feeRuleFor } from '../reference/fees.js';
import { changeTransactionStatus, insertTransaction, readTransaction } from '../transactions/transaction-store.js';
import { SANDBOX_RAIL } from '../wallets/rail-reservation.js';
import type { CollectionFailureName, CollectionMethodName, CollectionStatusName } from './collection-record.js';
import { requireVirtualAccount } from './virtual-accounts.js';

/** Sandbox-only operations answer 403 in production (DESIGN.md "Rails behind one interface"). */
export function requireSandbox(context: PaymentsContext, what: string): void {
  if (context.environment === 'production') {
    throw permissionDenied('SANDBOX_ONLY', `${what} is a sandbox simulation; production has real banks`);
  }
}

export const positiveAmount = (amount: bigint) => {
  if (amount <= 0n) {
    throw invalidArgument(
      'amount must be a positive whole number of minor units',
      { amount: ['must be a positive whole number of minor units'] },
      'INVALID_AMOUNT',
    );
  }
};

/**
 * Credits a collected amount: the rail's settlement account pays the wallet the net and the fee
 * account the fee, posted at once (money in needs no reservation). Transfer ids derive from the
 * collection, so a repeat changes nothing.
 */
export async function creditCollection(
  tx: EntityManager,
  context: PaymentsContext,
  collection: { id: string; businessId: string; currency: string; amount: bigint; fee: bigint },
): Promise<void> {
  const wallet = walletAccount(collection.businessId, collection.currency);
  const settlement = context.accounts.system('settlement', collection.currency, collection.businessId, SANDBOX_RAIL);
  const fees = context.accounts.system('fees', collection.currency, collection.businessId);
  const ids = await context.accounts.resolve([wallet, settlement, fees], tx);
  const id = (code: string) => ids.get(code) ?? '';
  const net = collection.amount - collection.fee;
  await applyTransfers(tx, [
    ...(net > 0n
      ? [
          {
            id: `collection:${collection.id}:net`,
            phase: 'posted' as const,
            debitAccountId: id(settlement.code),
            creditAccountId: id(wallet.code),
            currency: collection.currency,
            amount: net,
            transactionId: collection.id,
          },
        ]
      : []),
    ...(collection.fee > 0n
      ? [
          {
            id: `collection:${collection.id}:fee`,
            phase: 'posted' as const,
            debitAccountId: id(settlement.code),
            creditAccountId: id(fees.code),
            currency: collection.currency,
            amount: collection.fee,
            transactionId: collection.id,
          },
        ]
      : []),
  ]);
}

export const collectionFee = async (tx: EntityManager, businessId: string, currency: string, amount: bigint) => {
  const fee = feeFor(await feeRuleFor(tx, businessId, 'collection', currency), amount).total;
  // A bank transfer has arrived: the fee can take all of it, never more.
  return fee > amount ? amount : fee;
};

/**
 * Sandbox: a bank transfer arrives in a virtual account (issue 11). An open account credits the
 * business's wallet (fee to the fee account) as a SUCCESSFUL collection; a closed one, or a magic
 * amount the sending bank refuses, is bounced: a FAILED collection and no money moves.
 */
export async function receiveTransfer(
  tx: EntityManager,
  context: PaymentsContext,
  businessId: string,
  request: { virtualAccountId: string; amount: bigint; senderName: string },
): Promise<Transaction> {
  requireSandbox(context, 'an incoming transfer');
  positiveAmount(request.amount);
  // Locked against a close racing the transfer: it arrives before the close or bounces after it.
  const account = await requireVirtualAccount(tx, businessId, request.virtualAccountId, true);
  const currency = String(account.currency);
  const received = context.collectionRail.receive(request.amount);
  const failure: CollectionFailureName | undefined = account.status === 'closed' ? 'account_closed' : received.failure;
  const fee = failure ? 0n : await collectionFee(tx, businessId, currency, request.amount);
  const id = randomUUID();
  const at = await context.clock.now(tx, businessId);
  const transaction = await recordCollection(tx, context, {
    id,
    businessId,
    method: 'bank_transfer',
    status: failure ? 'FAILED' : 'SUCCESSFUL',
    customerId: String(account.customer_id),
    currency,
    amount: request.amount,
    fee,
    railReference: received.reference,
    reference: undefined,
    description: failure
      ? `Transfer from ${request.senderName} to ${String(account.account_number)} bounced (${failure.replaceAll('_', ' ')})`
      : `Transfer from ${request.senderName} to ${String(account.account_number)}`,
    at,
    columns: {
      virtual_account_id: String(account.id),
      sender_name: request.senderName,
      failure_code: failure ?? null,
      completed_at: at,
    },
  });
  // The wallet is credited last (applyTransfers locks it until the commit).
  if (!failure) await creditCollection(tx, context, { id, businessId, currency, amount: request.amount, fee });
  return transaction;
}

export interface NewCollection {
  id: string;
  businessId: string;
  method: CollectionMethodName;
  status: 'PENDING' | 'PROCESSING' | 'SUCCESSFUL' | 'FAILED';
  customerId: string;
  currency: string;
  amount: bigint;
  fee: bigint;
  railReference: string;
  reference: string | undefined;
  description: string;
  at: Date;
  /** Every other column of the collection row, by name (virtual_account_id, payer_email, expires_at…). */
  columns: Record<string, string | number | Date | null>;
}

/**
 * A COLLECTION transaction with its collection row, and its transaction.created event: the one way
 * every method (bank transfer, money request, crypto, Interac) records a collection.
 */
export function recordCollection(tx: EntityManager, context: PaymentsContext, collection: NewCollection) {
  const { id, businessId, currency, amount, fee, at } = collection;
  const columns: Record<string, unknown> = {
    id,
    business_id: businessId,
    method: collection.method,
    status: collection.status.toLowerCase(),
    customer_id: collection.customerId,
    currency,
    amount: amount.toString(),
    fee: fee.toString(),
    rail_reference: collection.railReference,
    created_at: at,
    ...collection.columns,
  };
  const names = Object.keys(columns);
  return insertTransaction(tx, context, {
    id,
    businessId,
    type: 'COLLECTION',
    status: collection.status,
    currency,
    amount,
    fee,
    reference: collection.reference,
    description: collection.description,
    at,
    beforeEvent: async () => {
      await sql(
        tx,
        `insert into collection (${names.join(', ')}) values (${names.map(() => '?').join(', ')})`,
        Object.values(columns),
      );
    },
  });
}

/** The fee of a collection asked for (not yet paid): 422 when the amount would not cover it. */
export async function requestFee(tx: EntityManager, businessId: string, currency: string, amount: bigint) {
  const fee = feeFor(await feeRuleFor(tx, businessId, 'collection', currency), amount).total;
  if (fee >= amount) {
    throw invalidArgument(
      `amount ${amount} does not cover the collection fee of ${fee} minor units`,
      { amount: [`must be more than the fee of ${fee}`] },
      'INVALID_AMOUNT',
    );
  }
  return fee;
}

/**
 * POST /collection: a money request to one of the business's customers (issue 11). PENDING until the
 * payer approves or declines it on its payment link, or it expires (seed 3.5: 48 hours by default).
 */
export async function createCollection(
  tx: EntityManager,
  context: PaymentsContext,
  businessId: string,
  request: CreateCollectionRequest,
): Promise<Transaction> {
  positiveAmount(request.amount);
  const currency = requireCurrency(await allCurrencies(tx), request.currency, 'currency', 'collection');
  const customer = await requireCustomer(tx, context, businessId, request.customerId);
  const fee = await requestFee(tx, businessId, currency.code, request.amount);
  const at = await context.clock.now(tx, businessId);
  return recordCollection(tx, context, {
    id: randomUUID(),
    businessId,
    method: 'money_request',
    status: 'PENDING',
    customerId: customer.id,
    currency: currency.code,
    amount: request.amount,
    fee,
    railReference: '',
    reference: request.reference,
    description: request.description,
    at,
    columns: {
      description: request.description,
      redirect_url: request.redirectUrl ?? null,
      // The payer's credential: 256 random bits, shown only to the business in the payment link.
      payment_token: randomBytes(32).toString('base64url'),
      expires_at: new Date(at.getTime() + context.collectionExpiryMs),
    },
  });
}

export type MoneyRequestOutcome = 'pay' | 'decline' | 'expire';

/**
 * Ends a pending collection (a money request, an Interac request or e-Transfer), under its row lock:
 * paid or accepted (the bank may refuse a magic amount), declined, or expired. One past its expiry
 * time expires whatever was asked, so a late approval never moves money (seed 3.5). Undefined when
 * it was no longer pending.
 */
export async function endPendingCollection(
  tx: EntityManager,
  context: PaymentsContext,
  collection: Row,
  asked: MoneyRequestOutcome,
): Promise<Transaction | undefined> {
  if (collection.status !== 'pending') return undefined;
  const at = await context.clock.now(tx, String(collection.business_id));
  const outcome: MoneyRequestOutcome = dateOf(collection.expires_at) <= at ? 'expire' : asked;
  const id = String(collection.id);
  const amount = int8(collection.amount);
  let status: CollectionStatusName;
  let failure: CollectionFailureName | undefined;
  let railReference = '';
  if (outcome === 'expire') status = 'expired';
  else if (outcome === 'decline') [status, failure] = ['failed', 'declined_by_payer'];
  else {
    const received = context.collectionRail.receive(amount);
    railReference = received.reference;
    [status, failure] = received.failure ? ['failed', received.failure] : ['successful', undefined];
  }
  await sql(
    tx,
    `update collection set status = ?, failure_code = ?, rail_reference = ?, completed_at = ? where id = ?`,
    [status, failure ?? null, railReference, status === 'expired' ? null : at, id],
  );
  const transaction = await changeTransactionStatus(
    tx,
    context,
    id,
    'PENDING',
    status === 'expired' ? 'EXPIRED' : status === 'failed' ? 'FAILED' : 'SUCCESSFUL',
    at,
  );
  // The wallet is credited last (applyTransfers locks it until the commit).
  if (status === 'successful') {
    await creditCollection(tx, context, {
      id,
      businessId: String(collection.business_id),
      currency: String(collection.currency),
      amount,
      fee: int8(collection.fee),
    });
  }
  return transaction;
}

/** Sandbox: the payer pays or declines a money request, or its expiry time comes now. */
export async function settleCollection(
  tx: EntityManager,
  context: PaymentsContext,
  businessId: string,
  collectionId: string,
  outcome: MoneyRequestOutcome,
): Promise<Transaction> {
  requireSandbox(context, 'settling a money request');
  const [collection] = isUuid(collectionId)
    ? await sql(tx, 'select * from collection where id = ? and business_id = ? for update', [collectionId, businessId])
    : [];
  if (!collection) throw notFound('COLLECTION_NOT_FOUND', `no collection ${collectionId} for this business`);
  const payerDecides = collection.method === 'money_request' || collection.method === 'interac_request';
  if (!payerDecides || collection.status !== 'pending') {
    throw failedPrecondition(
      'COLLECTION_NOT_PENDING',
      `collection ${collectionId} is ${payerDecides ? `already ${String(collection.status)}` : `a ${String(collection.method).replaceAll('_', ' ')}`}: only a pending money request or Interac request can be paid, declined or expired`,
    );
  }
  if (outcome === 'expire') {
    // The sandbox's "now" for this request: its expiry time is moved to the present.
    const now = await context.clock.now(tx, String(collection.business_id));
    await sql(tx, 'update collection set expires_at = ? where id = ?', [now, collectionId]);
    collection.expires_at = now;
  }
  await endPendingCollection(tx, context, collection, outcome);
  return readTransaction(tx, collectionId);
}

/**
 * The expiry sweep (seed 3.5): pending money requests past their time become EXPIRED with their
 * event, even when nobody reads them. SKIP LOCKED lets several replicas sweep side by side.
 */
export async function expireDueCollections(em: EntityManager, context: PaymentsContext, batch = 100): Promise<number> {
  return em.transactional(async (tx) => {
    const expired = context.clock.due('collection', 'expires_at');
    const due = await sql(
      tx,
      `select * from collection where status = 'pending' and ${expired.sql}
       order by expires_at limit ? for update skip locked`,
      [...expired.params, batch],
    );
    for (const collection of due) await endPendingCollection(tx, context, collection, 'expire');
    return due.length;
  });
}

/** GET /collection/{id}: the COLLECTION transaction; another business's is indistinguishable from none. */
export async function getCollection(em: EntityManager, businessId: string, id: string): Promise<Transaction> {
  const [row] = isUuid(id)
    ? await sql(em, 'select id from collection where id = ? and business_id = ?', [id, businessId])
    : [];
  if (!row) throw notFound('COLLECTION_NOT_FOUND', `no collection ${id} for this business`);
  return readTransaction(em, id);
}
