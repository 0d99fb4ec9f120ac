import { HttpError } from '../../http/errors.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { int64Of } from '../../floor/int64.js';
import { readBody } from '../../http/input.js';
import { jsonSchemaOf } from './json-schema.js';
import { PayoutBody } from './payout-requests.js';
import { payoutOf } from './payout-render.js';
import { Payout } from './payout-responses.js';
import { successBody } from '../../floor/success-body.js';
import { withExample } from '../../floor/examples.js';
import { uuidOfPath } from '../../floor/path-ids.js';

/** A payout from the business's wallet to a bank account, and reading it back (decision 0013). */

export const payoutCreatedBody = successBody('payout created', Payout);
export const payoutBody = successBody('payout retrieved', Payout);

async function createPayout({ req, res, clients, call }: RouteContext): Promise<void> {
  const body = readBody(PayoutBody, req.body);
  const response = await clients.payouts.createPayout(
    {
      amount: int64Of(body.amount),
      currency: body.currency,
      bankCode: body.bank_code,
      accountNumber: body.account_number,
      beneficiaryId: body.beneficiary_id,
      narration: body.narration,
      reference: body.reference,
      saveBeneficiary: body.save_beneficiary,
    },
    call,
  );
  const payout = payoutOf(response);
  res.status(201).location(`/api/external/payout/${payout.id}`).json({ message: 'payout created', data: payout });
}

async function getPayout({ req, res, clients, call }: RouteContext): Promise<void> {
  const id = uuidOfPath(req, 'id', (id) => new HttpError(404, 'PAYOUT_NOT_FOUND', `no payout ${id} in this business`));
  const response = await clients.payouts.getPayout({ payoutId: id }, call);
  res.json({ message: 'payout retrieved', data: payoutOf(response) });
}

export const PAYOUT_ROUTES: readonly PublicRoute[] = [
  {
    method: 'post',
    path: '/api/external/payout',
    scope: 'payout:create',
    operationId: 'createPayout',
    summary:
      'Pay from your wallet to a bank account, given as bank_code and account_number or as a saved beneficiary; the outcome arrives by the payout webhook',
    requestBody: withExample(jsonSchemaOf(PayoutBody, 'input'), {
      amount: 500000,
      currency: 'NGN',
      // 058's check digit holds (NUBAN), so the sandbox rail knows the account.
      bank_code: '058',
      account_number: '0123456785',
      narration: 'Supplier invoice 1042',
      reference: 'payout-1042',
    }),
    responses: {
      201: {
        description: 'The payout, pending: amount and fee are reserved in your wallet until it succeeds or fails',
        schema: jsonSchemaOf(payoutCreatedBody),
      },
      409: {
        description:
          'reference is already used by another of your transactions (REFERENCE_ALREADY_USED), or a request with this Idempotency-Key is still in flight (IDEMPOTENCY_REQUEST_IN_FLIGHT)',
      },
      422: {
        description:
          'A field is missing, of the wrong JSON type, unknown or malformed: amount a whole number of minor units from 1 to 2^53 - 1, narration and reference 1 to 100 characters, bank_code and account_number letters and digits, beneficiary_id a uuid, and either bank_code with account_number or beneficiary_id, never both (VALIDATION_FAILED, `errors` names each field). Or payments refuses: INSUFFICIENT_FUNDS, UNKNOWN_CURRENCY, CURRENCY_OPERATION_NOT_SUPPORTED (the currency has no payouts), UNKNOWN_BANK, INVALID_ACCOUNT_NUMBER (its check digits do not hold), ACCOUNT_NOT_FOUND, CURRENCY_MISMATCH (the bank holds another currency), BENEFICIARY_NOT_FOUND, PAYOUT_LIMIT_EXCEEDED (your daily limit in this currency), LOOKUP_REQUIRED (production: look the account up first), INVALID_AMOUNT, IDEMPOTENCY_KEY_REUSED (the key was used with another body)',
      },
    },
    handle: createPayout,
  },
  {
    method: 'get',
    path: '/api/external/payout/{id}',
    scope: 'transaction:read',
    operationId: 'getPayout',
    summary: 'Read one of your business’s payouts: its status, destination and, when it failed, why',
    responses: {
      200: { description: 'The payout', schema: jsonSchemaOf(payoutBody) },
      404: { description: 'Your business has no payout with this id (PAYOUT_NOT_FOUND)' },
    },
    handle: getPayout,
  },
];
