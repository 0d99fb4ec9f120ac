import { z } from '@corridor/config';
import { parseDateTime } from '../../floor/times.js';
import { pageCursor, perPage, queryDateTime, queryInteger, text, uuidField, wordOf } from '../../floor/fields.js';
import { currencyCode, positiveMinorUnits } from './fields.js';
import { AMOUNT_SIDES, FEE_OPERATIONS, TRANSACTION_STATUSES, TRANSACTION_TYPES } from './vocabulary.js';

/** What the payments routes read: the swap body and each route's query (every parameter typed). */

export const REFERENCE_MAX = 100;

export const SwapBody = z
  .strictObject({
    from_currency: currencyCode().meta({ description: 'the wallet money leaves' }),
    to_currency: currencyCode().meta({ description: 'the wallet money arrives in' }),
    amount: positiveMinorUnits().meta({
      description:
        'minor units of the side amount_side names: what leaves from_currency, or what arrives in to_currency',
    }),
    amount_side: wordOf(AMOUNT_SIDES, 'which side amount names; the fee is charged in from_currency on top').default(
      'from',
    ),
    quote_id: uuidField('a quote from GET /api/external/rates to swap at its rate before it expires').optional(),
    reference: text(REFERENCE_MAX, 'your own reference, unique among your transactions').optional(),
  })
  .meta({ description: 'A swap between two of your business’s own wallets (seed 4.4)' });

export type SwapRequest = z.output<typeof SwapBody>;

/** GET /currency and GET /wallet take no parameters; any given is named as unknown. */
export const NoQuery = z.strictObject({});

export const RatesQuery = z.strictObject({
  from: currencyCode().meta({ description: 'the currency to sell, e.g. NGN' }),
  // Another currency than from's example: a quote from NGN to NGN is refused (SAME_CURRENCY).
  to: currencyCode().meta({ description: 'the currency to buy, e.g. USD', examples: ['USD'] }),
});

export const FeesQuery = z.strictObject({
  // Examples on every required parameter, so "Try it out" can send the request as it opens.
  type: wordOf(FEE_OPERATIONS, 'the operation to price').meta({ examples: ['payout'] }),
  currency: currencyCode().meta({ description: 'the currency of amount' }),
  amount: queryInteger(1, Number.MAX_SAFE_INTEGER, 'minor units').meta({
    description: 'the amount to price, in minor units',
    examples: [500000],
  }),
});

export const TransactionListQuery = z
  .strictObject({
    status: wordOf(TRANSACTION_STATUSES, 'only transactions in this status').optional(),
    type: wordOf(TRANSACTION_TYPES, 'only transactions of this type').optional(),
    currency: currencyCode().meta({ description: 'only transactions in this currency' }).optional(),
    reference: text(REFERENCE_MAX, 'only the transaction with this reference').optional(),
    from: queryDateTime('only transactions created at or after this instant').optional(),
    to: queryDateTime('only transactions created before this instant').optional(),
    cursor: pageCursor(),
    per_page: perPage('transactions'),
  })
  .superRefine(({ from, to }, context) => {
    const [start, end] = [from && parseDateTime(from), to && parseDateTime(to)];
    if (start && end && start.getTime() >= end.getTime()) {
      context.addIssue({ code: 'custom', path: ['from'], message: `must be before to (${end.toISOString()})` });
    }
  });

export type TransactionListFilters = z.output<typeof TransactionListQuery>;
