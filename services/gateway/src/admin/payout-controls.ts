import { HttpError } from '../http/errors.js';
import { pathParam } from '../http/path-params.js';
import { readBody } from '../http/input.js';
import { int64Of, nullableJsonIntegerOf } from '../floor/int64.js';
import { jsonSchemaOf } from './json-schema.js';
import { PayoutLimit, PayoutLimitBody, RailPayout } from './money-schemas.js';
import { uuidOfPath } from '../floor/path-ids.js';
import { businessIdOfPath, NO_SUCH_BUSINESS } from './path-ids.js';
import type { AdminRoute, AdminRouteContext } from '../floor/route-context.js';

/** The back office's payout controls (decision 0013): daily limits, and the sandbox rail's view of a payout. */

const payoutNotFound = (id: string) => new HttpError(404, 'PAYOUT_NOT_FOUND', `no payout ${id}`);

async function setPayoutLimit({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const businessId = businessIdOfPath(req);
  const body = readBody(PayoutLimitBody, req.body);
  const answer = await clients.payouts.adminSetPayoutLimit(
    {
      businessId,
      // payments says whether it holds the currency and pays out in it.
      currency: pathParam(req, 'currency'),
      dailyLimit: body.daily_limit === null ? undefined : int64Of(body.daily_limit),
    },
    call,
  );
  res.json({
    business_id: answer.businessId,
    currency: answer.currency,
    daily_limit: nullableJsonIntegerOf(answer.dailyLimit, 'daily_limit'),
  });
}

async function getRailPayout({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const payoutId = uuidOfPath(req, 'id', payoutNotFound);
  const rail = await clients.payouts.adminGetRailPayout({ payoutId }, call);
  res.json({ payout_id: rail.payoutId, submit_calls: rail.submitCalls, state: rail.state });
}

export const PAYOUT_CONTROL_ROUTES: readonly AdminRoute[] = [
  {
    method: 'put',
    path: '/admin/businesses/{id}/payout-limits/{currency}',
    operationId: 'setPayoutLimit',
    summary: 'Set or remove a business’s daily payout limit in a currency (UTC days)',
    requestBody: jsonSchemaOf(PayoutLimitBody, 'input'),
    responses: {
      200: { description: 'The limit as stored', schema: jsonSchemaOf(PayoutLimit) },
      404: NO_SUCH_BUSINESS,
      422: {
        description:
          'daily_limit missing, not a whole number or null, or another field sent (VALIDATION_FAILED); or payments refuses a negative limit, or a currency it does not hold or pay out in (UNKNOWN_CURRENCY, CURRENCY_OPERATION_NOT_SUPPORTED)',
      },
    },
    handle: setPayoutLimit,
  },
  {
    method: 'get',
    path: '/admin/payouts/{id}/rail',
    operationId: 'getRailPayout',
    summary: 'What the sandbox rail saw of a payout: how often it was asked to submit it, and where it stands',
    responses: {
      200: { description: 'The rail’s view', schema: jsonSchemaOf(RailPayout) },
      404: { description: 'The rail has never received a payout with this id (PAYOUT_NOT_FOUND)' },
    },
    handle: getRailPayout,
  },
];
