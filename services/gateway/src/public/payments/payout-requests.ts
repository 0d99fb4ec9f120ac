import { z } from '@corridor/config';
import { flag, pageCursor, perPage, text, uuidField } from '../../floor/fields.js';
import { accountNumber, bankCode, countryCode, currencyCode, positiveMinorUnits } from './fields.js';
import { REFERENCE_MAX } from './request-schemas.js';

/** What the payout, bank and beneficiary routes read (decision 0013). */

export const NARRATION_MAX = 100;

/** The fields that say where a payout goes: a new destination, or a saved one. */
const DESTINATION_FIELDS = ['bank_code', 'account_number', 'beneficiary_id'] as const;

interface DestinationChoice {
  bank_code?: string;
  account_number?: string;
  beneficiary_id?: string;
}

/**
 * Either bank_code with account_number, or beneficiary_id, never both: each field that is missing
 * or too many is named, so the caller sees which choice it half made.
 */
function requireOneDestination(body: DestinationChoice, context: z.RefinementCtx): void {
  const problem = (field: keyof DestinationChoice, message: string) =>
    context.addIssue({ code: 'custom', path: [field], message });
  const saved = body.beneficiary_id !== undefined;
  if (saved) {
    for (const field of ['bank_code', 'account_number'] as const) {
      if (body[field] !== undefined) {
        problem(field, 'must not be given with beneficiary_id: send bank_code and account_number, or beneficiary_id');
      }
    }
    return;
  }
  const [hasBank, hasAccount] = [body.bank_code !== undefined, body.account_number !== undefined];
  if (!hasBank)
    problem('bank_code', hasAccount ? 'is required with account_number' : 'is required unless beneficiary_id is given');
  if (!hasAccount)
    problem('account_number', hasBank ? 'is required with bank_code' : 'is required unless beneficiary_id is given');
}

export const PayoutBody = z
  .strictObject({
    amount: positiveMinorUnits().meta({
      description: 'minor units the destination receives; the fee is charged on top',
    }),
    currency: currencyCode().meta({
      description: 'the wallet paid from, which must be the destination bank’s currency',
    }),
    bank_code: bankCode().optional(),
    account_number: accountNumber().optional(),
    beneficiary_id: uuidField(
      'a saved destination from GET /api/external/beneficiary, instead of bank_code and account_number',
    ).optional(),
    narration: text(NARRATION_MAX, 'what the recipient’s bank statement shows'),
    reference: text(REFERENCE_MAX, 'your own reference, unique among your transactions'),
    save_beneficiary: flag('save bank_code and account_number as a beneficiary for later payouts').default(false),
  })
  // Checked even when other fields have problems, so one answer names every field to fix.
  .superRefine(requireOneDestination, {
    when: ({ value, issues }) =>
      typeof value === 'object' &&
      value !== null &&
      !issues.some((issue) => DESTINATION_FIELDS.some((field) => issue.path?.[0] === field)),
  })
  .meta({
    description:
      'A payout from your wallet to a bank account: either bank_code and account_number, or beneficiary_id (decision 0013)',
  });

export type PayoutRequest = z.output<typeof PayoutBody>;

export const BankQuery = z.strictObject({
  country: countryCode().meta({ description: 'only banks in this country' }).optional(),
  currency: currencyCode().meta({ description: 'only banks holding accounts in this currency' }).optional(),
});

export const AccountLookupQuery = z.strictObject({
  bank_code: bankCode(),
  account_number: accountNumber(),
});

export const BeneficiaryListQuery = z.strictObject({
  cursor: pageCursor(),
  per_page: perPage('beneficiaries'),
});
