import { queryOf } from '../../floor/pages/page-query.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { z } from '@corridor/config';
import { int64Of } from '../../floor/int64.js';
import { readBody, readQuery } from '../../http/input.js';
import { jsonSchemaOf, querySchemaOf } from './json-schema.js';
import { transactionOf, walletJson } from './render.js';
import { NoQuery, SwapBody } from './request-schemas.js';
import { Transaction, Wallet } from './response-schemas.js';
import { successBody } from '../../floor/success-body.js';
import { AMOUNT_SIDES } from './vocabulary.js';
import { withExample } from '../../floor/examples.js';

/** The business's wallets and the swap between two of them (seed 4.4). */

export const walletListBody = successBody('wallets retrieved', z.array(Wallet));
export const swapCreatedBody = successBody('swap created', Transaction);

async function listWallets({ req, res, clients, call }: RouteContext): Promise<void> {
  readQuery(NoQuery, queryOf(req.originalUrl));
  const { wallets } = await clients.wallets.listWallets({}, call);
  res.json({ message: 'wallets retrieved', data: wallets.map(walletJson) });
}

async function createSwap({ req, res, clients, call }: RouteContext): Promise<void> {
  const body = readBody(SwapBody, req.body);
  const response = await clients.wallets.createSwap(
    {
      fromCurrency: body.from_currency,
      toCurrency: body.to_currency,
      amount: int64Of(body.amount),
      amountSide: AMOUNT_SIDES.toProto(body.amount_side),
      quoteId: body.quote_id,
      reference: body.reference,
    },
    call,
  );
  const transaction = transactionOf(response);
  res
    .status(201)
    .location(`/api/external/transaction/${transaction.id}`)
    .json({ message: 'swap created', data: transaction });
}

export const WALLET_ROUTES: readonly PublicRoute[] = [
  {
    method: 'get',
    path: '/api/external/wallet',
    scope: 'wallet:read',
    operationId: 'listWallets',
    summary: 'Your business’s wallets, one per currency, with available, pending and ledger balances',
    query: querySchemaOf(NoQuery),
    responses: {
      200: {
        description: 'Every wallet (zero balances for a currency never used)',
        schema: jsonSchemaOf(walletListBody),
      },
      422: { description: 'a query parameter is given (this endpoint takes none); `errors` names it' },
    },
    handle: listWallets,
  },
  {
    method: 'post',
    path: '/api/external/swap',
    scope: 'swap:create',
    operationId: 'createSwap',
    summary:
      'Swap between two of your business’s own wallets at your current rate, or at a quote’s rate before it expires',
    requestBody: withExample(jsonSchemaOf(SwapBody, 'input'), {
      from_currency: 'NGN',
      to_currency: 'USD',
      amount: 1500000,
      amount_side: 'from',
      reference: 'swap-1042',
    }),
    responses: {
      201: { description: 'The swap, a SWAP transaction with its swap_details', schema: jsonSchemaOf(swapCreatedBody) },
      409: {
        description:
          'reference is already used by another of your transactions (REFERENCE_ALREADY_USED), or a request with this Idempotency-Key is still in flight (IDEMPOTENCY_REQUEST_IN_FLIGHT)',
      },
      422: {
        description:
          'A field is missing, of the wrong JSON type, unknown, or malformed: amount must be a whole number of minor units from 1 to 2^53 - 1, amount_side from or to, quote_id a uuid (VALIDATION_FAILED, `errors` names each field). Or payments refuses: INSUFFICIENT_FUNDS, SAME_CURRENCY, UNSUPPORTED_PAIR, UNKNOWN_CURRENCY, CURRENCY_OPERATION_NOT_SUPPORTED, INVALID_AMOUNT (too small to swap), QUOTE_NOT_FOUND, QUOTE_EXPIRED, QUOTE_MISMATCH (the quote is for another pair), IDEMPOTENCY_KEY_REUSED (the key was used with another body)',
      },
    },
    handle: createSwap,
  },
];
