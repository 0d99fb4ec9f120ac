import { z } from '@corridor/config';
import { cursorList } from '../../floor/pages/cursor-page.js';
import { ACCOUNT_SCHEMES, PAYOUT_FAILURE_CODES, PAYOUT_STATUSES } from './vocabulary.js';

/**
 * The closed JSON of payouts, banks and beneficiaries as @corridor/payments-json renders it (the
 * one renderer, shared with the payout webhooks); payout-json.spec.ts holds the two together.
 */

const instant = (description: string) => z.iso.datetime().meta({ description });
const word = (words: readonly [string, ...string[]], description: string) => z.enum(words).meta({ description });

export const Bank = z
  .strictObject({
    code: z.string().meta({
      description: 'what a payout names as bank_code: CBN code (NG), sort code (GB), BIC (EUR), routing number (US)',
      examples: ['058'],
    }),
    name: z.string(),
    country: z.string().meta({ description: 'ISO 3166 alpha-2', examples: ['NG'] }),
    currency: z.string().meta({ description: 'the currency its accounts hold', examples: ['NGN'] }),
    scheme: word(ACCOUNT_SCHEMES.words, 'how its account numbers are written and checked'),
  })
  .meta({ description: 'A bank a payout can reach' });

export const PayoutDestination = z
  .strictObject({
    bank_code: z
      .string()
      .min(1)
      .meta({ examples: ['058'] }),
    bank_name: z.string().min(1),
    account_number: z
      .string()
      .min(1)
      .meta({ examples: ['0123456789'] }),
    account_name: z.string().min(1).meta({ description: 'the account holder, as the bank names them' }),
    currency: z
      .string()
      .min(1)
      .meta({ description: 'the currency the account holds', examples: ['NGN'] }),
  })
  .meta({ description: 'A bank account and its holder, as the bank answers an account lookup' });

export const Payout = z
  .strictObject({
    id: z.guid().meta({ description: 'also the id of its PAYOUT transaction' }),
    status: word(PAYOUT_STATUSES.words, 'pending → processing → successful | failed; successful → reversed'),
    amount: z.int().positive().meta({ description: 'minor units the destination receives' }),
    fee: z.int().nonnegative().meta({ description: 'charged on top of amount, in the same currency' }),
    currency: z.string().meta({ examples: ['NGN'] }),
    reference: z.string().nullable().meta({ description: 'your reference' }),
    narration: z.string(),
    destination: PayoutDestination,
    beneficiary_id: z
      .guid()
      .nullable()
      .meta({ description: 'the saved destination paid, or the one this payout saved' }),
    failure_reason: word(PAYOUT_FAILURE_CODES.words, 'why it failed or was reversed')
      .nullable()
      .meta({ description: 'null unless failed or reversed' }),
    created_at: instant('when it was made'),
    updated_at: instant('its last change'),
    completed_at: instant('when it became successful or failed').nullable(),
    reversed_at: instant('when the bank returned it').nullable(),
  })
  .meta({ description: 'A payout from your wallet to a bank account (a transaction of type PAYOUT)' });

export const Beneficiary = z
  .strictObject({
    id: z.guid(),
    ...PayoutDestination.shape,
    created_at: instant('when a payout saved it'),
    last_used_at: instant('the last payout to it').nullable(),
  })
  .meta({ description: 'A saved payout destination; name its id as beneficiary_id in POST /api/external/payout' });

export const BeneficiaryList = cursorList(Beneficiary, 'beneficiaries');

/** The named schemas of the payout routes, as components.schemas of the document. */
export const PAYOUT_COMPONENTS = { Bank, PayoutDestination, Payout, Beneficiary } as const;
