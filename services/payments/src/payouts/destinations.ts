import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  BankSchema,
  AccountScheme,
  BeneficiarySchema,
  type Bank,
  type Beneficiary,
  type PayoutDestination,
  PayoutDestinationSchema,
} from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import { invalidArgument, notFound } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import type { PaymentsContext } from '../context.js';
import { dateOf, sql, type Row } from '../ledger/index.js';
import { keysetPage, keysetRead } from '@corridor/pagination';
import {
  accountProblem,
  SANDBOX_BANKS,
  sandboxAccountName,
  sandboxBank,
  sandboxOutcome,
  type SchemeName,
} from './sandbox-directory.js';

const SCHEME: Record<SchemeName, AccountScheme> = {
  nuban: AccountScheme.NUBAN,
  sort_code: AccountScheme.SORT_CODE,
  iban: AccountScheme.IBAN,
  aba: AccountScheme.ABA,
};

/** GET /bank: the banks a payout can reach, filtered by country and currency. */
export function listBanks(country: string, currency: string): Bank[] {
  return SANDBOX_BANKS.filter(
    (bank) => (!country || bank.country === country) && (!currency || bank.currency === currency),
  ).map((bank) => create(BankSchema, { ...bank, scheme: SCHEME[bank.scheme] }));
}

/** The account holder at a bank, from the rail's directory, or 422 naming why there is none (issue 12). */
export function resolveDestination(bankCode: string, accountNumber: string): PayoutDestination {
  const bank = sandboxBank(bankCode);
  const problem = accountProblem(bankCode, accountNumber);
  if (!bank || problem === 'unknown_bank') {
    throw invalidArgument(
      `bank_code ${JSON.stringify(bankCode)} is not a bank Corridor can pay (GET /api/external/bank lists them)`,
      { bank_code: ['is not a known bank'] },
      'UNKNOWN_BANK',
    );
  }
  if (problem === 'invalid_account_number') {
    throw invalidArgument(
      `account_number ${JSON.stringify(accountNumber)} is not a valid ${bank.scheme.replace('_', ' ').toUpperCase()} account number for ${bank.name} (format or check digits)`,
      { account_number: ['has a wrong format or check digit'] },
      'INVALID_ACCOUNT_NUMBER',
    );
  }
  if (sandboxOutcome(bankCode, accountNumber) === 'not_found') {
    throw invalidArgument(
      `${bank.name} has no account ${accountNumber}`,
      { account_number: ['does not exist at this bank'] },
      'ACCOUNT_NOT_FOUND',
    );
  }
  return create(PayoutDestinationSchema, {
    bankCode: bank.code,
    bankName: bank.name,
    accountNumber,
    accountName: sandboxAccountName(bank.code, accountNumber),
    currency: bank.currency,
  });
}

/**
 * GET /bank/account-lookup: resolveDestination, remembered for the business — production pays
 * only destinations looked up first (decision 0013).
 */
export async function lookupAccount(
  em: EntityManager,
  context: PaymentsContext,
  businessId: string,
  bankCode: string,
  accountNumber: string,
): Promise<PayoutDestination> {
  const destination = resolveDestination(bankCode, accountNumber);
  await sql(
    em,
    `insert into account_lookup (business_id, bank_code, account_number, account_name, looked_up_at) values (?, ?, ?, ?, ?)
     on conflict (business_id, bank_code, account_number) do update set account_name = excluded.account_name, looked_up_at = excluded.looked_up_at`,
    [businessId, destination.bankCode, accountNumber, destination.accountName, context.now()],
  );
  return destination;
}

const beneficiaryOf = (row: Row): Beneficiary =>
  create(BeneficiarySchema, {
    id: String(row.id),
    destination: {
      bankCode: String(row.bank_code),
      bankName: String(row.bank_name),
      accountNumber: String(row.account_number),
      accountName: String(row.account_name),
      currency: String(row.currency),
    },
    createdAt: timestampFromDate(dateOf(row.created_at)),
    lastUsedAt: timestampFromDate(dateOf(row.last_used_at)),
  });

export async function getBeneficiary(
  em: EntityManager,
  businessId: string,
  beneficiaryId: string,
): Promise<Beneficiary | undefined> {
  if (!isUuid(beneficiaryId)) return undefined;
  const [row] = await sql(em, 'select * from beneficiary where id = ? and business_id = ?', [
    beneficiaryId,
    businessId,
  ]);
  return row ? beneficiaryOf(row) : undefined;
}

export async function requireBeneficiary(
  em: EntityManager,
  businessId: string,
  beneficiaryId: string,
): Promise<Beneficiary> {
  const beneficiary = await getBeneficiary(em, businessId, beneficiaryId);
  if (!beneficiary) throw notFound('BENEFICIARY_NOT_FOUND', `no beneficiary ${beneficiaryId} for this business`);
  return beneficiary;
}

/** Saves (or touches) a destination as a beneficiary of the business; returns its id. */
export async function saveBeneficiary(
  tx: EntityManager,
  businessId: string,
  destination: PayoutDestination,
  id: string,
  at: Date,
): Promise<string> {
  const [row] = await sql(
    tx,
    `insert into beneficiary (id, business_id, bank_code, bank_name, account_number, account_name, currency, created_at, last_used_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (business_id, bank_code, account_number) do update set last_used_at = excluded.last_used_at,
       account_name = excluded.account_name
     returning id`,
    [
      id,
      businessId,
      destination.bankCode,
      destination.bankName,
      destination.accountNumber,
      destination.accountName,
      destination.currency,
      at,
      at,
    ],
  );
  return String(row?.id ?? id);
}

/** GET /beneficiary: newest first, keyset pages (the cursors of transactions). */
export async function listBeneficiaries(
  em: EntityManager,
  businessId: string,
  page: { cursor: string; limit: number } | undefined,
) {
  const read = keysetRead(page);
  const rows = await sql(
    em,
    `select * from beneficiary where business_id = ? ${read.seek ? `and ${read.seek}` : ''} order by ${read.order} limit ?`,
    [businessId, ...read.seekParams, read.limit + 1],
  );
  const found = keysetPage(rows, read, (row) => ({ createdAt: dateOf(row.created_at), id: String(row.id) }));
  return { ...found, beneficiaries: found.rows.map(beneficiaryOf) };
}
