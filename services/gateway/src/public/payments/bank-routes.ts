import { z } from '@corridor/config';
import { HttpError } from '../../http/errors.js';
import { queryOf } from '../../floor/pages/page-query.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { cursorEnvelope, listLocationOf } from '../../floor/pages/cursor-page.js';
import { readQuery } from '../../http/input.js';
import { jsonSchemaOf, querySchemaOf } from './json-schema.js';
import { AccountLookupQuery, BankQuery, BeneficiaryListQuery } from './payout-requests.js';
import { bankOf, beneficiaryOf, destinationOf } from './payout-render.js';
import { Bank, Beneficiary, BeneficiaryList, PayoutDestination } from './payout-responses.js';
import { present } from './render.js';
import { successBody } from '../../floor/success-body.js';
import { uuidOfPath } from '../../floor/path-ids.js';

/** Where a payout can go: the banks, an account's holder, the business's saved beneficiaries. */

export const bankListBody = successBody('banks retrieved', z.array(Bank));
export const accountLookupBody = successBody('account retrieved', PayoutDestination);
export const beneficiaryBody = successBody('beneficiary retrieved', Beneficiary);

async function listBanks({ req, res, clients, call }: RouteContext): Promise<void> {
  const query = readQuery(BankQuery, queryOf(req.originalUrl));
  const { banks } = await clients.payouts.listBanks(
    { country: query.country ?? '', currency: query.currency ?? '' },
    call,
  );
  res.json({ message: 'banks retrieved', data: banks.map(bankOf) });
}

async function lookupAccount({ req, res, clients, call }: RouteContext): Promise<void> {
  const query = readQuery(AccountLookupQuery, queryOf(req.originalUrl));
  const response = await clients.payouts.lookupAccount(
    { bankCode: query.bank_code, accountNumber: query.account_number },
    call,
  );
  res.json({ message: 'account retrieved', data: destinationOf(response) });
}

async function listBeneficiaries({ req, res, clients, call }: RouteContext): Promise<void> {
  const params = queryOf(req.originalUrl);
  const query = readQuery(BeneficiaryListQuery, params);
  const { beneficiaries, page } = await clients.payouts.listBeneficiaries(
    { page: { cursor: query.cursor ?? '', limit: query.per_page } },
    call,
  );
  res.json(
    cursorEnvelope(
      beneficiaries.map(beneficiaryOf),
      present(page, 'page'),
      query.per_page,
      listLocationOf(req, params),
    ),
  );
}

async function getBeneficiary({ req, res, clients, call }: RouteContext): Promise<void> {
  const id = uuidOfPath(
    req,
    'id',
    (id) => new HttpError(404, 'BENEFICIARY_NOT_FOUND', `no beneficiary ${id} in this business`),
  );
  const { beneficiary } = await clients.payouts.getBeneficiary({ beneficiaryId: id }, call);
  res.json({ message: 'beneficiary retrieved', data: beneficiaryOf(present(beneficiary, 'beneficiary')) });
}

export const BANK_ROUTES: readonly PublicRoute[] = [
  {
    method: 'get',
    path: '/api/external/bank',
    scope: 'bank:read',
    operationId: 'listBanks',
    summary: 'The banks a payout can reach, with the scheme their account numbers follow',
    query: querySchemaOf(BankQuery),
    responses: {
      200: { description: 'Every matching bank (none: an empty list)', schema: jsonSchemaOf(bankListBody) },
      422: {
        description:
          'country is not an ISO 3166 alpha-2 code or currency not a currency code, or an unknown or repeated parameter (VALIDATION_FAILED, `errors` names each)',
      },
    },
    handle: listBanks,
  },
  {
    method: 'get',
    path: '/api/external/bank/account-lookup',
    scope: 'bank:read',
    operationId: 'lookupAccount',
    summary: 'The holder’s name of an account at a bank, to confirm before paying it',
    query: querySchemaOf(AccountLookupQuery),
    responses: {
      200: { description: 'The account and its holder', schema: jsonSchemaOf(accountLookupBody) },
      422: {
        description:
          'bank_code or account_number is missing or not letters and digits, or an unknown or repeated parameter (VALIDATION_FAILED, `errors` names each); no such bank (UNKNOWN_BANK); the account number is not one of the bank’s scheme or its check digits do not hold (INVALID_ACCOUNT_NUMBER); the bank has no such account (ACCOUNT_NOT_FOUND)',
      },
    },
    handle: lookupAccount,
  },
  {
    method: 'get',
    path: '/api/external/beneficiary',
    scope: 'beneficiary:read',
    operationId: 'listBeneficiaries',
    summary: 'Your business’s saved payout destinations, newest first, in cursor pages',
    query: querySchemaOf(BeneficiaryListQuery),
    responses: {
      200: {
        description: 'A page of beneficiaries in Laravel’s cursor-paginator envelope',
        schema: jsonSchemaOf(BeneficiaryList),
      },
      422: {
        description:
          'per_page outside 1..100, an empty cursor, an unknown or repeated parameter (VALIDATION_FAILED, `errors` names each); a cursor that is not one of this list’s pages (payments refuses it, naming cursor)',
      },
    },
    handle: listBeneficiaries,
  },
  {
    method: 'get',
    path: '/api/external/beneficiary/{id}',
    scope: 'beneficiary:read',
    operationId: 'getBeneficiary',
    summary: 'Read one of your business’s saved payout destinations',
    responses: {
      200: { description: 'The beneficiary', schema: jsonSchemaOf(beneficiaryBody) },
      404: { description: 'Your business has no beneficiary with this id (BENEFICIARY_NOT_FOUND)' },
    },
    handle: getBeneficiary,
  },
];
