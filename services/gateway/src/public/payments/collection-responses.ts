import { z } from '@corridor/config';
import { CUSTOMER_TYPES } from '../customers/fields.js';
import { cursorList } from './cursor-page.js';
import {
  COLLECTION_FAILURE_CODES,
  COLLECTION_METHODS,
  REFUND_STATUSES,
  VIRTUAL_ACCOUNT_CLOSE_REASONS,
  VIRTUAL_ACCOUNT_STATUSES,
} from './vocabulary.js';

/**
 * The closed JSON of virtual accounts, collections and refunds as @corridor/payments-json renders
 * it (the one renderer, shared with the collection webhooks); collection-json.spec.ts holds the two together.
 */

const instant = (description: string) => z.iso.datetime().meta({ description });
const word = (words: readonly [string, ...string[]], description: string) => z.enum(words).meta({ description });
const nullableText = (description: string) => z.string().nullable().meta({ description });

export const VirtualAccount = z
  .strictObject({
    id: z.guid(),
    customer_id: z.guid().meta({ description: 'the customer the account belongs to' }),
    currency: z.string().meta({ examples: ['NGN'] }),
    status: word(VIRTUAL_ACCOUNT_STATUSES.words, 'active accounts receive transfers; transfers to closed ones bounce'),
    account_name: z.string().meta({ description: 'the customer’s name, as the bank shows it to senders' }),
    account_number: z.string().meta({
      description: 'NUBAN (NGN), IBAN (GBP, EUR) or US account number (USD): what senders pay to',
      examples: ['9912345678'],
    }),
    bank_name: z.string(),
    bank_code: z.string().meta({ description: 'CBN code (NGN), sort code (GBP), BIC (EUR), routing number (USD)' }),
    created_at: instant('when it was opened'),
    closed_at: instant('when it was closed').nullable(),
    close_reason: word(VIRTUAL_ACCOUNT_CLOSE_REASONS.words, 'why it was closed').nullable().meta({
      description:
        'null while active; requested: you closed it; customer_rejected: the customer’s verification was rejected',
    }),
  })
  .meta({
    description: 'A bank account opened for one of your customers in one currency, that collects into your wallet',
  });

export const IdentificationType = z
  .strictObject({
    code: z.string().meta({ examples: ['BVN'] }),
    name: z.string(),
    country: z.string().meta({ description: 'ISO 3166 alpha-2 of the issuer; "" when any country', examples: ['NG'] }),
    customer_types: z.array(word(CUSTOMER_TYPES, 'a customer type that may use it')),
  })
  .meta({ description: 'An identity document customers holding virtual accounts can be verified with' });

export const CollectionDetails = z
  .strictObject({
    method: word(
      COLLECTION_METHODS.words,
      'bank_transfer: into a virtual account; money_request: the payer approves a payment link',
    ),
    customer_id: z.guid().meta({ description: 'the customer collected for' }),
    virtual_account_id: z.guid().nullable().meta({ description: 'bank transfers: the account it arrived in' }),
    sender_name: nullableText('bank transfers: the sender, as the bank reports them'),
    description: nullableText('money requests: what the payer is asked to pay for'),
    redirect_url: nullableText('money requests: where the payer goes after answering'),
    payment_link: z.url().nullable().meta({
      description: 'money requests: the page where the payer approves or declines; send it to the payer',
    }),
    expires_at: instant('money requests: unless paid by then, it becomes EXPIRED and no funds move').nullable(),
    completed_at: instant('when it became successful or failed').nullable(),
    failure_reason: word(COLLECTION_FAILURE_CODES.words, 'why it failed').nullable().meta({
      description: 'null unless failed',
    }),
    rail_reference: z.string().meta({ description: 'the bank rail’s reference of the money movement' }),
  })
  .meta({ description: 'How a COLLECTION transaction collected the money' });

export const Refund = z
  .strictObject({
    id: z.guid().meta({ description: 'also the id of its REFUND transaction' }),
    transaction_id: z.guid().meta({ description: 'the collection refunded' }),
    status: word(REFUND_STATUSES.words, 'processing → successful | failed; a failed refund needs no retry'),
    amount: z.int().positive().meta({ description: 'minor units returned to the payer: the whole collection' }),
    currency: z.string().meta({ examples: ['GBP'] }),
    reason: nullableText('your reason, if you gave one'),
    reference: nullableText('your reference: the same reference on the same collection is the same refund'),
    failure_reason: nullableText('why the bank declined it, when failed'),
    created_at: instant('when it was started'),
    updated_at: instant('its last change'),
    completed_at: instant('when it became successful or failed').nullable(),
  })
  .meta({ description: 'A refund of a collection (a transaction of type REFUND)' });

export const VirtualAccountList = cursorList(VirtualAccount, 'virtual accounts');

/** The named schemas of the collection routes, as components.schemas of the document. */
export const COLLECTION_COMPONENTS = { VirtualAccount, IdentificationType, CollectionDetails, Refund } as const;
