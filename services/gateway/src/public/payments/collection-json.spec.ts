import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { z } from '@corridor/config';
import {
  CollectionFailureCodeSchema,
  CollectionMethodSchema,
  RefundStatusSchema,
  VirtualAccountCloseReasonSchema,
  VirtualAccountStatusSchema,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import {
  type collectionDetailsJson,
  type cryptoAddressJson,
  type cryptoDepositJson,
  type cryptoNetworkJson,
  type identificationTypeJson,
  refundJson,
  virtualAccountJson,
} from '@corridor/payments-json';
import {
  collectionOf,
  cryptoAddressJsonOf,
  cryptoNetworkOf,
  identificationTypeOf,
  refundJsonOf,
  virtualAccountJsonOf,
} from './collection-render.js';
import {
  type CollectionDetails,
  type CryptoAddress,
  type CryptoDeposit,
  type CryptoNetwork,
  type IdentificationType,
  Refund,
  VirtualAccount,
} from './collection-responses.js';
import {
  identificationTypes,
  moneyRequestTransaction,
  refund,
  refundTransaction,
  virtualAccount,
  VIRTUAL_ACCOUNT_JSON,
} from '../../../test/public/payments/collection.fixtures.js';
import {
  CRYPTO_ADDRESS_JSON,
  cryptoAddress,
  cryptoDepositTransaction,
  cryptoNetworks,
  INTERAC_REQUEST_JSON,
  interacRequestTransaction,
  interacTransferTransaction,
} from '../../../test/public/payments/crypto-interac.fixtures.js';
import { transactionJson } from './render.js';
import { Transaction } from './response-schemas.js';

/**
 * The documented schemas against @corridor/payments-json, the one renderer of collection JSON: what
 * it renders is what the OpenAPI document promises, field for field and word for word.
 */

// Compile-time half: the renderer's fields and the schema's are the same names.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const sameFields: [
  SameKeys<ReturnType<typeof virtualAccountJson>, z.output<typeof VirtualAccount>>,
  SameKeys<ReturnType<typeof identificationTypeJson>, z.output<typeof IdentificationType>>,
  SameKeys<ReturnType<typeof collectionDetailsJson>, z.output<typeof CollectionDetails>>,
  SameKeys<ReturnType<typeof refundJson>, z.output<typeof Refund>>,
  SameKeys<ReturnType<typeof transactionJson>, z.output<typeof Transaction>>,
  SameKeys<ReturnType<typeof cryptoNetworkJson>, z.output<typeof CryptoNetwork>>,
  SameKeys<ReturnType<typeof cryptoAddressJson>, z.output<typeof CryptoAddress>>,
  SameKeys<ReturnType<typeof cryptoDepositJson>, z.output<typeof CryptoDeposit>>,
] = [true, true, true, true, true, true, true, true];

const DONE = timestampFromDate(new Date('2026-11-21T09:05:00.000Z'));
const named = <T extends { number: number }>(values: readonly T[]) => values.filter(({ number }) => number !== 0);
const link = (token: string) => `https://api.corridor.example/pay/${token}`;

describe('the collection JSON schemas against @corridor/payments-json', () => {
  it('hold the same fields as the renderer', () => {
    expect(sameFields).toEqual([true, true, true, true, true, true, true, true]);
  });

  it('the crypto networks, addresses and deposits render within their schemas', () => {
    for (const network of cryptoNetworks()) expect(() => cryptoNetworkOf(network)).not.toThrow();
    expect(cryptoAddressJsonOf(cryptoAddress())).toEqual(CRYPTO_ADDRESS_JSON);
    for (const transaction of [cryptoDepositTransaction(), interacRequestTransaction(), interacTransferTransaction()]) {
      expect(Transaction.safeParse(transactionJson(transaction, link)).error).toBeUndefined();
    }
    expect(transactionJson(interacRequestTransaction(), link)).toEqual(INTERAC_REQUEST_JSON);
  });

  it('an open account renders as the contract writes it, and the schema accepts it', () => {
    expect(virtualAccountJsonOf(virtualAccount())).toEqual(VIRTUAL_ACCOUNT_JSON);
  });

  it.each(named(VirtualAccountStatusSchema.values))(
    'an account with status %s renders within the schema',
    ({ number }) => {
      expect(VirtualAccount.safeParse(virtualAccountJson(virtualAccount({ status: number }))).error).toBeUndefined();
    },
  );

  it.each(named(VirtualAccountCloseReasonSchema.values))(
    'an account closed as %s renders within the schema',
    ({ number }) => {
      const closed = virtualAccount({ status: 2, closedAt: DONE, closeReason: number });
      expect(VirtualAccount.safeParse(virtualAccountJson(closed)).error).toBeUndefined();
    },
  );

  it('the identification types render within their schema', () => {
    for (const type of identificationTypes()) expect(() => identificationTypeOf(type)).not.toThrow();
  });

  it.each(named(CollectionMethodSchema.values))('a collection by method %s renders within the schema', ({ number }) => {
    const transaction = moneyRequestTransaction({ method: number });
    expect(Transaction.safeParse(transactionJson(transaction, link)).error).toBeUndefined();
  });

  it.each(named(CollectionFailureCodeSchema.values))(
    'a collection failed as %s renders within the schema',
    ({ number }) => {
      const transaction = moneyRequestTransaction({ failureCode: number, completedAt: DONE });
      expect(Transaction.safeParse(transactionJson(transaction, link)).error).toBeUndefined();
    },
  );

  it.each(named(RefundStatusSchema.values))('a refund with status %s renders within the schema', ({ number }) => {
    expect(Refund.safeParse(refundJson(refund({ status: number, completedAt: DONE }))).error).toBeUndefined();
  });

  it('a REFUND transaction carries its refund within the Transaction schema', () => {
    expect(Transaction.safeParse(transactionJson(refundTransaction())).error).toBeUndefined();
  });

  it('links a money request only where a link is made: the admin listener answers payment_link null', () => {
    expect(transactionJson(moneyRequestTransaction(), link).collection_details?.payment_link).toMatch(
      /^https:\/\/api\.corridor\.example\/pay\/[A-Za-z0-9_-]+$/,
    );
    expect(transactionJson(moneyRequestTransaction()).collection_details?.payment_link).toBeNull();
  });

  it('refuses to answer what the schema does not promise: an UNSPECIFIED word, a negative refund, no transaction', () => {
    expect(() => virtualAccountJsonOf(virtualAccount({ status: 0 }))).toThrow(/status/);
    expect(() => refundJsonOf(refund({ amount: -1n }))).toThrow(/refund the contract cannot show/);
    expect(() => refundJsonOf(refund({ status: 0 }))).toThrow(/status/);
    expect(() => collectionOf({}, link)).toThrow(/no transaction/);
    expect(() => collectionOf({ transaction: refundTransaction() }, link)).toThrow(/not a collection/);
  });
});
