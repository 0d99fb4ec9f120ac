import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { FeeBreakdownSchema, FeeOperation, type FeeBreakdown } from '@corridor/contracts/corridor/payments/v1/money_pb';
import {
  FeeRuleSchema,
  type FeeRule as FeeRuleMessage,
} from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { invalidArgument } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import type { PaymentsContext } from '../context.js';
import { dateOf, int8, sql, type Row } from '../ledger/index.js';
import { allCurrencies, requireCurrency } from './currencies.js';
import { feeFor, type FeeOperationName, type FeeRule } from './fee-rule.js';

const OPERATION_NAMES: Partial<Record<FeeOperation, FeeOperationName>> = {
  [FeeOperation.SWAP]: 'swap',
  [FeeOperation.COLLECTION]: 'collection',
  [FeeOperation.PAYOUT]: 'payout',
  [FeeOperation.REFUND]: 'refund',
};
const OPERATIONS: Record<FeeOperationName, FeeOperation> = {
  swap: FeeOperation.SWAP,
  collection: FeeOperation.COLLECTION,
  payout: FeeOperation.PAYOUT,
  refund: FeeOperation.REFUND,
};

export function feeOperationName(operation: FeeOperation, field = 'type'): FeeOperationName {
  const name = OPERATION_NAMES[operation];
  if (!name)
    throw invalidArgument(`${field} must be one of swap, collection, payout, refund`, {
      [field]: ['must be one of swap, collection, payout, refund'],
    });
  return name;
}

const ruleOf = (row: Row): FeeRule => ({
  businessId: row.business_id === null ? null : String(row.business_id),
  operation: String(row.operation) as FeeOperationName,
  currency: String(row.currency),
  flat: int8(row.flat),
  percentageBps: Number(row.percentage_bps),
  minimum: row.minimum === null ? null : int8(row.minimum),
  maximum: row.maximum === null ? null : int8(row.maximum),
  updatedAt: dateOf(row.updated_at),
});

/** The rule that prices an operation for a business: its own when it has one, else the default. */
export async function feeRuleFor(
  em: EntityManager,
  businessId: string,
  operation: FeeOperationName,
  currency: string,
): Promise<FeeRule> {
  const [row] = await sql(
    em,
    `select * from fee_rule where operation = ? and currency = ? and (business_id = ? or business_id is null)
     order by business_id nulls last limit 1`,
    [operation, currency, businessId],
  );
  // No rule at all: free (the migration seeds a default for every currency and operation).
  return row
    ? ruleOf(row)
    : {
        businessId: null,
        operation,
        currency,
        flat: 0n,
        percentageBps: 0,
        minimum: null,
        maximum: null,
        updatedAt: new Date(0),
      };
}

/** GET /fees: what an operation of this amount would be charged. */
export async function quoteFees(
  em: EntityManager,
  businessId: string,
  input: { operation: FeeOperation; currency: string; amount: bigint },
): Promise<FeeBreakdown> {
  const operation = feeOperationName(input.operation);
  requireCurrency(await allCurrencies(em), input.currency, 'currency', operation === 'refund' ? undefined : operation);
  if (input.amount <= 0n) {
    throw invalidArgument(
      'amount must be a positive whole number of minor units',
      { amount: ['must be a positive whole number of minor units'] },
      'INVALID_AMOUNT',
    );
  }
  const rule = await feeRuleFor(em, businessId, operation, input.currency);
  const charge = feeFor(rule, input.amount);
  return create(FeeBreakdownSchema, {
    operation: input.operation,
    currency: input.currency,
    amount: input.amount,
    flat: charge.flat,
    percentageBps: rule.percentageBps,
    percentageAmount: charge.percentageAmount,
    minimum: rule.minimum ?? undefined,
    maximum: rule.maximum ?? undefined,
    total: charge.total,
    businessSpecific: rule.businessId !== null,
  });
}

const ruleMessage = (rule: FeeRule): FeeRuleMessage =>
  create(FeeRuleSchema, {
    businessId: rule.businessId ?? '',
    operation: OPERATIONS[rule.operation],
    currency: rule.currency,
    flat: rule.flat,
    percentageBps: rule.percentageBps,
    minimum: rule.minimum ?? undefined,
    maximum: rule.maximum ?? undefined,
    updatedAt: timestampFromDate(rule.updatedAt),
  });

/** Back office: sets a default rule (no business) or a business's own. */
export async function setFeeRule(
  em: EntityManager,
  context: PaymentsContext,
  input: FeeRuleMessage,
): Promise<FeeRuleMessage> {
  const operation = feeOperationName(input.operation);
  requireCurrency(await allCurrencies(em), input.currency, 'currency');
  const problems: Record<string, string[]> = {};
  if (input.businessId !== '' && !isUuid(input.businessId)) problems.business_id = ['must be a uuid or null'];
  if (input.flat < 0n) problems.flat = ['must not be negative'];
  if (input.percentageBps > 10_000) problems.percentage_bps = ['must be from 0 to 10000'];
  if (input.minimum !== undefined && input.minimum < 0n) problems.minimum = ['must not be negative'];
  if (input.maximum !== undefined && input.maximum < 0n) problems.maximum = ['must not be negative'];
  if (input.minimum !== undefined && input.maximum !== undefined && input.minimum > input.maximum) {
    problems.maximum = ['must not be below minimum'];
  }
  const fields = Object.keys(problems);
  if (fields.length > 0)
    throw invalidArgument(`invalid fee rule: ${fields.map((f) => `${f} ${problems[f]?.[0]}`).join('; ')}`, problems);
  const [row] = await sql(
    em,
    `insert into fee_rule (business_id, operation, currency, flat, percentage_bps, minimum, maximum, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (business_id, operation, currency) do update set flat = excluded.flat,
       percentage_bps = excluded.percentage_bps, minimum = excluded.minimum, maximum = excluded.maximum,
       updated_at = excluded.updated_at
     returning *`,
    [
      input.businessId === '' ? null : input.businessId,
      operation,
      input.currency,
      input.flat.toString(),
      input.percentageBps,
      input.minimum?.toString() ?? null,
      input.maximum?.toString() ?? null,
      context.now(),
    ],
  );
  if (!row) throw new Error('fee_rule upsert returned no row');
  return ruleMessage(ruleOf(row));
}

export async function listFeeRules(em: EntityManager, businessId: string): Promise<FeeRuleMessage[]> {
  if (businessId !== '' && !isUuid(businessId)) {
    throw invalidArgument('business_id must be a uuid', { business_id: ['must be a uuid'] });
  }
  const rows = await sql(
    em,
    `select * from fee_rule where ? = '' or business_id = ?::uuid or business_id is null
     order by business_id nulls first, operation, currency`,
    [businessId, businessId === '' ? null : businessId],
  );
  return rows.map((row) => ruleMessage(ruleOf(row)));
}
