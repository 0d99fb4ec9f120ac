import { z } from '@corridor/config';
import { CUSTOMER_TYPES } from '../../floor/customer-types.js';
import { cursorList } from '../../floor/pages/cursor-page.js';
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

/** Crypto tickers and networks are capitals, as payments names them (GET /collection/crypto/networks). */
const asset = () => z.string().meta({ description: 'the stablecoin’s ticker', examples: ['USDT'] });
const network = () => z.string().meta({ description: 'the chain it moves on', examples: ['TRON'] });
const confirmationsRequired = () =>
  z
    .int()
    .positive()
    .meta({ description: 'blocks after which a deposit is credited', examples: [20] });

export const CryptoNetwork = z
  .strictObject({
    asset: asset(),
    network: network(),
    standard: z.string().meta({ description: 'the token standard shown to payers', examples: ['TRC-20'] }),
    decimals: z
      .int()
      .nonnegative()
      .meta({ description: 'decimal places of the asset’s base unit', examples: [6] }),
    confirmations_required: confirmationsRequired(),
    settlement_currency: z.string().meta({
      description: 'the wallet a confirmed deposit is credited to, 1:1 in its minor units (sub-cent dust excluded)',
      examples: ['USD'],
    }),
  })
  .meta({ description: 'A stablecoin network your customers’ payers can deposit on' });

export const CryptoAddress = z
  .strictObject({
    id: z.guid().meta({ description: 'name it in the sandbox deposit simulation' }),
    customer_id: z.guid().meta({ description: 'the customer the address collects for' }),
    asset: asset(),
    network: network(),
    address: z.string().meta({
      description:
        'where payers send the asset, in the network’s own form (TRON T…, 0x… on EVM chains, base58 on Solana)',
    }),
    created_at: instant('when it was made'),
  })
  .meta({
    description: 'A customer’s deposit address for one asset on one network: one per (customer, asset, network)',
  });

export const CryptoDeposit = z
  .strictObject({
    address_id: z.guid().meta({ description: 'the deposit address it arrived at' }),
    asset: asset(),
    network: network(),
    address: z.string(),
    asset_amount: z
      .string()
      .regex(/^\d+$/)
      .meta({
        description: 'base units of the asset as a decimal string (exact beyond 2^53)',
        examples: ['250000000'],
      }),
    tx_hash: z.string().meta({ description: 'the on-chain transaction' }),
    confirmations: z.int().nonnegative().meta({ description: 'blocks mined on top of it so far' }),
    confirmations_required: confirmationsRequired(),
  })
  .meta({ description: 'What a crypto deposit brought: PROCESSING until confirmations reach confirmations_required' });

export const CollectionDetails = z
  .strictObject({
    method: word(
      COLLECTION_METHODS.words,
      'bank_transfer: into a virtual account; money_request: the payer approves a payment link; crypto_deposit: a stablecoin deposit to a customer’s address; interac_request: an Interac money request the payer pays from their bank; interac_transfer: an Interac e-Transfer you accept',
    ),
    customer_id: z.guid().meta({ description: 'the customer collected for' }),
    virtual_account_id: z.guid().nullable().meta({ description: 'bank transfers: the account it arrived in' }),
    sender_name: nullableText('bank transfers and Interac e-Transfers: the sender, as the rail reports them'),
    description: nullableText('money and Interac requests: what the payer is asked to pay for'),
    redirect_url: nullableText('money requests: where the payer goes after answering'),
    payment_link: z.url().nullable().meta({
      description: 'money requests: the page where the payer approves or declines; send it to the payer',
    }),
    expires_at: instant(
      'money and Interac requests, Interac e-Transfers: unless paid (or accepted) by then, it becomes EXPIRED and no funds move',
    ).nullable(),
    completed_at: instant('when it became successful or failed').nullable(),
    failure_reason: word(COLLECTION_FAILURE_CODES.words, 'why it failed').nullable().meta({
      description: 'null unless failed',
    }),
    rail_reference: z.string().meta({ description: 'the bank rail’s reference of the money movement' }),
    payer_email: z.string().nullable().meta({
      description: 'Interac: the payer’s email (requests) or the sender’s (e-Transfers); null for other methods',
    }),
    crypto: CryptoDeposit.nullable().meta({ description: 'crypto deposits: what arrived on chain; null otherwise' }),
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
export const COLLECTION_COMPONENTS = {
  VirtualAccount,
  IdentificationType,
  CollectionDetails,
  CryptoDeposit,
  CryptoNetwork,
  CryptoAddress,
  Refund,
} as const;
