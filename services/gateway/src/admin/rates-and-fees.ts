import type { FeeRule, MidRate } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { queryOf } from '../floor/pages/page-query.js';
import { readBody, readQuery } from '../http/input.js';
import { int64Of, jsonIntegerOf, nullableJsonIntegerOf } from '../floor/int64.js';
import { present } from '../public/payments/render.js';
import { FEE_OPERATIONS } from '../public/payments/vocabulary.js';
import { jsonSchemaOf, querySchemaOf } from './json-schema.js';
import {
  FeeRule as FeeRuleSchema,
  FeeRuleList,
  FeeRulesQuery,
  MidRate as MidRateSchema,
  MidRateList,
  NoQuery,
  SetFeeRuleBody,
  SetRateBody,
  SetSpreadBody,
  Spread,
} from './money-schemas.js';
import { businessIdOfPath, NO_SUCH_BUSINESS } from './path-ids.js';
import type { AdminRoute, AdminRouteContext } from '../floor/route-context.js';
import { iso } from '../floor/times.js';

/**
 * The back office's prices (decision 0011): mid-rates, each business's spread, the fee schedule.
 * Admin* calls name the business themselves; the caller metadata carries no business-id.
 */

function midRateJson(rate: MidRate) {
  return {
    base_currency: rate.baseCurrency,
    quote_currency: rate.quoteCurrency,
    rate: rate.rate,
    derived: rate.derived,
    updated_at: iso(present(rate.updatedAt, 'updated_at')),
  };
}

function feeRuleJson(rule: FeeRule) {
  return {
    business_id: rule.businessId === '' ? null : rule.businessId,
    type: FEE_OPERATIONS.toWord(rule.operation, 'operation'),
    currency: rule.currency,
    flat: jsonIntegerOf(rule.flat, 'flat'),
    percentage_bps: rule.percentageBps,
    minimum: nullableJsonIntegerOf(rule.minimum, 'minimum'),
    maximum: nullableJsonIntegerOf(rule.maximum, 'maximum'),
    updated_at: iso(present(rule.updatedAt, 'updated_at')),
  };
}

async function setRate({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const body = readBody(SetRateBody, req.body);
  const { rate } = await clients.referenceData.adminSetRate(
    { baseCurrency: body.base_currency, quoteCurrency: body.quote_currency, rate: body.rate },
    call,
  );
  res.json(midRateJson(present(rate, 'rate')));
}

async function listRates({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  readQuery(NoQuery, queryOf(req.originalUrl));
  const { rates, defaultSpreadBps } = await clients.referenceData.adminListRates({}, call);
  res.json({ data: rates.map(midRateJson), default_spread_bps: defaultSpreadBps });
}

async function setSpread({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const businessId = businessIdOfPath(req);
  const body = readBody(SetSpreadBody, req.body);
  const answer = await clients.referenceData.adminSetSpread({ businessId, spreadBps: body.spread_bps }, call);
  res.json({ business_id: answer.businessId, spread_bps: answer.spreadBps });
}

async function setFeeRule({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const body = readBody(SetFeeRuleBody, req.body);
  const { rule } = await clients.referenceData.adminSetFeeRule(
    {
      rule: {
        businessId: body.business_id ?? '',
        operation: FEE_OPERATIONS.toProto(body.type),
        currency: body.currency,
        flat: int64Of(body.flat),
        percentageBps: body.percentage_bps,
        minimum: body.minimum == null ? undefined : int64Of(body.minimum),
        maximum: body.maximum == null ? undefined : int64Of(body.maximum),
      },
    },
    call,
  );
  res.json(feeRuleJson(present(rule, 'rule')));
}

async function listFeeRules({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const query = readQuery(FeeRulesQuery, queryOf(req.originalUrl));
  const { rules } = await clients.referenceData.adminListFeeRules({ businessId: query.business_id ?? '' }, call);
  res.json({ data: rules.map(feeRuleJson) });
}

const UNKNOWN_CURRENCY = 'a currency payments does not hold (UNKNOWN_CURRENCY), or one it does not swap';

export const RATE_AND_FEE_ROUTES: readonly AdminRoute[] = [
  {
    method: 'post',
    path: '/admin/rates',
    operationId: 'setMidRate',
    summary: 'Set the mid-rate of a currency pair; the reverse pair is derived from it unless set itself',
    requestBody: jsonSchemaOf(SetRateBody, 'input'),
    responses: {
      200: { description: 'The mid-rate as stored', schema: jsonSchemaOf(MidRateSchema) },
      422: {
        description: `A field missing, not a string, or unknown (VALIDATION_FAILED, \`errors\` names each); or payments refuses: ${UNKNOWN_CURRENCY}, the same currency twice (SAME_CURRENCY), a rate that is no positive decimal of at most 12 digits before and after the point`,
      },
    },
    handle: setRate,
  },
  {
    method: 'get',
    path: '/admin/rates',
    operationId: 'listMidRates',
    summary: 'Every mid-rate, those derived from the reverse pair marked, and the default spread',
    query: querySchemaOf(NoQuery),
    responses: {
      200: { description: 'The mid-rates', schema: jsonSchemaOf(MidRateList) },
      422: { description: 'A query parameter is given (this endpoint takes none); `errors` names it' },
    },
    handle: listRates,
  },
  {
    method: 'put',
    path: '/admin/businesses/{id}/spread',
    operationId: 'setSpread',
    summary: 'Set a business’s spread off the mid-rate, in basis points',
    requestBody: jsonSchemaOf(SetSpreadBody, 'input'),
    responses: {
      200: { description: 'The spread as stored', schema: jsonSchemaOf(Spread) },
      404: NO_SUCH_BUSINESS,
      422: {
        description:
          'spread_bps missing, not a whole number, negative, or another field sent (VALIDATION_FAILED); or payments refuses more than 5000',
      },
    },
    handle: setSpread,
  },
  {
    method: 'put',
    path: '/admin/fees',
    operationId: 'setFeeRule',
    summary: 'Set a fee rule: a business’s own, or the default of every business without one',
    requestBody: jsonSchemaOf(SetFeeRuleBody, 'input'),
    responses: {
      200: { description: 'The rule as stored', schema: jsonSchemaOf(FeeRuleSchema) },
      422: {
        description: `A field missing, of the wrong JSON type or unknown, type not swap, collection, payout or refund, an amount that is no whole number (VALIDATION_FAILED, \`errors\` names each); or payments refuses: ${UNKNOWN_CURRENCY}, business_id not a uuid, a negative amount, percentage_bps over 10000, maximum below minimum`,
      },
    },
    handle: setFeeRule,
  },
  {
    method: 'get',
    path: '/admin/fees',
    operationId: 'listFeeRules',
    summary: 'The fee schedule: the default rules, and a business’s own when business_id names it',
    query: querySchemaOf(FeeRulesQuery),
    responses: {
      200: { description: 'The rules', schema: jsonSchemaOf(FeeRuleList) },
      422: {
        description:
          'An unknown or repeated parameter, or an empty business_id (VALIDATION_FAILED); payments refuses a business_id that is not a uuid',
      },
    },
    handle: listFeeRules,
  },
];
