import type { AdminCheckLedgerResponse } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { ref } from '../http/json-schema.js';
import { pathParam } from '../http/path-params.js';
import { readBody } from '../http/input.js';
import { int64Of, jsonIntegerOf } from '../floor/int64.js';
import { present, transactionOf, walletJson } from '../public/payments/render.js';
import { ADJUSTMENT_DIRECTIONS } from '../public/payments/vocabulary.js';
import { jsonSchemaOf } from './json-schema.js';
import { AdjustmentBody, LedgerCheck, WalletList } from './money-schemas.js';
import { businessIdOfPath, NO_SUCH_BUSINESS } from './path-ids.js';
import type { AdminRoute, AdminRouteContext } from '../floor/route-context.js';
import { iso } from '../floor/times.js';

/** The back office's view of the money: wallets, audited adjustments, the ledger's invariants. */

/** The adjustments' author in payments' audit trail: the admin API has one operator identity. */
const ACTOR = 'admin';

function ledgerCheckJson(check: AdminCheckLedgerResponse) {
  return {
    ok: check.ok,
    violations: check.violations.map(({ rule, currency, account, detail }) => ({ rule, currency, account, detail })),
    accounts_checked: jsonIntegerOf(check.accountsChecked, 'accounts_checked'),
    transfers_checked: jsonIntegerOf(check.transfersChecked, 'transfers_checked'),
    checked_at: iso(present(check.checkedAt, 'checked_at')),
  };
}

async function adjustWallet({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const businessId = businessIdOfPath(req);
  const body = readBody(AdjustmentBody, req.body);
  const answer = await clients.wallets.adminAdjustWallet(
    {
      businessId,
      // payments says whether it holds the currency (UNKNOWN_CURRENCY).
      currency: pathParam(req, 'currency'),
      amount: int64Of(body.amount),
      direction: ADJUSTMENT_DIRECTIONS.toProto(body.direction),
      reason: body.reason,
      actor: ACTOR,
    },
    call,
  );
  res.status(201).json(transactionOf(answer));
}

async function listWallets({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const { wallets } = await clients.wallets.adminListWallets({ businessId: businessIdOfPath(req) }, call);
  res.json({ data: wallets.map(walletJson) });
}

async function checkLedger({ res, clients, call }: AdminRouteContext): Promise<void> {
  res.json(ledgerCheckJson(await clients.wallets.adminCheckLedger({}, call)));
}

export const WALLET_CONTROL_ROUTES: readonly AdminRoute[] = [
  {
    method: 'post',
    path: '/admin/businesses/{id}/wallets/{currency}/adjustments',
    operationId: 'adjustWallet',
    summary:
      'Credit or debit a business’s wallet through the ledger, with a reason for the audit trail (the sandbox funds wallets this way)',
    requestBody: jsonSchemaOf(AdjustmentBody, 'input'),
    responses: {
      201: { description: 'The ADJUSTMENT transaction', schema: { $ref: ref('schemas', 'Transaction').$ref } },
      404: NO_SUCH_BUSINESS,
      422: {
        description:
          'A field missing, of the wrong JSON type or unknown, direction not credit or debit, a reason with control characters (VALIDATION_FAILED, `errors` names each); or payments refuses: an amount not above 0, a reason empty or over 500 characters, a currency it does not hold (UNKNOWN_CURRENCY), a debit beyond the available balance (INSUFFICIENT_FUNDS)',
      },
    },
    handle: adjustWallet,
  },
  {
    method: 'get',
    path: '/admin/businesses/{id}/wallets',
    operationId: 'listBusinessWallets',
    summary: 'A business’s wallets, one per currency, with available, pending and ledger balances',
    responses: { 200: { description: 'Every wallet', schema: jsonSchemaOf(WalletList) }, 404: NO_SUCH_BUSINESS },
    handle: listWallets,
  },
  {
    method: 'get',
    path: '/admin/ledger/check',
    operationId: 'checkLedger',
    summary:
      'Check the ledger’s invariants: per currency debits equal credits, every balance equals its entries, no wallet below zero',
    responses: { 200: { description: 'The verdict, every violation named', schema: jsonSchemaOf(LedgerCheck) } },
    handle: checkLedger,
  },
];
