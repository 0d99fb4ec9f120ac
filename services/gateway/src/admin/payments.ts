import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { z } from '@corridor/config';
import type {
  AdminCheckLedgerResponse,
  FeeRule,
  MidRate,
  PaymentsService,
} from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { isUuid, type CallSettings, type ClientOf } from '@corridor/grpc';
import type { Metadata } from '@grpc/grpc-js';
import { Router, type Request, type Response } from 'express';
import { HttpError } from '../http/errors.js';
import { queryOf } from '../public/pages/page-query.js';
import {
  basisPoints,
  currencyCode,
  decimalRate,
  nonNegativeMinorUnits,
  positiveMinorUnits,
  text,
  uuidField,
  wordOf,
} from '../public/payments/fields.js';
import { readBody, readQuery } from '../public/payments/input.js';
import { int64Of, jsonIntegerOf, nullableJsonIntegerOf } from '../public/payments/int64.js';
import { present, transactionOf, walletJson } from '../public/payments/render.js';
import { ADJUSTMENT_DIRECTIONS, FEE_OPERATIONS } from '../public/payments/vocabulary.js';

/**
 * The back office's money controls: mid-rates, spreads, the fee schedule, audited wallet
 * adjustments, payout limits, the sandbox rail's view of a payout and the ledger's invariant
 * check. Admin* calls name the business themselves; the caller metadata carries no business-id.
 */

const SetRateBody = z.strictObject({
  base_currency: currencyCode(),
  quote_currency: currencyCode(),
  rate: decimalRate(),
});

const SetSpreadBody = z.strictObject({ spread_bps: basisPoints() });

const cap = () => nonNegativeMinorUnits().nullable().optional();

const SetFeeRuleBody = z.strictObject({
  business_id: uuidField('the business the rule is for; absent or null: the default rule').nullable().optional(),
  type: wordOf(FEE_OPERATIONS, 'the priced operation'),
  currency: currencyCode(),
  flat: nonNegativeMinorUnits(),
  percentage_bps: basisPoints(),
  minimum: cap(),
  maximum: cap(),
});

const FeeRulesQuery = z.strictObject({ business_id: uuidField('only this business’s rules').optional() });

const PayoutLimitBody = z.strictObject({
  daily_limit: nonNegativeMinorUnits()
    .nullable()
    .meta({ description: 'minor units the business may pay out per UTC day in this currency; null: no limit' }),
});

const AdjustmentBody = z.strictObject({
  amount: positiveMinorUnits(),
  direction: wordOf(ADJUSTMENT_DIRECTIONS, 'credit adds to the wallet, debit takes from it'),
  reason: text(500, 'why, for the audit trail'),
});

/** The adjustments' author in payments' audit trail: the admin API has one operator identity. */
const ACTOR = 'admin';

const iso = (timestamp: Timestamp | undefined, what: string) => timestampDate(present(timestamp, what)).toISOString();

function midRateJson(rate: MidRate) {
  return {
    base_currency: rate.baseCurrency,
    quote_currency: rate.quoteCurrency,
    rate: rate.rate,
    derived: rate.derived,
    updated_at: iso(rate.updatedAt, 'updated_at'),
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
    updated_at: iso(rule.updatedAt, 'updated_at'),
  };
}

function ledgerCheckJson(check: AdminCheckLedgerResponse) {
  return {
    ok: check.ok,
    violations: check.violations.map(({ rule, currency, account, detail }) => ({ rule, currency, account, detail })),
    accounts_checked: jsonIntegerOf(check.accountsChecked, 'accounts_checked'),
    transfers_checked: jsonIntegerOf(check.transfersChecked, 'transfers_checked'),
    checked_at: iso(check.checkedAt, 'checked_at'),
  };
}

/** The back office's request id and environment (app.ts forwardRequestContext), no business. */
const settings = (res: Response): CallSettings => ({ metadata: res.locals.grpcMetadata as Metadata });

/** A business id of the path; anything but a uuid names no business. */
function businessIdOf(req: Request): string {
  const id = req.params.id;
  if (typeof id !== 'string' || !isUuid(id)) {
    throw new HttpError(404, 'BUSINESS_NOT_FOUND', `no business ${String(id)}`);
  }
  return id;
}

/** A payout id of the path; anything but a uuid names no payout. */
function payoutIdOf(req: Request): string {
  const id = req.params.id;
  if (typeof id !== 'string' || !isUuid(id)) throw new HttpError(404, 'PAYOUT_NOT_FOUND', `no payout ${String(id)}`);
  return id;
}

/** The wallet's currency of the path, checked as a body's currency would be. */
function walletCurrencyOf(req: Request): string {
  const result = currencyCode().safeParse(req.params.currency);
  if (result.success) return result.data;
  const problem = result.error.issues[0]?.message ?? 'is invalid';
  throw new HttpError(422, 'VALIDATION_FAILED', `currency ${problem}`, { currency: [problem] });
}

export function paymentsAdminRouter(payments: ClientOf<typeof PaymentsService>): Router {
  const router = Router();
  router.post('/admin/rates', async (req, res) => {
    const body = readBody(SetRateBody, req.body);
    const { rate } = await payments.adminSetRate(
      { baseCurrency: body.base_currency, quoteCurrency: body.quote_currency, rate: body.rate },
      settings(res),
    );
    res.json(midRateJson(present(rate, 'rate')));
  });

  router.get('/admin/rates', async (req, res) => {
    readQuery(z.strictObject({}), queryOf(req.originalUrl));
    const { rates, defaultSpreadBps } = await payments.adminListRates({}, settings(res));
    res.json({ data: rates.map(midRateJson), default_spread_bps: defaultSpreadBps });
  });

  router.put('/admin/businesses/:id/spread', async (req, res) => {
    const businessId = businessIdOf(req);
    const body = readBody(SetSpreadBody, req.body);
    const answer = await payments.adminSetSpread({ businessId, spreadBps: body.spread_bps }, settings(res));
    res.json({ business_id: answer.businessId, spread_bps: answer.spreadBps });
  });

  router.put('/admin/fees', async (req, res) => {
    const body = readBody(SetFeeRuleBody, req.body);
    const { rule } = await payments.adminSetFeeRule(
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
      settings(res),
    );
    res.json(feeRuleJson(present(rule, 'rule')));
  });

  router.get('/admin/fees', async (req, res) => {
    const query = readQuery(FeeRulesQuery, queryOf(req.originalUrl));
    const { rules } = await payments.adminListFeeRules({ businessId: query.business_id ?? '' }, settings(res));
    res.json({ data: rules.map(feeRuleJson) });
  });

  router.post('/admin/businesses/:id/wallets/:currency/adjustments', async (req, res) => {
    const businessId = businessIdOf(req);
    const currency = walletCurrencyOf(req);
    const body = readBody(AdjustmentBody, req.body);
    const answer = await payments.adminAdjustWallet(
      {
        businessId,
        currency,
        amount: int64Of(body.amount),
        direction: ADJUSTMENT_DIRECTIONS.toProto(body.direction),
        reason: body.reason,
        actor: ACTOR,
      },
      settings(res),
    );
    res.status(201).json(transactionOf(answer));
  });

  router.get('/admin/businesses/:id/wallets', async (req, res) => {
    const businessId = businessIdOf(req);
    const { wallets } = await payments.adminListWallets({ businessId }, settings(res));
    res.json({ data: wallets.map(walletJson) });
  });

  router.put('/admin/businesses/:id/payout-limits/:currency', async (req, res) => {
    const businessId = businessIdOf(req);
    const currency = walletCurrencyOf(req);
    const body = readBody(PayoutLimitBody, req.body);
    const answer = await payments.adminSetPayoutLimit(
      { businessId, currency, dailyLimit: body.daily_limit === null ? undefined : int64Of(body.daily_limit) },
      settings(res),
    );
    res.json({
      business_id: answer.businessId,
      currency: answer.currency,
      daily_limit: nullableJsonIntegerOf(answer.dailyLimit, 'daily_limit'),
    });
  });

  router.get('/admin/payouts/:id/rail', async (req, res) => {
    const payoutId = payoutIdOf(req);
    const rail = await payments.adminGetRailPayout({ payoutId }, settings(res));
    res.json({ payout_id: rail.payoutId, submit_calls: rail.submitCalls, state: rail.state });
  });

  router.get('/admin/ledger/check', async (_req, res) => {
    res.json(ledgerCheckJson(await payments.adminCheckLedger({}, settings(res))));
  });

  return router;
}
