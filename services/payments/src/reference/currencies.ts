import { create } from '@bufbuild/protobuf';
import { CurrencyOperation, CurrencySchema, type Currency } from '@corridor/contracts/corridor/payments/v1/money_pb';
import { invalidArgument } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import { sql } from '../ledger/index.js';

export type CurrencyOperationName = 'swap' | 'collection' | 'payout' | 'virtual_account';

export interface CurrencyRecord {
  code: string;
  name: string;
  exponent: number;
  operations: CurrencyOperationName[];
}

const OPERATION: Record<CurrencyOperationName, CurrencyOperation> = {
  swap: CurrencyOperation.SWAP,
  collection: CurrencyOperation.COLLECTION,
  payout: CurrencyOperation.PAYOUT,
  virtual_account: CurrencyOperation.VIRTUAL_ACCOUNT,
};

const readOnce = new WeakMap<object, Promise<ReadonlyMap<string, CurrencyRecord>>>();

/**
 * Every currency, by code (ISO 4217 reference data, changed only by migrations). A process reads
 * them once per database (one driver per ORM): a money request spends no statement on them.
 */
export function allCurrencies(em: EntityManager): Promise<ReadonlyMap<string, CurrencyRecord>> {
  const driver = em.getDriver();
  let currencies = readOnce.get(driver);
  if (!currencies) {
    currencies = readCurrencies(em);
    readOnce.set(driver, currencies);
    currencies.catch(() => readOnce.delete(driver));
  }
  return currencies;
}

/** Forgets what allCurrencies read, as a restart after a migration would (specs that change the table). */
export function forgetCurrencies(em: EntityManager): void {
  readOnce.delete(em.getDriver());
}

async function readCurrencies(em: EntityManager): Promise<ReadonlyMap<string, CurrencyRecord>> {
  const rows = await sql(em, 'select code, name, exponent, operations from currency order by code');
  return new Map(
    rows.map((row) => [
      String(row.code),
      {
        code: String(row.code),
        name: String(row.name),
        exponent: Number(row.exponent),
        operations: (Array.isArray(row.operations) ? row.operations : []).map(String) as CurrencyOperationName[],
      },
    ]),
  );
}

export const currencyMessage = (currency: CurrencyRecord): Currency =>
  create(CurrencySchema, {
    code: currency.code,
    name: currency.name,
    exponent: currency.exponent,
    operations: currency.operations.map((operation) => OPERATION[operation]),
  });

/**
 * The currency named by `field`, able to do `operation`; 422 naming the field otherwise.
 * `currencies` is the map of allCurrencies.
 */
export function requireCurrency(
  currencies: ReadonlyMap<string, CurrencyRecord>,
  code: string,
  field: string,
  operation?: CurrencyOperationName,
): CurrencyRecord {
  const currency = currencies.get(code);
  if (!currency) {
    const known = [...currencies.keys()].join(', ');
    throw invalidArgument(
      `${field} ${JSON.stringify(code)} is not a currency Corridor supports (${known})`,
      { [field]: [`must be one of ${known}`] },
      'UNKNOWN_CURRENCY',
    );
  }
  if (operation && !currency.operations.includes(operation)) {
    throw invalidArgument(
      `${currency.code} does not support ${operation.replace('_', ' ')}s`,
      { [field]: [`does not support ${operation.replace('_', ' ')}s`] },
      'CURRENCY_OPERATION_NOT_SUPPORTED',
    );
  }
  return currency;
}
