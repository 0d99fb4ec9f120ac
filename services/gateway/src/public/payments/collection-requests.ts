import { z } from '@corridor/config';
import { describeJson } from '@corridor/validation';
import { pageCursor, perPage, redirectUrl, shown, text, uuidField, wordOf } from '../../floor/fields.js';
import { currencyCode, positiveMinorUnits } from './fields.js';
import { REFERENCE_MAX } from './request-schemas.js';
import { VIRTUAL_ACCOUNT_STATUSES } from './vocabulary.js';

/** What the virtual account, collection, refund and sandbox routes read (issue 11). */

export const DESCRIPTION_MAX = 255;
export const REASON_MAX = 255;
export const SENDER_NAME_MAX = 100;

/** seed 9 removed these fields; a request still sending one is told why, not only that it is unknown. */
export const REMOVED_FIELDS: Readonly<Record<string, string>> = {
  account_name:
    'is not a recognised field: it was removed (customer_id is required instead), and the account is named after the customer',
};

export const VirtualAccountBody = z
  .strictObject({
    customer_id: uuidField('a VERIFIED customer of yours; the account is named after them'),
    currency: currencyCode().meta({
      description: 'NGN for every verified customer; USD, GBP and EUR for business customers with FULL KYB',
    }),
  })
  .meta({ description: 'A virtual bank account for one of your customers, one open account per currency (seed 1)' });

export const VirtualAccountListQuery = z.strictObject({
  customer_id: uuidField('only this customer’s accounts').optional(),
  currency: currencyCode().meta({ description: 'only accounts in this currency' }).optional(),
  status: wordOf(VIRTUAL_ACCOUNT_STATUSES, 'only accounts in this status').optional(),
  cursor: pageCursor(),
  per_page: perPage('virtual accounts'),
});

export const CollectionBody = z
  .strictObject({
    customer_id: uuidField('the customer of yours the money is collected for'),
    amount: positiveMinorUnits().meta({ description: 'minor units the payer is asked for' }),
    currency: currencyCode().meta({ description: 'the wallet the money arrives in' }),
    description: text(DESCRIPTION_MAX, 'what the payer is asked to pay for; shown on the payment page'),
    redirect_url: redirectUrl(
      'an absolute https:// URL of at most 2048 characters; after answering, the payer is sent there with transaction_id and status appended to its query',
    ).optional(),
    reference: text(REFERENCE_MAX, 'your own reference, unique among your transactions').optional(),
  })
  .meta({
    description:
      'A money request: the payer approves or declines it on its payment_link, or it expires (48 hours) and no funds move',
  });

export const RefundBody = z
  .strictObject({
    transaction_id: uuidField('the successful EUR or GBP collection to refund in full'),
    reason: text(REASON_MAX, 'why, for your records').optional(),
    reference: text(
      REFERENCE_MAX,
      'your idempotency key: the same reference on the same collection answers that refund again (200)',
    ).optional(),
    amount: positiveMinorUnits()
      .meta({ description: 'optional; when sent it must be the collection’s full amount (no partial refunds)' })
      .optional(),
  })
  .meta({ description: 'A full refund of a collection, started within 7 days of it (seed 4.4)' });

export const IncomingTransferBody = z
  .strictObject({
    amount: positiveMinorUnits().meta({ description: 'minor units the sender pays in' }),
    sender_name: text(SENDER_NAME_MAX, 'the sender as the bank reports them'),
  })
  .meta({ description: 'Sandbox: a bank transfer arriving in a virtual account' });

/** The sandbox outcomes take no fields: no body, or {}. */
export const NoBody = z.strictObject({}).meta({ description: 'No fields: send no body, or {}' });

/* Crypto collections and Interac (decision 0015). */

/** The problem of a missing field or one of the wrong JSON type, as fields.ts words it. */
const typeProblem = (expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined
    ? 'is required'
    : `must be ${expected}, got ${typeof issue.input === 'number' ? shown(issue.input) : describeJson(issue.input)}`;

/** A ticker or network name as payments lists them: capital letters only. */
const capitals = (least: number, most: number, example: string, description: string) =>
  z
    .string({ error: typeProblem(`${least} to ${most} capital letters such as ${example}`) })
    .regex(new RegExp(`^[A-Z]{${least},${most}}$`), {
      error: (issue) => `must be ${least} to ${most} capital letters such as ${example}, got ${shown(issue.input)}`,
    })
    .meta({ description, examples: [example] });

/** RFC 5321's path limit. */
export const EMAIL_MAX = 254;

/**
 * An email address as the HTML Standard checks it (what browsers accept), with a dotted domain, as
 * customer-kyb checks owners' emails.
 */
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

const emailField = (description: string) =>
  z
    .string({ error: typeProblem('an email address') })
    .max(EMAIL_MAX, `must be at most ${EMAIL_MAX} characters`)
    .regex(EMAIL, { error: (issue) => `must be an email address like name@example.com, got ${shown(issue.input)}` })
    // The pattern is the contract: JSON Schema's `email` format (RFC 5322) is another rule than the HTML one.
    .meta({ description });

export const CryptoAddressBody = z
  .strictObject({
    customer_id: uuidField('the customer of yours the deposits are collected for'),
    asset: capitals(2, 10, 'USDT', 'the stablecoin, as GET /collection/crypto/networks lists it'),
    network: capitals(2, 20, 'TRON', 'the network of the asset, as GET /collection/crypto/networks lists it'),
  })
  .meta({
    description:
      'A customer’s deposit address for one asset on one network; asking again answers the same address (200)',
  });

/** Interac collects Canadian dollars only; the field may be sent to say so. */
export const INTERAC_CURRENCY = 'CAD';

export const InteracRequestBody = z
  .strictObject({
    customer_id: uuidField('the customer of yours the money is collected for'),
    amount: positiveMinorUnits().meta({ description: 'cents of CAD the payer is asked for' }),
    currency: z
      .literal(INTERAC_CURRENCY, {
        error: (issue) =>
          `must be ${INTERAC_CURRENCY} (Interac collects Canadian dollars only), got ${shown(issue.input)}`,
      })
      .meta({ description: 'optional; Interac collects CAD only, so when sent it must be CAD' })
      .optional(),
    payer_email: emailField('where Interac sends the payer the request'),
    description: text(DESCRIPTION_MAX, 'what the payer is asked to pay for'),
    reference: text(REFERENCE_MAX, 'your own reference, unique among your transactions').optional(),
  })
  .meta({
    description: 'An Interac money request in CAD: the payer pays it from their bank, or it expires and no funds move',
  });

/** Sandbox: the most base units a simulated deposit may name. */
export const ASSET_AMOUNT_DIGITS = 30;

export const CryptoDepositBody = z
  .strictObject({
    asset_amount: z
      .string({ error: typeProblem('a string of digits such as "250000000"') })
      .regex(new RegExp(`^[0-9]{1,${ASSET_AMOUNT_DIGITS}}$`), {
        error: (issue) =>
          `must be a whole number of the asset’s base units written as 1 to ${ASSET_AMOUNT_DIGITS} digits, such as "250000000", got ${shown(issue.input)}`,
      })
      .meta({
        description:
          'base units of the asset as a decimal string (6 decimals: "250000000" is 250 USDT); at least a cent’s worth',
        examples: ['250000000'],
      }),
  })
  .meta({ description: 'Sandbox: a deposit arriving at a crypto address' });

export const InteracIncomingBody = z
  .strictObject({
    customer_id: uuidField('the customer of yours the e-Transfer is for'),
    amount: positiveMinorUnits().meta({ description: 'cents of CAD sent' }),
    sender_name: text(SENDER_NAME_MAX, 'the sender as Interac reports them'),
    sender_email: emailField('the sender’s email'),
  })
  .meta({ description: 'Sandbox: an Interac e-Transfer in CAD arriving for you to accept' });
