import { queryOf } from '../../floor/pages/page-query.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { int64Of } from '../../floor/int64.js';
import { readQuery } from '../../http/input.js';
import { jsonSchemaOf, querySchemaOf } from './json-schema.js';
import { currencyJson, feeBreakdownJson, present, rateQuoteJson } from './render.js';
import { FeesQuery, NoQuery, RatesQuery } from './request-schemas.js';
import { Currency, FeeBreakdown, RateQuote } from './response-schemas.js';
import { successBody } from '../../floor/success-body.js';
import { FEE_OPERATIONS } from './vocabulary.js';
import { z } from '@corridor/config';

/** What a business can ask before moving money: currencies, its rate for a pair, a fee (seed part 1). */

export const currencyListBody = successBody('currencies retrieved', z.array(Currency));
export const rateQuoteBody = successBody('rate retrieved', RateQuote);
export const feeBreakdownBody = successBody('fees retrieved', FeeBreakdown);

async function listCurrencies({ req, res, clients, call }: RouteContext): Promise<void> {
  readQuery(NoQuery, queryOf(req.originalUrl));
  const { currencies } = await clients.referenceData.listCurrencies({}, call);
  res.json({ message: 'currencies retrieved', data: currencies.map(currencyJson) });
}

async function quoteRate({ req, res, clients, call }: RouteContext): Promise<void> {
  const query = readQuery(RatesQuery, queryOf(req.originalUrl));
  const { quote } = await clients.referenceData.quoteRate({ fromCurrency: query.from, toCurrency: query.to }, call);
  res.json({ message: 'rate retrieved', data: rateQuoteJson(present(quote, 'quote')) });
}

async function getFees({ req, res, clients, call }: RouteContext): Promise<void> {
  const query = readQuery(FeesQuery, queryOf(req.originalUrl));
  const { fees } = await clients.referenceData.getFees(
    { operation: FEE_OPERATIONS.toProto(query.type), currency: query.currency, amount: int64Of(query.amount) },
    call,
  );
  res.json({ message: 'fees retrieved', data: feeBreakdownJson(present(fees, 'fees')) });
}

const unknownParameter = 'a query parameter is given (this endpoint takes none); `errors` names it';

export const CATALOGUE_ROUTES: readonly PublicRoute[] = [
  {
    method: 'get',
    path: '/api/external/currency',
    scope: 'currency:read',
    operationId: 'listCurrencies',
    summary: 'List the currencies Corridor holds wallets in, with each one’s exponent and operations',
    query: querySchemaOf(NoQuery),
    responses: {
      200: { description: 'Every currency', schema: jsonSchemaOf(currencyListBody) },
      422: { description: unknownParameter },
    },
    handle: listCurrencies,
  },
  {
    method: 'get',
    path: '/api/external/rates',
    scope: 'rates:read',
    operationId: 'quoteRate',
    summary: 'Your business’s rate for a currency pair now, as a quote a swap may name until it expires',
    query: querySchemaOf(RatesQuery),
    responses: {
      200: { description: 'The quote', schema: jsonSchemaOf(rateQuoteBody) },
      422: {
        description:
          'from or to is missing or not a currency code, an unknown or repeated parameter (VALIDATION_FAILED, `errors` names each); from and to are the same currency (SAME_CURRENCY); a currency Corridor does not hold (UNKNOWN_CURRENCY); no rate for the pair (UNSUPPORTED_PAIR)',
      },
    },
    handle: quoteRate,
  },
  {
    method: 'get',
    path: '/api/external/fees',
    scope: 'fees:read',
    operationId: 'getFees',
    summary: 'What a swap, collection, payout or refund of an amount would be charged, and how',
    query: querySchemaOf(FeesQuery),
    responses: {
      200: { description: 'The fee breakdown', schema: jsonSchemaOf(feeBreakdownBody) },
      422: {
        description:
          'type, currency or amount is missing or malformed (amount: whole minor units from 1 to 2^53 - 1), an unknown or repeated parameter (VALIDATION_FAILED, `errors` names each); a currency Corridor does not hold (UNKNOWN_CURRENCY) or that does not offer the operation (CURRENCY_OPERATION_NOT_SUPPORTED)',
      },
    },
    handle: getFees,
  },
];
