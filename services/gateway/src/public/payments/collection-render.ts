import type {
  CryptoAddress as CryptoAddressMessage,
  CryptoNetwork as CryptoNetworkMessage,
  IdentificationType as IdentificationTypeMessage,
  Refund as RefundMessage,
  VirtualAccount as VirtualAccountMessage,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import type { Transaction as TransactionMessage } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import {
  cryptoAddressJson,
  cryptoNetworkJson,
  identificationTypeJson,
  refundJson,
  virtualAccountJson,
} from '@corridor/payments-json';
import { CryptoAddress, CryptoNetwork, IdentificationType, Refund, VirtualAccount } from './collection-responses.js';
import { documented, present, transactionJson, type PaymentLinkOf } from './render.js';
import { Transaction } from './response-schemas.js';

/**
 * The collection routes answer @corridor/payments-json's rendering, checked against the documented
 * schema first (render.ts documented): what the contract cannot show is a 500, never sent.
 */

export const virtualAccountJsonOf = (account: VirtualAccountMessage) =>
  documented(VirtualAccount, virtualAccountJson(account), 'virtual account');

/** A response's virtual account, which payments must always send. */
export const virtualAccountOf = (response: { virtualAccount?: VirtualAccountMessage }) =>
  virtualAccountJsonOf(present(response.virtualAccount, 'virtual_account'));

export const identificationTypeOf = (type: IdentificationTypeMessage) =>
  documented(IdentificationType, identificationTypeJson(type), 'identification type');

export const cryptoNetworkOf = (network: CryptoNetworkMessage) =>
  documented(CryptoNetwork, cryptoNetworkJson(network), 'crypto network');

export const cryptoAddressJsonOf = (address: CryptoAddressMessage) =>
  documented(CryptoAddress, cryptoAddressJson(address), 'crypto address');

/** A response's crypto address, which payments must always send. */
export const cryptoAddressOf = (response: { address?: CryptoAddressMessage }) =>
  cryptoAddressJsonOf(present(response.address, 'address'));

export const refundJsonOf = (refund: RefundMessage) => documented(Refund, refundJson(refund), 'refund');

/** A response's refund, which payments must always send. */
export const refundOf = (response: { refund?: RefundMessage }) => refundJsonOf(present(response.refund, 'refund'));

/** A response's transaction, which must be a collection (a sandbox transfer, a money request and its outcome). */
export function collectionOf(response: { transaction?: TransactionMessage }, paymentLinkOf: PaymentLinkOf) {
  const transaction = present(response.transaction, 'transaction');
  if (!transaction.collectionDetails) throw new Error(`transaction ${transaction.id} is not a collection`);
  return documented(Transaction, transactionJson(transaction, paymentLinkOf), 'collection');
}
