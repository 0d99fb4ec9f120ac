import { create, toJson, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { CollectionMethod, RefundStatus } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import {
  AdjustmentDirection,
  TransactionSchema,
  TransactionStatus,
  TransactionType,
  type Transaction,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import {
  CustomerTypeSchema,
  KybScope,
  KybScopeSchema,
  VerificationStatusSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { customerVocabulary } from '@corridor/customer-json';
import { encodeEvent, Environment, EVENT_TYPES, EventSchema, type Event } from '@corridor/contracts/events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  exampleCollectionTransaction,
  exampleRefundTransaction,
} from '../../services/notification/dist/events/collection-webhooks.js';
import { exampleKycSession } from '../../services/notification/dist/events/kyc-session-webhooks.js';
import { examplePayoutTransaction } from '../../services/notification/dist/events/payout-webhooks.js';
import { renderEvent } from '../../services/notification/dist/events/render-event.js';
import { webhookBody } from '../../services/notification/dist/events/webhook-events.js';

/**
 * Records a release's event corpus (issue 33, decision 0049): every event type, and the payload
 * variants consumers tell apart (each transaction type and status, both customer types and KYB
 * scopes, each customer status and trigger, each KYC session ending), encoded by this tree's
 * @corridor/contracts, beside a readable twin: the event as protobuf JSON and the webhook body this
 * tree's notification renders from it (null: platforms are not told). Ids and times are fixed, so
 * the same code records the same bytes.
 *
 *   node test/contracts/record-events.ts <folder>   (deploy/release/contract-record.sh runs it)
 *
 * Node runs it from source (type stripping; `tsc -b test` checks its types), so its paths to the
 * services' built code hold.
 */

type Payload = Exclude<NonNullable<MessageInitShape<typeof EventSchema>['payload']>, { case: undefined }>;

// The business of notification's example transactions and sessions, which this corpus reuses.
const BUSINESS = '00000000-0000-4000-8000-000000000000';
const INDIVIDUAL = '4a2e8c1f-9b3d-4e6a-8f07-2c5d1b9e3a64';
const COMPANY = '7d3f1a90-2c4e-4b58-9a6d-0e1f2b3c4d5e';
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 21, 9, 0) + minutes * 60_000);

/** A transaction as payments stores it, for the types the notification examples do not cover. */
const transaction = (init: MessageInitShape<typeof TransactionSchema>): Transaction =>
  create(TransactionSchema, { businessId: BUSINESS, createdAt: timestampFromDate(at(0)), ...init });

const swap = transaction({
  id: '5e2a7c14-3b9d-4f60-8a21-7c4e9d0b1f36',
  type: TransactionType.SWAP,
  status: TransactionStatus.SUCCESSFUL,
  currency: 'USD',
  amount: -10_000n,
  fee: 50n,
  net: -10_050n,
  description: 'Swap USD to NGN',
  updatedAt: timestampFromDate(at(0)),
  swapDetails: {
    fromCurrency: 'USD',
    fromAmount: 10_000n,
    toCurrency: 'NGN',
    toAmount: 15_250_000n,
    rate: '1525.00',
    fee: 50n,
    quoteId: '1c9e5a37-6d2b-4e80-b4f1-3a7c0e9d2b58',
  },
});
const adjustment = transaction({
  id: '8b4d0e62-1f7a-4c39-9e85-2d6b3a1c7f04',
  type: TransactionType.ADJUSTMENT,
  status: TransactionStatus.SUCCESSFUL,
  currency: 'NGN',
  amount: 500_000n,
  fee: 0n,
  net: 500_000n,
  description: 'Back-office credit',
  updatedAt: timestampFromDate(at(0)),
  adjustmentDetails: { direction: AdjustmentDirection.CREDIT, reason: 'sandbox funding', actor: 'ops@corridor' },
});
const cryptoDeposit = transaction({
  id: '2f7b9d31-0a6c-4e58-b1d4-9c3e7a5f0b62',
  type: TransactionType.COLLECTION,
  status: TransactionStatus.SUCCESSFUL,
  currency: 'USD',
  amount: 125_000n,
  fee: 1_250n,
  net: 123_750n,
  description: 'USDC deposit',
  updatedAt: timestampFromDate(at(12)),
  collectionDetails: {
    method: CollectionMethod.CRYPTO_DEPOSIT,
    customerId: INDIVIDUAL,
    completedAt: timestampFromDate(at(12)),
    railReference: 'sandbox-chain-3a9f',
    crypto: {
      addressId: '6a1e4c82-9d3b-4f07-a5e6-1b8c2d7f3e90',
      asset: 'USDC',
      network: 'ethereum',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      assetAmount: '1250.000000',
      txHash: '0x9fc76417374aa880d4449a1f7f31ec597f00b1f6f3dd2d66f4c9c6c445836d8b',
      confirmations: 12,
      confirmationsRequired: 12,
    },
  },
});
const interacRequest = transaction({
  id: '9d5c3a71-4e2b-4f86-8c07-1a6e9b3d5f24',
  type: TransactionType.COLLECTION,
  status: TransactionStatus.PENDING,
  currency: 'CAD',
  amount: 40_000n,
  fee: 0n,
  net: 40_000n,
  reference: 'interac-2026-0007',
  description: 'Interac request: rent',
  updatedAt: timestampFromDate(at(0)),
  collectionDetails: {
    method: CollectionMethod.INTERAC_REQUEST,
    customerId: INDIVIDUAL,
    description: 'rent',
    expiresAt: timestampFromDate(at(60 * 48)),
    railReference: 'sandbox-interac-51b2',
    payerEmail: 'payer@example.com',
  },
});
const moneyRequest = (status: TransactionStatus) => {
  const expired = exampleCollectionTransaction('EXPIRED');
  return create(TransactionSchema, { ...expired, status, updatedAt: expired.createdAt });
};
/** A collection whose refund began: an update that keeps its status (refund_status changes). */
const refundedCollection = () => {
  const collection = exampleCollectionTransaction('SUCCESSFUL');
  return create(TransactionSchema, { ...collection, refundStatus: RefundStatus.PROCESSING });
};

const created = (value: Transaction): Payload => ({ case: 'transactionCreated', value: { transaction: value } });
const updated = (value: Transaction, previousStatus: TransactionStatus): Payload => ({
  case: 'transactionUpdated',
  value: { transaction: value, previousStatus },
});
const business = {
  id: BUSINESS,
  name: 'Acme Platform',
  apiEnabled: true,
  kybMinimalAllowed: true,
  ipAllowlist: ['203.0.113.0/24'],
  rateLimits: { perMinute: 120, perHour: 1500 },
  createdAt: timestampFromDate(at(0)),
  version: 2n,
  environment: 'sandbox',
};
const credential = (change: 'created' | 'rotated' | 'revoked'): Payload => ({
  case: 'credentialChanged',
  value: {
    change,
    credential: {
      clientId: 'ci_test_8f2c1e9a4b7d',
      businessId: BUSINESS,
      scopes: ['customer:read', 'customer:write', 'payout:write'],
      generation: change === 'created' ? 1 : 2,
      revoked: change === 'revoked',
      createdAt: timestampFromDate(at(0)),
      rotatedAt: timestampFromDate(at(change === 'created' ? 0 : 30)),
    },
  },
});
// Customer events as customer-kyb writes them since 0.3.0: the enums, no words (decision 0061).
const TYPES = customerVocabulary(CustomerTypeSchema);
const SCOPES = customerVocabulary(KybScopeSchema);
const STATUSES = customerVocabulary(VerificationStatusSchema);
const scopeOf = (kybScope: string) => (kybScope === '' ? KybScope.UNSPECIFIED : SCOPES.toProto(kybScope));

const customerCreated = (customerId: string, customerType: string, kybScope: string, displayName: string): Payload => ({
  case: 'customerCreated',
  value: {
    customerId,
    type: TYPES.toProto(customerType),
    scope: scopeOf(kybScope),
    status: STATUSES.toProto('PENDING'),
    displayName,
  },
});
const statusChanged = (
  individual: boolean,
  kybScope: string,
  oldStatus: string,
  newStatus: string,
  trigger: 'submit' | 'review' | 'upgrade',
): Payload => ({
  case: 'customerStatusChanged',
  value: {
    customerId: individual ? INDIVIDUAL : COMPANY,
    type: TYPES.toProto(individual ? 'individual' : 'business'),
    scope: scopeOf(kybScope),
    oldVerificationStatus: STATUSES.toProto(oldStatus),
    newVerificationStatus: STATUSES.toProto(newStatus),
    trigger,
    displayName: individual ? 'Adaeze Okafor' : 'Okafor Trading Ltd',
  },
});

/** The corpus: a file name for each event, in the order a platform's day might produce them. */
const CORPUS: [name: string, payload: Payload][] = [
  ['business-created', { case: 'businessCreated', value: { business } }],
  ['business-updated', { case: 'businessUpdated', value: { business, changedFields: ['ip_allowlist'] } }],
  ['credential-created', credential('created')],
  ['credential-rotated', credential('rotated')],
  ['credential-revoked', credential('revoked')],
  ['customer-created-individual', customerCreated(INDIVIDUAL, 'individual', '', 'Adaeze Okafor')],
  ['customer-created-business-minimal', customerCreated(COMPANY, 'business', 'MINIMAL', 'Okafor Trading Ltd')],
  ['customer-status-individual-submitted', statusChanged(true, '', 'PENDING', 'PROCESSING', 'submit')],
  ['customer-status-individual-verified', statusChanged(true, '', 'PROCESSING', 'VERIFIED', 'review')],
  ['customer-status-business-minimal-rejected', statusChanged(false, 'MINIMAL', 'PROCESSING', 'REJECTED', 'review')],
  ['customer-status-business-full-upgrade', statusChanged(false, 'FULL', 'VERIFIED', 'PROCESSING', 'upgrade')],
  ['customer-status-business-full-verified', statusChanged(false, 'FULL', 'PROCESSING', 'VERIFIED', 'review')],
  [
    'kyc-session-completed-approved',
    { case: 'kycSessionCompleted', value: { session: exampleKycSession('approved') } },
  ],
  [
    'kyc-session-completed-rejected',
    { case: 'kycSessionCompleted', value: { session: exampleKycSession('rejected') } },
  ],
  ['kyc-session-expired', { case: 'kycSessionExpired', value: { session: exampleKycSession('expired') } }],
  ['transaction-swap-created', created(swap)],
  ['transaction-adjustment-created', created(adjustment)],
  ['transaction-payout-created-pending', created(examplePayoutTransaction('pending'))],
  ['transaction-payout-updated-processing', updated(examplePayoutTransaction('processing'), TransactionStatus.PENDING)],
  [
    'transaction-payout-updated-successful',
    updated(examplePayoutTransaction('successful'), TransactionStatus.PROCESSING),
  ],
  ['transaction-payout-updated-failed', updated(examplePayoutTransaction('failed'), TransactionStatus.PROCESSING)],
  ['transaction-payout-updated-reversed', updated(examplePayoutTransaction('reversed'), TransactionStatus.SUCCESSFUL)],
  ['transaction-collection-bank-transfer-created', created(exampleCollectionTransaction('SUCCESSFUL'))],
  [
    'transaction-collection-bank-transfer-failed',
    updated(exampleCollectionTransaction('FAILED'), TransactionStatus.PENDING),
  ],
  ['transaction-collection-money-request-created', created(moneyRequest(TransactionStatus.PENDING))],
  [
    'transaction-collection-money-request-expired',
    updated(exampleCollectionTransaction('EXPIRED'), TransactionStatus.PENDING),
  ],
  ['transaction-collection-crypto-deposit-created', created(cryptoDeposit)],
  ['transaction-collection-interac-request-created', created(interacRequest)],
  ['transaction-collection-refund-started', updated(refundedCollection(), TransactionStatus.SUCCESSFUL)],
  ['transaction-refund-created-processing', created(exampleRefundTransaction('processing'))],
  [
    'transaction-refund-updated-successful',
    updated(exampleRefundTransaction('successful'), TransactionStatus.PROCESSING),
  ],
  ['transaction-refund-updated-failed', updated(exampleRefundTransaction('failed'), TransactionStatus.PROCESSING)],
];

function eventOf(index: number, payload: Payload): Event {
  return create(EventSchema, {
    id: `e0c0a000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
    type: EVENT_TYPES[payload.case],
    occurredAt: timestampFromDate(at(index)),
    businessId: BUSINESS,
    environment: Environment.SANDBOX,
    payload,
  });
}

const unrecorded = Object.values(EVENT_TYPES).filter((type) => !CORPUS.some(([, p]) => EVENT_TYPES[p.case] === type));
if (unrecorded.length > 0) throw new Error(`the corpus records no ${unrecorded.join(', ')}: add them to CORPUS`);

const folder = process.argv[2];
if (!folder) throw new Error('usage: record-events.ts <folder>');
mkdirSync(folder, { recursive: true });
CORPUS.forEach(([name, payload], index) => {
  const event = eventOf(index, payload);
  const rendered = renderEvent(event);
  const file = `${String(index + 1).padStart(2, '0')}-${name}`;
  writeFileSync(join(folder, `${file}.binpb`), encodeEvent(event));
  const twin = {
    event: toJson(EventSchema, event),
    webhook: rendered ? JSON.parse(webhookBody(rendered.eventType, rendered.data)) : null,
  };
  writeFileSync(join(folder, `${file}.json`), `${JSON.stringify(twin, null, 2)}\n`);
});
console.log(`[contracts] ${CORPUS.length} events recorded in ${folder}`);
