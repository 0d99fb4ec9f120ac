import type { DescEnum } from '@bufbuild/protobuf';
import { CurrencyOperationSchema, FeeOperationSchema } from '@corridor/contracts/corridor/payments/v1/money_pb';
import {
  CollectionFailureCode,
  CollectionFailureCodeSchema,
  CollectionMethod,
  CollectionMethodSchema,
  RefundStatusSchema,
  VirtualAccountCloseReason,
  VirtualAccountCloseReasonSchema,
  VirtualAccountStatus,
  VirtualAccountStatusSchema,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import {
  AdjustmentDirection,
  AdjustmentDirectionSchema,
  AmountSide,
  AmountSideSchema,
  TransactionStatusSchema,
  TransactionType,
  TransactionTypeSchema,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { CurrencyOperation, FeeOperation } from '@corridor/contracts/corridor/payments/v1/money_pb';
import {
  AccountScheme,
  AccountSchemeSchema,
  PayoutFailureCode,
  PayoutFailureCodeSchema,
  PayoutStatus,
  PayoutStatusSchema,
} from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import { PAYOUT_STATUS_WORDS, REFUND_STATUS_WORDS } from '@corridor/payments-json';
import { CUSTOMER_TYPES } from '../customers/fields.js';
import { openApiDocument } from '../../openapi/document.js';
import { PAYMENT_ROUTES } from './index.js';
import {
  type ProtoVocabulary,
  ACCOUNT_SCHEMES,
  ADJUSTMENT_DIRECTIONS,
  AMOUNT_SIDES,
  COLLECTION_FAILURE_CODES,
  COLLECTION_METHODS,
  CURRENCY_OPERATIONS,
  FEE_OPERATIONS,
  PAYOUT_FAILURE_CODES,
  PAYOUT_STATUSES,
  REFUND_STATUSES,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  VIRTUAL_ACCOUNT_CLOSE_REASONS,
  VIRTUAL_ACCOUNT_STATUSES,
} from './vocabulary.js';

/**
 * One vocabulary (DESIGN.md "Contracts are typed"): the words of the public contract and the proto
 * enums they are sent as cannot drift apart.
 */

/**
 * The public words of a proto enum, spelled from the value names independently of vocabulary.ts:
 * TRANSACTION_TYPE_SWAP less its enum's prefix is SWAP.
 */
function wordsOf(descriptor: DescEnum, casing: 'upper' | 'lower'): string[] {
  const prefix = `${descriptor.name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}_`;
  return descriptor.values
    .filter((value) => value.number !== 0)
    .map((value) => {
      expect(value.name.startsWith(prefix)).toBe(true);
      const word = value.name.slice(prefix.length);
      return casing === 'upper' ? word : word.toLowerCase();
    });
}

describe('the payments vocabulary', () => {
  it('maps the words the contract names to the proto values', () => {
    expect(TRANSACTION_TYPES.toProto('SWAP')).toBe(TransactionType.SWAP);
    expect(TRANSACTION_TYPES.toWord(TransactionType.ADJUSTMENT, 'type')).toBe('ADJUSTMENT');
    expect(AMOUNT_SIDES.toProto('from')).toBe(AmountSide.FROM);
    expect(AMOUNT_SIDES.toProto('to')).toBe(AmountSide.TO);
    expect(FEE_OPERATIONS.toProto('swap')).toBe(FeeOperation.SWAP);
    expect(CURRENCY_OPERATIONS.toWord(CurrencyOperation.VIRTUAL_ACCOUNT, 'operations')).toBe('virtual_account');
    expect(ADJUSTMENT_DIRECTIONS.toProto('debit')).toBe(AdjustmentDirection.DEBIT);
    expect(PAYOUT_STATUSES.toWord(PayoutStatus.REVERSED, 'status')).toBe('reversed');
    expect(PAYOUT_FAILURE_CODES.toWord(PayoutFailureCode.RETURNED_BY_BANK, 'failure_reason')).toBe('returned_by_bank');
    expect(ACCOUNT_SCHEMES.toWord(AccountScheme.SORT_CODE, 'scheme')).toBe('sort_code');
    expect(VIRTUAL_ACCOUNT_STATUSES.toProto('closed')).toBe(VirtualAccountStatus.CLOSED);
    expect(VIRTUAL_ACCOUNT_CLOSE_REASONS.toWord(VirtualAccountCloseReason.CUSTOMER_REJECTED, 'close_reason')).toBe(
      'customer_rejected',
    );
    expect(COLLECTION_METHODS.toWord(CollectionMethod.MONEY_REQUEST, 'method')).toBe('money_request');
    expect(COLLECTION_METHODS.toWord(CollectionMethod.CRYPTO_DEPOSIT, 'method')).toBe('crypto_deposit');
    expect(COLLECTION_METHODS.toWord(CollectionMethod.INTERAC_TRANSFER, 'method')).toBe('interac_transfer');
    expect(COLLECTION_FAILURE_CODES.toWord(CollectionFailureCode.DECLINED_BY_PAYER, 'failure_reason')).toBe(
      'declined_by_payer',
    );
  });

  it('has the payout and refund statuses @corridor/payments-json renders, in the same order', () => {
    expect(PAYOUT_STATUSES.words).toEqual(PAYOUT_STATUS_WORDS);
    expect(REFUND_STATUSES.words).toEqual(REFUND_STATUS_WORDS);
  });

  const VOCABULARIES: [ProtoVocabulary<number>, DescEnum, 'upper' | 'lower'][] = [
    [TRANSACTION_TYPES, TransactionTypeSchema, 'upper'],
    [TRANSACTION_STATUSES, TransactionStatusSchema, 'upper'],
    [REFUND_STATUSES, RefundStatusSchema, 'lower'],
    [AMOUNT_SIDES, AmountSideSchema, 'lower'],
    [ADJUSTMENT_DIRECTIONS, AdjustmentDirectionSchema, 'lower'],
    [FEE_OPERATIONS, FeeOperationSchema, 'lower'],
    [CURRENCY_OPERATIONS, CurrencyOperationSchema, 'lower'],
    [PAYOUT_STATUSES, PayoutStatusSchema, 'lower'],
    [PAYOUT_FAILURE_CODES, PayoutFailureCodeSchema, 'lower'],
    [ACCOUNT_SCHEMES, AccountSchemeSchema, 'lower'],
    [VIRTUAL_ACCOUNT_STATUSES, VirtualAccountStatusSchema, 'lower'],
    [VIRTUAL_ACCOUNT_CLOSE_REASONS, VirtualAccountCloseReasonSchema, 'lower'],
    [COLLECTION_METHODS, CollectionMethodSchema, 'lower'],
    [COLLECTION_FAILURE_CODES, CollectionFailureCodeSchema, 'lower'],
  ];

  it.each(VOCABULARIES)('%# has a word for every value but UNSPECIFIED, and back', (vocabulary, descriptor, casing) => {
    expect(vocabulary.words).toEqual(wordsOf(descriptor, casing));
    for (const value of descriptor.values.filter(({ number }) => number !== 0)) {
      expect(vocabulary.toProto(vocabulary.toWord(value.number, 'field'))).toBe(value.number);
    }
    expect(() => vocabulary.toWord(0, 'field')).toThrow(/not a corridor\.payments\.v1\./);
    expect(() => vocabulary.toWord(1_000, 'field')).toThrow(RangeError);
    expect(() => vocabulary.toProto('UNSPECIFIED')).toThrow(RangeError);
    expect(() => vocabulary.toProto('unspecified')).toThrow(RangeError);
  });
});

describe('the OpenAPI document against the payments protos', () => {
  const document = openApiDocument({ tokenRequestsPerMinute: 30 });

  /** Every `enum` under `node`, by its JSON pointer. */
  function enumsUnder(node: unknown, pointer: string, found: Map<string, unknown[]>): Map<string, unknown[]> {
    if (Array.isArray(node)) node.forEach((item, index) => enumsUnder(item, `${pointer}/${index}`, found));
    else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'enum' && Array.isArray(value)) found.set(pointer, value);
        else enumsUnder(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, found);
      }
    }
    return found;
  }

  const PAYMENT_SCHEMAS = [
    ...['Currency', 'RateQuote', 'FeeBreakdown', 'Wallet', 'SwapDetails', 'Transaction'],
    ...['Bank', 'PayoutDestination', 'Payout', 'Beneficiary'],
    ...['TransactionWithRefund', 'VirtualAccount', 'IdentificationType', 'CollectionDetails', 'Refund'],
    ...['CryptoDeposit', 'CryptoNetwork', 'CryptoAddress'],
  ];
  const documented = new Map<string, unknown[]>();
  for (const name of PAYMENT_SCHEMAS) {
    enumsUnder(document.components?.schemas?.[name], `#/components/schemas/${name}`, documented);
  }
  for (const route of PAYMENT_ROUTES) {
    const path = route.path.replace(/\//g, '~1');
    enumsUnder(document.paths?.[route.path]?.[route.method], `#/paths/${path}/${route.method}`, documented);
  }

  /** Where each public enum sits in the document, and the proto enum it is sent as or read from. */
  const SENT_AS: Record<string, [DescEnum, 'upper' | 'lower']> = {
    '#/components/schemas/Currency/properties/operations/items': [CurrencyOperationSchema, 'lower'],
    '#/components/schemas/FeeBreakdown/properties/type': [FeeOperationSchema, 'lower'],
    '#/components/schemas/SwapDetails/properties/amount_side': [AmountSideSchema, 'lower'],
    '#/components/schemas/Transaction/properties/type': [TransactionTypeSchema, 'upper'],
    '#/components/schemas/Transaction/properties/status': [TransactionStatusSchema, 'upper'],
    '#/components/schemas/Transaction/properties/refund_status/anyOf/0': [RefundStatusSchema, 'lower'],
    '#/components/schemas/Bank/properties/scheme': [AccountSchemeSchema, 'lower'],
    '#/components/schemas/Payout/properties/status': [PayoutStatusSchema, 'lower'],
    '#/components/schemas/Payout/properties/failure_reason/anyOf/0': [PayoutFailureCodeSchema, 'lower'],
    '#/paths/~1api~1external~1fees/get/parameters/0/schema': [FeeOperationSchema, 'lower'],
    '#/paths/~1api~1external~1swap/post/requestBody/content/application~1json/schema/properties/amount_side': [
      AmountSideSchema,
      'lower',
    ],
    '#/paths/~1api~1external~1transaction/get/parameters/0/schema': [TransactionStatusSchema, 'upper'],
    '#/paths/~1api~1external~1transaction/get/parameters/1/schema': [TransactionTypeSchema, 'upper'],
    '#/components/schemas/TransactionWithRefund/properties/type': [TransactionTypeSchema, 'upper'],
    '#/components/schemas/TransactionWithRefund/properties/status': [TransactionStatusSchema, 'upper'],
    '#/components/schemas/TransactionWithRefund/properties/refund_status/anyOf/0': [RefundStatusSchema, 'lower'],
    '#/components/schemas/VirtualAccount/properties/status': [VirtualAccountStatusSchema, 'lower'],
    '#/components/schemas/VirtualAccount/properties/close_reason/anyOf/0': [VirtualAccountCloseReasonSchema, 'lower'],
    '#/components/schemas/CollectionDetails/properties/method': [CollectionMethodSchema, 'lower'],
    '#/components/schemas/CollectionDetails/properties/failure_reason/anyOf/0': [CollectionFailureCodeSchema, 'lower'],
    '#/components/schemas/Refund/properties/status': [RefundStatusSchema, 'lower'],
    '#/paths/~1api~1external~1virtual-account/get/parameters/2/schema': [VirtualAccountStatusSchema, 'lower'],
  };

  /** Public enums that are no proto enum: customer-kyb sends customer types as these strings. */
  const STRING_WORDS: Record<string, readonly string[]> = {
    '#/components/schemas/IdentificationType/properties/customer_types/items': CUSTOMER_TYPES,
  };

  it('has no public enum of payments that is not held against its proto enum (or its string words) here', () => {
    expect([...documented.keys()].sort()).toEqual([...Object.keys(SENT_AS), ...Object.keys(STRING_WORDS)].sort());
  });

  it.each(Object.entries(STRING_WORDS))('%s lists exactly its words', (pointer, words) => {
    expect(documented.get(pointer)).toEqual(words);
  });

  it.each(Object.entries(SENT_AS))('%s lists exactly the words of its proto enum', (pointer, [descriptor, casing]) => {
    const words = documented.get(pointer);
    const proto = wordsOf(descriptor, casing);
    // Both directions: no word the proto lacks, no proto value the document lacks.
    expect([...(words ?? [])].sort()).toEqual([...proto].sort());
    expect(words).toHaveLength(new Set(words).size);
  });

  it('documents each query parameter where the pointers above expect it', () => {
    const parameter = (path: string, index: number) =>
      (document.paths?.[path]?.get?.parameters?.[index] as { name?: string } | undefined)?.name;
    expect(parameter('/api/external/fees', 0)).toBe('type');
    expect(parameter('/api/external/transaction', 0)).toBe('status');
    expect(parameter('/api/external/transaction', 1)).toBe('type');
    expect(parameter('/api/external/virtual-account', 2)).toBe('status');
  });
});
