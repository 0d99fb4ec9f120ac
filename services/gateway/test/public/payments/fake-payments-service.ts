import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  VirtualAccountCloseReason,
  VirtualAccountStatus,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { FeeRuleSchema, type FeeRule } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { TransactionStatus } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { PAYMENTS_SERVICES } from '@corridor/grpc';
import { Metadata } from '@grpc/grpc-js';
import type { Authenticated } from '../../../src/auth/authenticate.js';
import { startFakeGrpcServices, type Answer } from '@corridor/testing';
import { routesUnderTest, serveRoutes } from '../route-harness.js';
import type { PublicRoute } from '../../../src/floor/route-context.js';
import {
  adjustmentTransaction,
  BUSINESS_ID,
  CREATED,
  feeBreakdown,
  ngn,
  rateQuote,
  swapTransaction,
  UPDATED,
  usd,
  wallet,
} from './payments.fixtures.js';
import { banks, beneficiary, gtbankAccount, payoutTransaction } from './payout.fixtures.js';
import {
  bankTransferTransaction,
  identificationTypes,
  moneyRequestTransaction,
  paymentRequestView,
  refund,
  virtualAccount,
} from './collection.fixtures.js';
import {
  cryptoAddress,
  cryptoDepositTransaction,
  cryptoNetworks,
  interacRequestTransaction,
  interacTransferTransaction,
} from './crypto-interac.fixtures.js';

export type { Answer, ReceivedCall } from '@corridor/testing';

/** payments' capability services answering canned messages: the fixtures unless a spec sets an answer. */
export function startFakePayments() {
  const at = timestampFromDate;
  const defaults: Record<string, Answer> = {
    listCurrencies: () => ({ currencies: [ngn(), usd()] }),
    quoteRate: () => ({ quote: rateQuote() }),
    getFees: () => ({ fees: feeBreakdown() }),
    listWallets: () => ({ wallets: [wallet(), wallet({ currency: 'USD', updatedAt: undefined })] }),
    createSwap: () => ({ transaction: swapTransaction() }),
    getTransaction: () => ({ transaction: swapTransaction() }),
    listTransactions: () => ({ transactions: [swapTransaction()], page: { limit: 15 } }),
    listBanks: () => ({ banks: banks() }),
    lookupAccount: () => ({ destination: gtbankAccount() }),
    listBeneficiaries: () => ({ beneficiaries: [beneficiary()], page: { limit: 15 } }),
    getBeneficiary: () => ({ beneficiary: beneficiary() }),
    createPayout: () => ({ transaction: payoutTransaction() }),
    getPayout: () => ({ transaction: payoutTransaction() }),
    createVirtualAccount: () => ({ virtualAccount: virtualAccount() }),
    listVirtualAccounts: () => ({ virtualAccounts: [virtualAccount()], page: { limit: 15 } }),
    getVirtualAccount: () => ({ virtualAccount: virtualAccount() }),
    closeVirtualAccount: () => ({
      virtualAccount: virtualAccount({
        status: VirtualAccountStatus.CLOSED,
        closedAt: at(UPDATED),
        closeReason: VirtualAccountCloseReason.REQUESTED,
      }),
    }),
    listIdentificationTypes: () => ({ identificationTypes: identificationTypes() }),
    createCollection: () => ({ transaction: moneyRequestTransaction() }),
    getCollection: () => ({ transaction: moneyRequestTransaction() }),
    getPaymentRequest: () => ({ request: paymentRequestView() }),
    authorizePaymentRequest: (request) => ({
      request: paymentRequestView({ status: request.approve ? 'SUCCESSFUL' : 'FAILED' }),
    }),
    createRefund: () => ({ refund: refund(), existing: false }),
    getRefund: () => ({ refund: refund() }),
    sandboxIncomingTransfer: () => ({ transaction: bankTransferTransaction() }),
    sandboxSettleCollection: () => ({ transaction: moneyRequestTransaction({ completedAt: at(UPDATED) }) }),
    listCryptoNetworks: () => ({ networks: cryptoNetworks() }),
    createCryptoAddress: () => ({ address: cryptoAddress(), existing: false }),
    createInteracRequest: () => ({ transaction: interacRequestTransaction() }),
    acceptInteracTransfer: () => ({ transaction: interacTransferTransaction(TransactionStatus.SUCCESSFUL) }),
    sandboxCryptoDeposit: () => ({ transaction: cryptoDepositTransaction() }),
    sandboxInteracTransfer: () => ({ transaction: interacTransferTransaction() }),
    adminSetRate: (request) => ({
      rate: { ...request, derived: false, updatedAt: at(UPDATED) },
    }),
    adminListRates: () => ({
      rates: [
        { baseCurrency: 'USD', quoteCurrency: 'NGN', rate: '1533.74', derived: false, updatedAt: at(CREATED) },
        { baseCurrency: 'NGN', quoteCurrency: 'USD', rate: '0.000652', derived: true, updatedAt: at(CREATED) },
      ],
      defaultSpreadBps: 50,
    }),
    adminSetSpread: (request) => ({ businessId: request.businessId, spreadBps: request.spreadBps }),
    adminSetFeeRule: (request) => ({
      rule: create(FeeRuleSchema, { ...(request.rule as FeeRule), updatedAt: at(UPDATED) }),
    }),
    adminListFeeRules: () => ({
      rules: [{ businessId: '', operation: 1, currency: 'NGN', flat: 0n, percentageBps: 150, updatedAt: at(CREATED) }],
    }),
    adminAdjustWallet: () => ({ transaction: adjustmentTransaction() }),
    adminListWallets: () => ({ wallets: [wallet()] }),
    adminSetPayoutLimit: (request) => ({ ...request }),
    adminGetRailPayout: (request) => ({ payoutId: request.payoutId, submitCalls: 1, state: 'accepted' }),
    adminCheckLedger: () => ({
      ok: true,
      violations: [],
      accountsChecked: 12n,
      transfersChecked: 40n,
      checkedAt: at(UPDATED),
    }),
  };
  return startFakeGrpcServices(PAYMENTS_SERVICES, (method) => {
    const answer = defaults[method];
    if (!answer) throw new Error(`the fake payments has no answer for ${method}`);
    return answer;
  });
}

/**
 * The routes on loopback against the fake, as a caller of BUSINESS_ID holding `scopes`. The caller
 * reaches payments only through `call` (RouteContext.metadata is emptied), so a handler that passed
 * `{ metadata }` instead would call payments as nobody, and the specs would see it. `auth` is the
 * token as the public router authenticated it, for the routes whose answer depends on its scopes.
 */
export function servePaymentRoutes(
  routes: readonly PublicRoute[],
  payments: Awaited<ReturnType<typeof startFakePayments>>,
  scopes: string[],
) {
  const window = { used: 1, limit: 120, resetSeconds: 60 };
  const auth: Authenticated = {
    caller: {
      businessId: BUSINESS_ID,
      clientId: 'ci_test_1',
      scopes,
      generation: 1,
      environment: 'sandbox',
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    },
    minute: window,
    hour: { ...window, limit: 1500, resetSeconds: 3600 },
  };
  const throughCallOnly = routes.map((route) => ({
    ...route,
    handle: (context: Parameters<PublicRoute['handle']>[0]) =>
      route.handle({ ...context, auth, metadata: new Metadata(), call: { ...context.call } }),
  }));
  return serveRoutes(throughCallOnly, { businessId: BUSINESS_ID, scopes }, payments.clients);
}

/** A describe's routes against the fake payments, with routesUnderTest's hooks. */
export const paymentRoutesUnderTest = (routes: readonly PublicRoute[], scopes: string[]) =>
  routesUnderTest(startFakePayments, (service) => servePaymentRoutes(routes, service, scopes));
