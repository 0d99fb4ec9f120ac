import { z } from '@corridor/config';
import { COLLECTION_COMPONENTS, CollectionDetails, Refund } from './collection-responses.js';
import { cursorList } from '../../floor/pages/cursor-page.js';
import { PAYOUT_COMPONENTS } from './payout-responses.js';
import {
  AMOUNT_SIDES,
  CURRENCY_OPERATIONS,
  FEE_OPERATIONS,
  REFUND_STATUSES,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
} from './vocabulary.js';

/**
 * The closed JSON answers of the payments routes. One definition: render.ts output is checked
 * against these in the specs, and the OpenAPI document's schemas are made from them (json-schema.ts).
 */

const instant = (description: string) => z.iso.datetime().meta({ description });
const code = (description: string) => z.string().meta({ description, examples: ['NGN'] });
/** Signed minor units (a JSON integer within ±(2^53 - 1)). */
const minorUnits = (description: string) => z.int().meta({ description });
const nonNegativeMinorUnits = (description: string) => z.int().nonnegative().meta({ description });
const word = (words: readonly [string, ...string[]], description: string) => z.enum(words).meta({ description });

export const Currency = z
  .strictObject({
    code: code('ISO 4217 code (crypto assets: their ticker)'),
    name: z.string(),
    exponent: z.int().nonnegative().meta({ description: 'digits of the minor unit: amounts of NGN are kobo (2)' }),
    operations: z.array(word(CURRENCY_OPERATIONS.words, 'what the currency can be used for')),
  })
  .meta({ description: 'A currency Corridor holds wallets in' });

export const RateQuote = z
  .strictObject({
    quote_id: z.guid().meta({ description: 'name it as quote_id in POST /api/external/swap to get this rate' }),
    from_currency: code('the currency sold'),
    to_currency: code('the currency bought'),
    rate: z.string().meta({
      description: 'units of to_currency per unit of from_currency after your spread (decimal string)',
      examples: ['0.000649'],
    }),
    mid_rate: z.string().meta({ description: 'the mid-market rate before the spread (decimal string)' }),
    spread_bps: z.int().nonnegative().meta({ description: 'your spread in basis points (1/100 of a percent)' }),
    created_at: instant('when the quote was made'),
    expires_at: instant('after this instant a swap naming the quote is refused (QUOTE_EXPIRED)'),
  })
  .meta({ description: 'The rate your business gets for a pair now, held until expires_at under quote_id' });

export const FeeBreakdown = z
  .strictObject({
    type: word(FEE_OPERATIONS.words, 'the priced operation'),
    currency: code('the currency of every amount here'),
    amount: nonNegativeMinorUnits('the amount priced, in minor units'),
    flat: nonNegativeMinorUnits('flat part, in minor units'),
    percentage_bps: z.int().nonnegative().meta({ description: 'percentage part in basis points: 150 is 1.5 %' }),
    percentage_amount: nonNegativeMinorUnits('amount × percentage_bps / 10000, rounded half up'),
    minimum: nonNegativeMinorUnits('the least charged').nullable(),
    maximum: nonNegativeMinorUnits('the most charged').nullable(),
    total: nonNegativeMinorUnits('what is charged: flat + percentage_amount within [minimum, maximum]'),
  })
  .meta({ description: 'What an operation of this type and amount would be charged' });

export const Wallet = z
  .strictObject({
    currency: code('the wallet’s currency'),
    available_balance: minorUnits('what can be spent now: ledger_balance less money reserved by operations'),
    pending_balance: minorUnits('money reserved by operations not yet final (payouts, swaps, refunds)'),
    ledger_balance: minorUnits('the posted balance'),
    updated_at: instant('the last movement; null for a wallet never used').nullable(),
  })
  .meta({ description: 'One currency wallet of your business; every balance in minor units' });

export const SwapDetails = z
  .strictObject({
    from_currency: code('the currency sold'),
    from_amount: nonNegativeMinorUnits('what left the from_currency wallet, before the fee'),
    to_currency: code('the currency bought'),
    to_amount: nonNegativeMinorUnits('what arrived in the to_currency wallet'),
    rate: z.string().meta({ description: 'the rate applied (decimal string): to_amount = floor(from_amount × rate)' }),
    fee: nonNegativeMinorUnits('charged in from_currency on top of from_amount'),
    quote_id: z.guid().nullable().meta({ description: 'the quote the request named, if any' }),
    amount_side: word(AMOUNT_SIDES.words, 'which side the request’s amount named'),
  })
  .meta({ description: 'The two legs of a swap' });

export const Transaction = z
  .strictObject({
    id: z.guid(),
    type: word(TRANSACTION_TYPES.words, 'the kind of money movement'),
    status: word(TRANSACTION_STATUSES.words, 'where the movement stands'),
    currency: code('the currency of amount, fee and net'),
    amount: minorUnits('as the wallet sees it: negative when money leaves'),
    fee: nonNegativeMinorUnits('what Corridor charged; never negative'),
    net: minorUnits('amount - fee: the wallet’s whole change'),
    reference: z.string().nullable().meta({ description: 'your reference, if you gave one' }),
    description: z.string(),
    refund_status: word(REFUND_STATUSES.words, 'the refund of this transaction').nullable().meta({
      description: 'null until a refund of this transaction exists',
    }),
    swap_details: SwapDetails.nullable().meta({ description: 'the legs of a SWAP; null for other types' }),
    collection_details: CollectionDetails.nullable().meta({
      description: 'how a COLLECTION collected; null for other types',
    }),
    refund_details: Refund.nullable().meta({
      description: 'the refund a REFUND transaction is (same id); null for other types',
    }),
    created_at: instant('when the movement started'),
    updated_at: instant('its last change'),
  })
  .meta({
    description:
      'A money movement of your business. amount and net are signed as the wallet sees them (negative when money leaves), fee never is; net = amount - fee.',
  });

/**
 * GET /transaction/{id}: the transaction, plus `refund` when the token can read refunds (seed 2.5);
 * without refund:read the key is absent.
 */
export const TransactionWithRefund = Transaction.extend({
  refund: Refund.nullable().optional().meta({
    description:
      'only with the scope refund:read: the refund of this collection, null when it has none; absent without the scope',
  }),
}).meta({ description: 'A transaction, with its refund when your token has refund:read' });

/** Laravel's cursor-paginated resource collection (`{data, links, meta}`), newest first. */
export const TransactionList = cursorList(Transaction, 'transactions');

/** The named schemas the routes refer to, as components.schemas of the document. */
export const PAYMENT_COMPONENTS = {
  Currency,
  RateQuote,
  FeeBreakdown,
  Wallet,
  SwapDetails,
  Transaction,
  TransactionWithRefund,
  ...PAYOUT_COMPONENTS,
  ...COLLECTION_COMPONENTS,
} as const;
