import { z } from '@corridor/config';
import type {
  Bank as BankMessage,
  Beneficiary as BeneficiaryMessage,
} from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import type { PayoutDestination as DestinationMessage } from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import type { Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { bankJson, beneficiaryJson, destinationJson, payoutJson } from '@corridor/payments-json';
import { Bank, Beneficiary, Payout, PayoutDestination } from './payout-responses.js';
import { present } from './render.js';

/**
 * The payout routes answer @corridor/payments-json's rendering, checked against the documented
 * schema first: a status the contract has no word for, a missing timestamp or an empty destination
 * is a defect of payments (500), never sent to the caller.
 */
function documented<T>(schema: z.ZodType, rendered: T, what: string): T {
  const result = schema.safeParse(rendered);
  if (!result.success)
    throw new Error(`payments sent a ${what} the contract cannot show: ${z.prettifyError(result.error)}`);
  return rendered;
}

/** A response's payout transaction, which payments must always send. */
export const payoutOf = (response: { transaction?: Transaction }) =>
  documented(Payout, payoutJson(present(response.transaction, 'transaction')), 'payout');

export const bankOf = (bank: BankMessage) => documented(Bank, bankJson(bank), 'bank');

export const beneficiaryOf = (beneficiary: BeneficiaryMessage) =>
  documented(Beneficiary, beneficiaryJson(beneficiary), 'beneficiary');

/** An account lookup's answer, which payments must always send. */
export const destinationOf = (response: { destination?: DestinationMessage }) =>
  documented(PayoutDestination, destinationJson(present(response.destination, 'destination')), 'destination');
