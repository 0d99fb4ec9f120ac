import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  IdentificationTypeSchema,
  VirtualAccountCloseReason,
  VirtualAccountSchema,
  VirtualAccountStatus,
  type IdentificationType,
  type VirtualAccount,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import type { ListVirtualAccountsRequest } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { invalidArgument, notFound } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { requireCustomer, type KnownCustomer } from '../customers/customer-projection.js';
import { dateOf, sql, type Row } from '../ledger/index.js';
import { allCurrencies, requireCurrency } from '../reference/currencies.js';
import { keysetPage, keysetRead } from '@corridor/pagination';
import { isVirtualAccountCurrency, issueAccountNumber, type VirtualAccountCurrency } from './sandbox-accounts.js';

/** seed 1: FULL KYB opens NGN, USD, GBP, EUR; MINIMAL KYB NGN only; individuals NGN only (decision 0014). */
export function currenciesAllowedFor(customer: Pick<KnownCustomer, 'type' | 'kybScope'>): VirtualAccountCurrency[] {
  return customer.type === 'business' && customer.kybScope === 'FULL' ? ['NGN', 'USD', 'GBP', 'EUR'] : ['NGN'];
}

export function virtualAccountOf(row: Row): VirtualAccount {
  return create(VirtualAccountSchema, {
    id: String(row.id),
    customerId: String(row.customer_id),
    currency: String(row.currency),
    status: row.status === 'closed' ? VirtualAccountStatus.CLOSED : VirtualAccountStatus.ACTIVE,
    accountName: String(row.account_name),
    accountNumber: String(row.account_number),
    bankName: String(row.bank_name),
    bankCode: String(row.bank_code),
    createdAt: timestampFromDate(dateOf(row.created_at)),
    closedAt: row.closed_at === null ? undefined : timestampFromDate(dateOf(row.closed_at)),
    closeReason:
      row.close_reason === null
        ? undefined
        : row.close_reason === 'customer_rejected'
          ? VirtualAccountCloseReason.CUSTOMER_REJECTED
          : VirtualAccountCloseReason.REQUESTED,
  });
}

/**
 * POST /virtual-account (seed 1, 4.4): only for a VERIFIED customer of the business, in a currency
 * its verification allows, one open account per customer and currency (a partial unique index, so
 * two racing requests open one account). Every refusal is 422 naming why.
 */
export async function createVirtualAccount(
  tx: EntityManager,
  context: PaymentsContext,
  businessId: string,
  request: { customerId: string; currency: string },
): Promise<VirtualAccount> {
  const currency = requireCurrency(await allCurrencies(tx), request.currency, 'currency', 'virtual_account');
  // A refusal on the projection's word alone may be older than customer-kyb's (a verdict or an upgrade
  // to FULL KYB just answered): then customer-kyb decides (decision 0033).
  const customer = await requireCustomer(
    tx,
    context,
    businessId,
    request.customerId,
    (known) =>
      known.verificationStatus === 'VERIFIED' &&
      (currenciesAllowedFor(known) as readonly string[]).includes(currency.code),
  );
  if (customer.verificationStatus !== 'VERIFIED') {
    throw invalidArgument(
      `customer ${customer.id} is ${customer.verificationStatus}: a virtual account is opened only for a VERIFIED customer`,
      { customer_id: [`must be VERIFIED, is ${customer.verificationStatus}`] },
      'CUSTOMER_NOT_VERIFIED',
    );
  }
  const allowed = currenciesAllowedFor(customer);
  if (!isVirtualAccountCurrency(currency.code) || !allowed.includes(currency.code)) {
    const who = customer.type === 'business' ? `a business at ${customer.kybScope ?? 'MINIMAL'} KYB` : 'an individual';
    throw invalidArgument(
      `${who} can hold ${allowed.join(', ')} virtual accounts, not ${currency.code}${customer.type === 'business' && customer.kybScope !== 'FULL' ? ': upgrade the customer to FULL KYB first' : ''}`,
      { currency: [`must be one of ${allowed.join(', ')} for this customer`] },
      'CURRENCY_NOT_ALLOWED_FOR_CUSTOMER',
    );
  }
  const [serial] = await sql(tx, `select nextval('virtual_account_serial_seq') as serial`);
  const issued = issueAccountNumber(currency.code, BigInt(String(serial?.serial)));
  const at = context.now();
  // The partial unique index decides: of two racing requests, one inserts and the other gets no row.
  const [row] = await sql(
    tx,
    `insert into virtual_account (id, business_id, customer_id, currency, status, account_name, account_number,
       bank_name, bank_code, created_at)
     values (?, ?, ?, ?, 'active', ?, ?, ?, ?, ?)
     on conflict (customer_id, currency) where status = 'active' do nothing
     returning *`,
    [
      randomUUID(),
      businessId,
      customer.id,
      currency.code,
      customer.displayName,
      issued.accountNumber,
      issued.bankName,
      issued.bankCode,
      at,
    ],
  );
  if (!row) {
    throw invalidArgument(
      `customer ${customer.id} already has an open ${currency.code} virtual account; close it first to open another`,
      { currency: ['already has an open virtual account for this customer'] },
      'VIRTUAL_ACCOUNT_ALREADY_OPEN',
    );
  }
  return virtualAccountOf(row);
}

/** The business's virtual account; another business's is indistinguishable from a missing one. */
export async function requireVirtualAccount(
  em: EntityManager,
  businessId: string,
  id: string,
  lock = false,
): Promise<Row> {
  const [row] = isUuid(id)
    ? await sql(em, `select * from virtual_account where id = ? and business_id = ?${lock ? ' for update' : ''}`, [
        id,
        businessId,
      ])
    : [];
  if (!row) throw notFound('VIRTUAL_ACCOUNT_NOT_FOUND', `no virtual account ${id} for this business`);
  return row;
}

export async function getVirtualAccount(em: EntityManager, businessId: string, id: string): Promise<VirtualAccount> {
  return virtualAccountOf(await requireVirtualAccount(em, businessId, id));
}

/** POST /virtual-account/{id}/close: later transfers bounce. A closed account stays closed (no-op). */
export async function closeVirtualAccount(
  em: EntityManager,
  context: PaymentsContext,
  businessId: string,
  id: string,
): Promise<VirtualAccount> {
  await requireVirtualAccount(em, businessId, id);
  await sql(
    em,
    `update virtual_account set status = 'closed', closed_at = ?, close_reason = 'requested'
     where id = ? and status = 'active'`,
    [context.now(), id],
  );
  return getVirtualAccount(em, businessId, id);
}

/** GET /virtual-account: newest first, keyset pages, exact filters each served by an index. */
export async function listVirtualAccounts(em: EntityManager, businessId: string, request: ListVirtualAccountsRequest) {
  const read = keysetRead(request.page);
  const where = ['business_id = ?'];
  const params: unknown[] = [businessId];
  if (request.customerId !== undefined) {
    // Not a uuid names no customer: an empty page, not an error of the database.
    where.push(isUuid(request.customerId) ? 'customer_id = ?' : 'false');
    if (isUuid(request.customerId)) params.push(request.customerId);
  }
  if (request.currency !== undefined) {
    where.push('currency = ?');
    params.push(request.currency);
  }
  if (request.status !== undefined) {
    where.push('status = ?');
    params.push(request.status === VirtualAccountStatus.CLOSED ? 'closed' : 'active');
  }
  if (read.seek) {
    where.push(read.seek);
    params.push(...read.seekParams);
  }
  const rows = await sql(
    em,
    `select * from virtual_account where ${where.join(' and ')} order by ${read.order} limit ?`,
    [...params, read.limit + 1],
  );
  const page = keysetPage(rows, read, (row) => ({ createdAt: dateOf(row.created_at), id: String(row.id) }));
  return { ...page, virtualAccounts: page.rows.map(virtualAccountOf) };
}

const IDENTIFICATION_TYPES: readonly IdentificationType[] = [
  { code: 'BVN', name: 'Bank Verification Number', country: 'NG', customerTypes: ['individual'] },
  { code: 'NIN', name: 'National Identification Number', country: 'NG', customerTypes: ['individual'] },
  { code: 'PASSPORT', name: 'International passport', country: '', customerTypes: ['individual'] },
  { code: 'DRIVERS_LICENSE', name: "Driver's licence", country: '', customerTypes: ['individual'] },
  { code: 'NATIONAL_ID', name: 'National identity card', country: '', customerTypes: ['individual'] },
  {
    code: 'CAC',
    name: 'Corporate Affairs Commission registration (RC/BN number)',
    country: 'NG',
    customerTypes: ['business'],
  },
  { code: 'COMPANY_REGISTRATION', name: 'Company registration number', country: '', customerTypes: ['business'] },
  { code: 'TIN', name: 'Tax identification number', country: '', customerTypes: ['business'] },
].map((type) => create(IdentificationTypeSchema, type));

/** GET /virtual-account/identification-types: the documents a virtual-account holder is verified with. */
export const identificationTypes = (): readonly IdentificationType[] => IDENTIFICATION_TYPES;
