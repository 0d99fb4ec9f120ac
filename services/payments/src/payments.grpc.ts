import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  AcceptInteracTransferResponseSchema,
  CreateCollectionResponseSchema,
  CreateCryptoAddressResponseSchema,
  CreateInteracRequestResponseSchema,
  CreatePayoutResponseSchema,
  CreateRefundResponseSchema,
  CreateSwapResponseSchema,
  CreateVirtualAccountResponseSchema,
  PaymentsService,
  SandboxCollectionOutcome,
  SandboxCryptoDepositResponseSchema,
  SandboxInteracTransferResponseSchema,
  SandboxIncomingTransferResponseSchema,
  SandboxSettleCollectionResponseSchema,
} from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { AdminAdjustWalletResponseSchema } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import type { MikroORM } from '@corridor/db';
import { invalidArgument, notFound, permissionDenied, registration, type CallContext } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import { runIdempotent } from '@corridor/idempotency';
import {
  createCollection,
  getCollection,
  receiveTransfer,
  settleCollection,
  type MoneyRequestOutcome,
} from './collections/collect.js';
import { authorizePaymentRequest, getPaymentRequest } from './collections/payment-requests.js';
import { createCryptoAddress, cryptoNetworks, receiveCryptoDeposit } from './collections/crypto.js';
import { acceptInteracTransfer, createInteracRequest, receiveInteracTransfer } from './collections/interac.js';
import { createRefund, getRefund, refundOfCollection } from './collections/refunds.js';
import {
  closeVirtualAccount,
  createVirtualAccount,
  getVirtualAccount,
  identificationTypes,
  listVirtualAccounts,
} from './collections/virtual-accounts.js';
import type { PaymentsContext } from './context.js';
import { checkLedger } from './ledger/index.js';
import { allCurrencies, currencyMessage } from './reference/currencies.js';
import { listFeeRules, quoteFees, setFeeRule } from './reference/fees.js';
import { listMidRates, quoteRate, setMidRate, setSpread } from './reference/rates.js';
import { createSwap } from './swaps/create-swap.js';
import { getTransaction, listTransactions } from './transactions/read-transactions.js';
import { adjustWallet } from './wallets/adjust-wallet.js';
import { createPayout } from './payouts/create-payout.js';
import { getBeneficiary, listBanks, listBeneficiaries, lookupAccount } from './payouts/destinations.js';
import { setPayoutLimit } from './payouts/payout-limits.js';
import type { SandboxRail } from './payouts/sandbox-rail.js';
import { listWallets } from './wallets/wallets.js';

/** The business every public method acts for: the gateway's `business-id` metadata. */
function businessOf({ caller }: CallContext): string {
  if (!caller.businessId) throw permissionDenied('NO_BUSINESS', 'the call names no business');
  return caller.businessId;
}

const SANDBOX_OUTCOMES: Partial<Record<SandboxCollectionOutcome, MoneyRequestOutcome>> = {
  [SandboxCollectionOutcome.PAY]: 'pay',
  [SandboxCollectionOutcome.DECLINE]: 'decline',
  [SandboxCollectionOutcome.EXPIRE]: 'expire',
};

/** The gRPC edge of payments: thin, one fork of the entity manager per call. */
export function paymentsServiceRegistration({
  orm,
  context,
  rail,
}: {
  orm: MikroORM;
  context: PaymentsContext;
  rail: SandboxRail;
}) {
  const em = () => orm.em.fork();
  return registration(PaymentsService, {
    async listCurrencies() {
      return { currencies: [...(await allCurrencies(em())).values()].map(currencyMessage) };
    },
    async quoteRate(request, call) {
      return {
        quote: await quoteRate(em(), context, businessOf(call), { from: request.fromCurrency, to: request.toCurrency }),
      };
    },
    async getFees(request, call) {
      return { fees: await quoteFees(em(), businessOf(call), request) };
    },
    async listWallets(_request, call) {
      return { wallets: await listWallets(em(), businessOf(call)) };
    },
    async createSwap(request, call) {
      const businessId = businessOf(call);
      return runIdempotent(em(), call, 'CreateSwap', CreateSwapResponseSchema, async (tx) => ({
        $typeName: CreateSwapResponseSchema.typeName,
        transaction: await createSwap(tx, context, businessId, request),
      }));
    },
    async getTransaction(request, call) {
      const transaction = await getTransaction(em(), businessOf(call), request.transactionId);
      return {
        transaction,
        refund: transaction.collectionDetails ? await refundOfCollection(em(), transaction.id) : undefined,
      };
    },
    async listTransactions(request, call) {
      const page = await listTransactions(em(), businessOf(call), request);
      return {
        transactions: page.transactions,
        page: { nextCursor: page.nextCursor, previousCursor: page.previousCursor, limit: page.limit },
      };
    },
    async listBanks(request) {
      return { banks: listBanks(request.country, request.currency) };
    },
    async lookupAccount(request, call) {
      return {
        destination: await lookupAccount(em(), context, businessOf(call), request.bankCode, request.accountNumber),
      };
    },
    async listBeneficiaries(request, call) {
      const page = await listBeneficiaries(em(), businessOf(call), request.page);
      return {
        beneficiaries: page.beneficiaries,
        page: { nextCursor: page.nextCursor, previousCursor: page.previousCursor, limit: page.limit },
      };
    },
    async getBeneficiary(request, call) {
      const beneficiary = await getBeneficiary(em(), businessOf(call), request.beneficiaryId);
      if (!beneficiary)
        throw notFound('BENEFICIARY_NOT_FOUND', `no beneficiary ${request.beneficiaryId} for this business`);
      return { beneficiary };
    },
    async createPayout(request, call) {
      const businessId = businessOf(call);
      return runIdempotent(em(), call, 'CreatePayout', CreatePayoutResponseSchema, async (tx) => ({
        $typeName: CreatePayoutResponseSchema.typeName,
        transaction: await createPayout(tx, context, businessId, request),
      }));
    },
    async getPayout(request, call) {
      const transaction = await getTransaction(em(), businessOf(call), request.payoutId).catch(() => undefined);
      if (!transaction?.payoutDetails)
        throw notFound('PAYOUT_NOT_FOUND', `no payout ${request.payoutId} for this business`);
      return { transaction };
    },
    async createVirtualAccount(request, call) {
      const businessId = businessOf(call);
      return runIdempotent(em(), call, 'CreateVirtualAccount', CreateVirtualAccountResponseSchema, async (tx) => ({
        $typeName: CreateVirtualAccountResponseSchema.typeName,
        virtualAccount: await createVirtualAccount(tx, context, businessId, request),
      }));
    },
    async listVirtualAccounts(request, call) {
      const page = await listVirtualAccounts(em(), businessOf(call), request);
      return {
        virtualAccounts: page.virtualAccounts,
        page: { nextCursor: page.nextCursor, previousCursor: page.previousCursor, limit: page.limit },
      };
    },
    async getVirtualAccount(request, call) {
      return { virtualAccount: await getVirtualAccount(em(), businessOf(call), request.virtualAccountId) };
    },
    async closeVirtualAccount(request, call) {
      return {
        virtualAccount: await closeVirtualAccount(em(), context, businessOf(call), request.virtualAccountId),
      };
    },
    async listIdentificationTypes() {
      return { identificationTypes: [...identificationTypes()] };
    },
    async createCollection(request, call) {
      const businessId = businessOf(call);
      return runIdempotent(em(), call, 'CreateCollection', CreateCollectionResponseSchema, async (tx) => ({
        $typeName: CreateCollectionResponseSchema.typeName,
        transaction: await createCollection(tx, context, businessId, request),
      }));
    },
    async getCollection(request, call) {
      return { transaction: await getCollection(em(), businessOf(call), request.collectionId) };
    },
    async getPaymentRequest(request) {
      return { request: await getPaymentRequest(em(), context, request.paymentToken) };
    },
    async authorizePaymentRequest(request) {
      return { request: await authorizePaymentRequest(em(), context, request.paymentToken, request.approve) };
    },
    async createRefund(request, call) {
      const businessId = businessOf(call);
      return runIdempotent(em(), call, 'CreateRefund', CreateRefundResponseSchema, async (tx) => ({
        $typeName: CreateRefundResponseSchema.typeName,
        ...(await createRefund(tx, context, businessId, request)),
      }));
    },
    async getRefund(request, call) {
      return { refund: await getRefund(em(), businessOf(call), request.refundId) };
    },
    async listCryptoNetworks() {
      return { networks: [...cryptoNetworks()] };
    },
    async createCryptoAddress(request, call) {
      const businessId = businessOf(call);
      return runIdempotent(em(), call, 'CreateCryptoAddress', CreateCryptoAddressResponseSchema, async (tx) => ({
        $typeName: CreateCryptoAddressResponseSchema.typeName,
        ...(await createCryptoAddress(tx, context, businessId, request)),
      }));
    },
    async createInteracRequest(request, call) {
      const businessId = businessOf(call);
      return runIdempotent(em(), call, 'CreateInteracRequest', CreateInteracRequestResponseSchema, async (tx) => ({
        $typeName: CreateInteracRequestResponseSchema.typeName,
        transaction: await createInteracRequest(tx, context, businessId, request),
      }));
    },
    async acceptInteracTransfer(request, call) {
      const businessId = businessOf(call);
      return runIdempotent(em(), call, 'AcceptInteracTransfer', AcceptInteracTransferResponseSchema, async (tx) => ({
        $typeName: AcceptInteracTransferResponseSchema.typeName,
        transaction: await acceptInteracTransfer(tx, context, businessId, request.collectionId),
      }));
    },
    async sandboxCryptoDeposit(request, call) {
      const businessId = businessOf(call);
      return runIdempotent(em(), call, 'SandboxCryptoDeposit', SandboxCryptoDepositResponseSchema, async (tx) => ({
        $typeName: SandboxCryptoDepositResponseSchema.typeName,
        transaction: await receiveCryptoDeposit(tx, context, businessId, request),
      }));
    },
    async sandboxInteracTransfer(request, call) {
      const businessId = businessOf(call);
      return runIdempotent(em(), call, 'SandboxInteracTransfer', SandboxInteracTransferResponseSchema, async (tx) => ({
        $typeName: SandboxInteracTransferResponseSchema.typeName,
        transaction: await receiveInteracTransfer(tx, context, businessId, request),
      }));
    },
    async sandboxIncomingTransfer(request, call) {
      const businessId = businessOf(call);
      return runIdempotent(
        em(),
        call,
        'SandboxIncomingTransfer',
        SandboxIncomingTransferResponseSchema,
        async (tx) => ({
          $typeName: SandboxIncomingTransferResponseSchema.typeName,
          transaction: await receiveTransfer(tx, context, businessId, request),
        }),
      );
    },
    async sandboxSettleCollection(request, call) {
      const businessId = businessOf(call);
      const outcome = SANDBOX_OUTCOMES[request.outcome];
      if (!outcome) throw invalidArgument('outcome must be pay, decline or expire', { outcome: ['is required'] });
      return runIdempotent(
        em(),
        call,
        'SandboxSettleCollection',
        SandboxSettleCollectionResponseSchema,
        async (tx) => ({
          $typeName: SandboxSettleCollectionResponseSchema.typeName,
          transaction: await settleCollection(tx, context, businessId, request.collectionId, outcome),
        }),
      );
    },

    async adminSetPayoutLimit(request) {
      return setPayoutLimit(em(), context, request);
    },
    async adminGetRailPayout(request) {
      const view = isUuid(request.payoutId) ? await rail.view(request.payoutId, context.now()) : undefined;
      if (!view) throw notFound('PAYOUT_NOT_FOUND', `the rail has never received payout ${request.payoutId}`);
      return { payoutId: request.payoutId, submitCalls: view.submitCalls, state: view.state };
    },
    async adminSetRate(request) {
      return {
        rate: await setMidRate(em(), context, {
          baseCurrency: request.baseCurrency,
          quoteCurrency: request.quoteCurrency,
          rate: request.rate,
        }),
      };
    },
    async adminListRates() {
      return { rates: await listMidRates(em()), defaultSpreadBps: context.defaultSpreadBps };
    },
    async adminSetSpread(request) {
      return {
        businessId: request.businessId,
        spreadBps: await setSpread(em(), context, request.businessId, request.spreadBps),
      };
    },
    async adminSetFeeRule(request) {
      if (!request.rule) throw permissionDenied('NO_RULE', 'the call carries no fee rule');
      return { rule: await setFeeRule(em(), context, request.rule) };
    },
    async adminListFeeRules(request) {
      return { rules: await listFeeRules(em(), request.businessId) };
    },
    async adminAdjustWallet(request, call) {
      return runIdempotent(em(), call, 'AdminAdjustWallet', AdminAdjustWalletResponseSchema, async (tx) => ({
        $typeName: AdminAdjustWalletResponseSchema.typeName,
        transaction: await adjustWallet(tx, context, request, call.caller.requestId),
      }));
    },
    async adminListWallets(request) {
      return { wallets: await listWallets(em(), request.businessId) };
    },
    async adminCheckLedger() {
      const check = await checkLedger(em());
      return {
        ok: check.ok,
        violations: check.violations,
        accountsChecked: check.accountsChecked,
        transfersChecked: check.transfersChecked,
        checkedAt: timestampFromDate(context.now()),
      };
    },
  });
}
