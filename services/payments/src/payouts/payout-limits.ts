import type { AdminSetPayoutLimitRequest } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { invalidArgument, notFound } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import type { PaymentsContext } from '../context.js';
import { sql } from '../ledger/index.js';
import { allCurrencies, requireCurrency } from '../reference/currencies.js';

/** Back office: a business's daily payout limit in a currency (UTC days); absent removes it. */
export async function setPayoutLimit(em: EntityManager, context: PaymentsContext, request: AdminSetPayoutLimitRequest) {
  if (!isUuid(request.businessId)) throw notFound('BUSINESS_NOT_FOUND', `no business ${request.businessId}`);
  requireCurrency(await allCurrencies(em), request.currency, 'currency', 'payout');
  if (request.dailyLimit === undefined) {
    await sql(em, 'delete from payout_limit where business_id = ? and currency = ?', [
      request.businessId,
      request.currency,
    ]);
  } else {
    if (request.dailyLimit < 0n)
      throw invalidArgument('daily_limit must not be negative', { daily_limit: ['must not be negative'] });
    await sql(
      em,
      `insert into payout_limit (business_id, currency, daily_limit, updated_at) values (?, ?, ?, ?)
       on conflict (business_id, currency) do update set daily_limit = excluded.daily_limit, updated_at = excluded.updated_at`,
      [request.businessId, request.currency, request.dailyLimit.toString(), context.now()],
    );
  }
  return { businessId: request.businessId, currency: request.currency, dailyLimit: request.dailyLimit };
}
