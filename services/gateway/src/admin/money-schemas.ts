import { z } from '@corridor/config';
import { printableText, wordOf } from '../floor/fields.js';
import { PAYMENT_COMPONENTS, Wallet } from '../public/payments/response-schemas.js';
import { ADJUSTMENT_DIRECTIONS, FEE_OPERATIONS } from '../public/payments/vocabulary.js';
import { minorUnits, presentString, serviceChecked, uint32 } from './fields.js';

/**
 * What the back office's money routes read and answer. The bodies hold what building payments'
 * requests takes; payments checks the rest (decision 0021), as each field's description says.
 */

const currency = (description: string) =>
  serviceChecked('a currency code such as NGN').meta({
    description: `${description}: a currency payments holds, e.g. NGN (UNKNOWN_CURRENCY otherwise)`,
    examples: ['NGN'],
  });

export const SetRateBody = z.strictObject({
  base_currency: currency('the currency priced'),
  quote_currency: currency('the currency it is priced in; not base_currency'),
  rate: serviceChecked('a decimal string such as "1500.25"').meta({
    description: 'units of quote_currency per unit of base_currency: a decimal string greater than 0',
    pattern: '^[0-9]{1,12}(\\.[0-9]{1,12})?$',
    examples: ['1500.25'],
  }),
});

export const SetSpreadBody = z.strictObject({
  spread_bps: uint32('a whole number of basis points').meta({
    maximum: 5_000,
    description: 'the business’s spread off the mid-rate in basis points, 0 to 5000',
  }),
});

/** A fee part or cap: payments refuses a negative one. */
const feeAmount = (description: string) => minorUnits().meta({ minimum: 0, description });

export const SetFeeRuleBody = z.strictObject({
  business_id: presentString('a business id')
    .meta({ format: 'uuid', description: 'the business the rule is for; absent or null: the default rule' })
    .nullable()
    .optional(),
  type: wordOf(FEE_OPERATIONS, 'the priced operation'),
  currency: currency('the currency of the amounts'),
  flat: feeAmount('flat part in minor units'),
  percentage_bps: uint32('a whole number of basis points').meta({
    maximum: 10_000,
    description: 'percentage part in basis points, 0 to 10000',
  }),
  minimum: feeAmount('the least charged; null or absent: none').nullable().optional(),
  maximum: feeAmount('the most charged, not below minimum; null or absent: none').nullable().optional(),
});

export const FeeRulesQuery = z.strictObject({
  business_id: presentString('a business id')
    .meta({ format: 'uuid', description: 'only this business’s rules, beside the defaults' })
    .optional(),
});

export const NoQuery = z.strictObject({});

export const PayoutLimitBody = z.strictObject({
  // Required: absent in the proto is "remove the limit", which a client says with null.
  daily_limit: minorUnits().nullable().meta({
    minimum: 0,
    description: 'minor units the business may pay out per UTC day in this currency; null: no limit',
  }),
});

export const AdjustmentBody = z.strictObject({
  amount: minorUnits().meta({ minimum: 1, description: 'minor units, greater than 0' }),
  direction: wordOf(ADJUSTMENT_DIRECTIONS, 'credit adds to the wallet, debit takes from it'),
  reason: printableText('why, for the audit trail: not only spaces, at most 500 characters', {
    minLength: 1,
    maxLength: 500,
  }),
});

const instant = (description: string) => z.iso.datetime().meta({ description });
const code = (description: string) => z.string().meta({ description, examples: ['NGN'] });

export const MidRate = z
  .strictObject({
    base_currency: code('the currency priced'),
    quote_currency: code('the currency it is priced in'),
    rate: z.string().meta({ description: 'decimal string, at most 12 fraction digits', examples: ['1500.25'] }),
    derived: z.boolean().meta({ description: 'true: the reverse of a pair set the other way, not set itself' }),
    updated_at: instant('when it was last set'),
  })
  .meta({ description: 'A mid-market rate; a business’s rate is this less its spread' });

export const FeeRule = z
  .strictObject({
    business_id: z.guid().nullable().meta({ description: 'null: the default rule of every business without its own' }),
    type: z.enum(FEE_OPERATIONS.words).meta({ description: 'the priced operation' }),
    currency: code('the currency of the amounts'),
    flat: z.int().nonnegative().meta({ description: 'flat part in minor units' }),
    percentage_bps: z.int().nonnegative().meta({ description: 'percentage part in basis points' }),
    minimum: z.int().nonnegative().nullable().meta({ description: 'the least charged; null: none' }),
    maximum: z.int().nonnegative().nullable().meta({ description: 'the most charged; null: none' }),
    updated_at: instant('when it was last set'),
  })
  .meta({ description: 'One row of the fee schedule: flat + a percentage of the amount, within optional caps' });

export const MidRateList = z.strictObject({
  data: z.array(MidRate),
  default_spread_bps: z.int().nonnegative().meta({ description: 'the spread of a business without its own' }),
});

export const Spread = z.strictObject({ business_id: z.guid(), spread_bps: z.int().nonnegative() });

export const FeeRuleList = z.strictObject({ data: z.array(FeeRule) });

export const WalletList = z.strictObject({ data: z.array(Wallet) });

export const PayoutLimit = z.strictObject({
  business_id: z.guid(),
  currency: code('the limit’s currency'),
  daily_limit: z.int().nonnegative().nullable().meta({ description: 'minor units per UTC day; null: no limit' }),
});

export const RailPayout = z.strictObject({
  payout_id: z.guid(),
  submit_calls: z.int().nonnegative().meta({ description: 'how many times payments asked the rail to submit it' }),
  state: z.enum(['accepted', 'successful', 'failed', 'reversed']).meta({ description: 'where the rail has it' }),
});

export const LedgerCheck = z.strictObject({
  ok: z.boolean().meta({ description: 'true: every invariant holds' }),
  violations: z.array(
    z.strictObject({
      rule: z.string().meta({
        description: 'currency_unbalanced, balance_mismatch, wallet_negative or entry_chain_broken',
      }),
      currency: z.string(),
      account: z.string().meta({ description: 'the account concerned, when the rule is about one' }),
      detail: z.string(),
    }),
  ),
  accounts_checked: z.int().nonnegative(),
  transfers_checked: z.int().nonnegative(),
  checked_at: instant('when the check ran'),
});

/** The money routes' named schemas, beside payments' own (so Wallet and Transaction are $refs). */
export const ADMIN_MONEY_COMPONENTS = { ...PAYMENT_COMPONENTS, MidRate, FeeRule } as const;
