import type {
  Bank as BankMessage,
  Beneficiary as BeneficiaryMessage,
} from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import type { PayoutDestination as DestinationMessage } from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import type { Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { bankJson, beneficiaryJson, destinationJson, payoutJson } from '@corridor/payments-json';
import { Bank, Beneficiary, Payout, PayoutDestination } from './payout-responses.js';
import { documented, present } from './render.js';

/**
 * The payout routes answer @corridor/payments-json's rendering, checked against the documented
 * schema first (render.ts documented): a status the contract has no word for is a 500, never sent.
 */

/** A response's payout transaction, which payments must always send. */
export const payoutOf = (response: { transaction?: Transaction }) =>
  documented(Payout, payoutJson(present(response.transaction, 'transaction')), 'payout');

export const bankOf = (bank: BankMessage) => documented(Bank, bankJson(bank), 'bank');

export const beneficiaryOf = (beneficiary: BeneficiaryMessage) =>
  documented(Beneficiary, beneficiaryJson(beneficiary), 'beneficiary');

/** An account lookup's answer, which payments must always send. */
export const destinationOf = (response: { destination?: DestinationMessage }) =>
  documented(PayoutDestination, destinationJson(present(response.destination, 'destination')), 'destination');
