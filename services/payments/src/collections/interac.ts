import type { Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { failedPrecondition, invalidArgument, notFound } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { requireCustomer } from '../customers/customer-projection.js';
import { sql } from '../ledger/index.js';
import { readTransaction } from '../transactions/transaction-store.js';
import {
  collectionFee,
  endPendingCollection,
  positiveAmount,
  recordCollection,
  requestFee,
  requireSandbox,
  type NewCollection,
} from './collect.js';

/**
 * Interac (decision 0015): Canada's rail, CAD only. A money request asks a payer (by email) to pay
 * from their bank; an e-Transfer sent to the business waits for the business to accept it. Both are
 * COLLECTIONs, PENDING until then, and expire like every pending collection.
 */
export const INTERAC_CURRENCY = 'CAD';

// Interac's own rule: an email address, as its online banking forms check it.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function requireEmail(field: string, email: string): void {
  if (!EMAIL.test(email) || email.length > 254) {
    throw invalidArgument(`${field} must be an email address, got ${JSON.stringify(email)}`, {
      [field]: ['must be an email address'],
    });
  }
}

/** A PENDING CAD collection of one of the business's customers, expiring like every pending one. */
async function pendingInterac(
  tx: EntityManager,
  context: PaymentsContext,
  businessId: string,
  pending: Pick<NewCollection, 'method' | 'customerId' | 'amount' | 'fee' | 'reference' | 'description' | 'columns'>,
): Promise<Transaction> {
  const at = await context.clock.now(tx, businessId);
  return recordCollection(tx, context, {
    ...pending,
    id: randomUUID(),
    businessId,
    status: 'PENDING',
    currency: INTERAC_CURRENCY,
    railReference: '',
    at,
    columns: { ...pending.columns, expires_at: new Date(at.getTime() + context.collectionExpiryMs) },
  });
}

/** POST /collection/interac: a CAD money request the payer pays from their bank. */
export async function createInteracRequest(
  tx: EntityManager,
  context: PaymentsContext,
  businessId: string,
  request: { customerId: string; amount: bigint; payerEmail: string; description: string; reference?: string },
): Promise<Transaction> {
  positiveAmount(request.amount);
  requireEmail('payer_email', request.payerEmail);
  const customer = await requireCustomer(tx, context, businessId, request.customerId);
  return pendingInterac(tx, context, businessId, {
    method: 'interac_request',
    customerId: customer.id,
    amount: request.amount,
    fee: await requestFee(tx, businessId, INTERAC_CURRENCY, request.amount),
    reference: request.reference,
    description: request.description,
    columns: { description: request.description, payer_email: request.payerEmail },
  });
}

/** Sandbox: an Interac e-Transfer from one of the business's customers arrives, waiting for acceptance. */
export async function receiveInteracTransfer(
  tx: EntityManager,
  context: PaymentsContext,
  businessId: string,
  request: { customerId: string; amount: bigint; senderName: string; senderEmail: string },
): Promise<Transaction> {
  requireSandbox(context, 'an incoming Interac e-Transfer');
  positiveAmount(request.amount);
  requireEmail('sender_email', request.senderEmail);
  const customer = await requireCustomer(tx, context, businessId, request.customerId);
  return pendingInterac(tx, context, businessId, {
    method: 'interac_transfer',
    customerId: customer.id,
    amount: request.amount,
    fee: await collectionFee(tx, businessId, INTERAC_CURRENCY, request.amount),
    reference: undefined,
    description: `Interac e-Transfer from ${request.senderName}`,
    columns: { sender_name: request.senderName, payer_email: request.senderEmail },
  });
}

/**
 * POST /collection/interac/{id}/accept: the business accepts an e-Transfer sent to it; the money is
 * credited (SUCCESSFUL). 400 when it is no longer pending (accepted, or expired unaccepted).
 */
export async function acceptInteracTransfer(
  tx: EntityManager,
  context: PaymentsContext,
  businessId: string,
  collectionId: string,
): Promise<Transaction> {
  const [collection] = isUuid(collectionId)
    ? await sql(tx, `select * from collection where id = ? and business_id = ? for update`, [collectionId, businessId])
    : [];
  if (!collection || collection.method !== 'interac_transfer') {
    throw notFound('INTERAC_TRANSFER_NOT_FOUND', `no Interac e-Transfer ${collectionId} for this business`);
  }
  if (collection.status !== 'pending') {
    throw failedPrecondition(
      'COLLECTION_NOT_PENDING',
      `Interac e-Transfer ${collectionId} is already ${String(collection.status)}: only a pending one can be accepted`,
    );
  }
  await endPendingCollection(tx, context, collection, 'pay');
  return readTransaction(tx, collectionId);
}
