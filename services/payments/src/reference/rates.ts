import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { RateQuoteSchema, type RateQuote } from '@corridor/contracts/corridor/payments/v1/money_pb';
import { MidRateSchema, type MidRate } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { invalidArgument } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { dateOf, sql, type Row } from '../ledger/index.js';
import { allCurrencies, requireCurrency, type CurrencyRecord } from './currencies.js';
import { applySpread, formatRate, invertRate, parseRate, type Rate } from './decimal-rate.js';

const midRateMessage = (row: Row, derived: boolean): MidRate =>
  create(MidRateSchema, {
    baseCurrency: String(derived ? row.quote_currency : row.base_currency),
    quoteCurrency: String(derived ? row.base_currency : row.quote_currency),
    rate: derived ? formatRate(invertRate(parseRateOrThrow(String(row.rate)))) : String(row.rate),
    derived,
    updatedAt: timestampFromDate(dateOf(row.updated_at)),
  });

function parseRateOrThrow(text: string): Rate {
  const rate = parseRate(text);
  if (rate === undefined) throw new Error(`stored rate ${text} is not a rate`);
  return rate;
}

/** Back office: the mid-rate of base → quote; the reverse pair is derived from it unless set itself. */
export async function setMidRate(
  em: EntityManager,
  context: PaymentsContext,
  input: { baseCurrency: string; quoteCurrency: string; rate: string },
): Promise<MidRate> {
  const currencies = await allCurrencies(em);
  requireCurrency(currencies, input.baseCurrency, 'base_currency', 'swap');
  requireCurrency(currencies, input.quoteCurrency, 'quote_currency', 'swap');
  if (input.baseCurrency === input.quoteCurrency) {
    throw invalidArgument(
      'base_currency and quote_currency must differ',
      { quote_currency: ['must differ from base_currency'] },
      'SAME_CURRENCY',
    );
  }
  const rate = parseRate(input.rate);
  if (rate === undefined) {
    throw invalidArgument(
      `rate ${JSON.stringify(input.rate)} must be a positive decimal string with at most 12 digits before and 12 after the point`,
      {
        rate: ['must be a positive decimal string with at most 12 digits before and 12 after the point'],
      },
    );
  }
  const [row] = await sql(
    em,
    `insert into fx_rate (base_currency, quote_currency, rate, updated_at) values (?, ?, ?, ?)
     on conflict (base_currency, quote_currency) do update set rate = excluded.rate, updated_at = excluded.updated_at
     returning *`,
    [input.baseCurrency, input.quoteCurrency, formatRate(rate), context.now()],
  );
  if (!row) throw new Error('fx_rate upsert returned no row');
  return midRateMessage(row, false);
}

/** Every pair with a rate: those set, and the reverses derived from them. */
export async function listMidRates(em: EntityManager): Promise<MidRate[]> {
  const rows = await sql(em, 'select * from fx_rate order by base_currency, quote_currency');
  const set = new Set(rows.map((row) => `${row.base_currency}/${row.quote_currency}`));
  const derived = rows.filter((row) => !set.has(`${row.quote_currency}/${row.base_currency}`));
  return [...rows.map((row) => midRateMessage(row, false)), ...derived.map((row) => midRateMessage(row, true))];
}

export async function setSpread(
  em: EntityManager,
  context: PaymentsContext,
  businessId: string,
  spreadBps: number,
): Promise<number> {
  if (!Number.isInteger(spreadBps) || spreadBps < 0 || spreadBps > 5_000) {
    throw invalidArgument('spread_bps must be a whole number from 0 to 5000', {
      spread_bps: ['must be a whole number from 0 to 5000'],
    });
  }
  await sql(
    em,
    `insert into fx_spread (business_id, spread_bps, updated_at) values (?, ?, ?)
     on conflict (business_id) do update set spread_bps = excluded.spread_bps, updated_at = excluded.updated_at`,
    [businessId, spreadBps, context.now()],
  );
  return spreadBps;
}

/**
 * The pair's mid-rate, set or derived from its reverse (undefined when neither direction is set),
 * and the business's spread: one statement, as every swap and quote asks for both.
 */
async function pairPrice(
  em: EntityManager,
  context: PaymentsContext,
  businessId: string,
  from: string,
  to: string,
): Promise<{ mid: Rate | undefined; spreadBps: number }> {
  const [row] = await sql(
    em,
    `select (select rate from fx_rate where base_currency = ? and quote_currency = ?) as direct,
            (select rate from fx_rate where base_currency = ? and quote_currency = ?) as reverse,
            (select spread_bps from fx_spread where business_id = ?) as spread_bps`,
    [from, to, to, from, businessId],
  );
  const mid =
    row?.direct != null
      ? parseRateOrThrow(String(row.direct))
      : row?.reverse != null
        ? invertRate(parseRateOrThrow(String(row.reverse)))
        : undefined;
  return { mid, spreadBps: row?.spread_bps != null ? Number(row.spread_bps) : context.defaultSpreadBps };
}

export interface BusinessRate {
  rate: Rate;
  mid: Rate;
  spreadBps: number;
  /** The two currencies, as checked. */
  from: CurrencyRecord;
  to: CurrencyRecord;
}

/**
 * The business's rate for a pair now: the mid-rate less its spread. 422 for an unknown currency,
 * one that cannot be swapped, the same currency twice, or a pair without a rate.
 */
export async function businessRate(
  em: EntityManager,
  context: PaymentsContext,
  businessId: string,
  pair: { from: string; to: string; fromField: string; toField: string },
): Promise<BusinessRate> {
  const currencies = await allCurrencies(em);
  const from = requireCurrency(currencies, pair.from, pair.fromField, 'swap');
  const to = requireCurrency(currencies, pair.to, pair.toField, 'swap');
  if (pair.from === pair.to) {
    throw invalidArgument(
      `${pair.from} to ${pair.to} is not an exchange: the currencies must differ`,
      { [pair.toField]: [`must differ from ${pair.fromField}`] },
      'SAME_CURRENCY',
    );
  }
  const { mid, spreadBps } = await pairPrice(em, context, businessId, pair.from, pair.to);
  if (mid === undefined) {
    throw invalidArgument(
      `Corridor does not exchange ${pair.from} for ${pair.to}: no rate is set for that pair`,
      { [pair.toField]: [`cannot be bought with ${pair.from}`] },
      'UNSUPPORTED_PAIR',
    );
  }
  return { rate: applySpread(mid, spreadBps), mid, spreadBps, from, to };
}

/** GET /rates: the business's rate for a pair now, recorded as a quote a swap may name until it expires. */
export async function quoteRate(
  em: EntityManager,
  context: PaymentsContext,
  businessId: string,
  pair: { from: string; to: string },
): Promise<RateQuote> {
  const priced = await businessRate(em, context, businessId, { ...pair, fromField: 'from', toField: 'to' });
  const createdAt = await context.clock.now(em, businessId);
  const quote = {
    id: randomUUID(),
    rate: formatRate(priced.rate),
    midRate: formatRate(priced.mid),
    expiresAt: new Date(createdAt.getTime() + context.quoteTtlMs),
  };
  await sql(
    em,
    `insert into rate_quote (id, business_id, from_currency, to_currency, rate, mid_rate, spread_bps, created_at, expires_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [quote.id, businessId, pair.from, pair.to, quote.rate, quote.midRate, priced.spreadBps, createdAt, quote.expiresAt],
  );
  return create(RateQuoteSchema, {
    quoteId: quote.id,
    fromCurrency: pair.from,
    toCurrency: pair.to,
    rate: quote.rate,
    midRate: quote.midRate,
    spreadBps: priced.spreadBps,
    createdAt: timestampFromDate(createdAt),
    expiresAt: timestampFromDate(quote.expiresAt),
  });
}

/** Quotes are kept a day past expiry (a swap names one within its lifetime), then deleted in batches. */
export async function pruneQuotes(em: EntityManager, now: Date, batch = 5_000): Promise<number> {
  const rows = await sql(
    em,
    `delete from rate_quote where id in (select id from rate_quote where expires_at < ? limit ?) returning 1`,
    [new Date(now.getTime() - 86_400_000), batch],
  );
  return rows.length;
}

export interface StoredQuote {
  id: string;
  fromCurrency: string;
  toCurrency: string;
  rate: string;
  expiresAt: Date;
}

/** The business's quote, or undefined (another business's quote is as missing as an unknown one). */
export async function findQuote(
  em: EntityManager,
  businessId: string,
  quoteId: string,
): Promise<StoredQuote | undefined> {
  if (!isUuid(quoteId)) return undefined;
  const [row] = await sql(em, 'select * from rate_quote where id = ? and business_id = ?', [quoteId, businessId]);
  return row
    ? {
        id: String(row.id),
        fromCurrency: String(row.from_currency),
        toCurrency: String(row.to_currency),
        rate: String(row.rate),
        expiresAt: dateOf(row.expires_at),
      }
    : undefined;
}
