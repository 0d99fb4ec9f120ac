import type { CollectionsService } from '@corridor/contracts/corridor/payments/v1/collections_service_pb';
import {
  AcceptInteracTransferResponseSchema,
  CreateCollectionResponseSchema,
  CreateCryptoAddressResponseSchema,
  CreateInteracRequestResponseSchema,
  CreateVirtualAccountResponseSchema,
  SandboxCollectionOutcome,
  SandboxCryptoDepositResponseSchema,
  SandboxIncomingTransferResponseSchema,
  SandboxInteracTransferResponseSchema,
  SandboxSettleCollectionResponseSchema,
} from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { invalidArgument } from '@corridor/grpc';
import { businessOf, pageLinks, type HandlersOf, type PaymentsEdge } from '../grpc-edge.js';
import {
  createCollection,
  getCollection,
  receiveTransfer,
  settleCollection,
  type MoneyRequestOutcome,
} from './collect.js';
import { createCryptoAddress, cryptoNetworks, receiveCryptoDeposit } from './crypto.js';
import { acceptInteracTransfer, createInteracRequest, receiveInteracTransfer } from './interac.js';
import { authorizePaymentRequest, getPaymentRequest } from './payment-requests.js';
import {
  closeVirtualAccount,
  createVirtualAccount,
  getVirtualAccount,
  identificationTypes,
  listVirtualAccounts,
} from './virtual-accounts.js';

const SANDBOX_OUTCOMES: Partial<Record<SandboxCollectionOutcome, MoneyRequestOutcome>> = {
  [SandboxCollectionOutcome.PAY]: 'pay',
  [SandboxCollectionOutcome.DECLINE]: 'decline',
  [SandboxCollectionOutcome.EXPIRE]: 'expire',
};

/**
 * The gRPC edge of virtual accounts and collections: accounts, money requests and their payer page,
 * crypto and Interac, and the sandbox's triggers.
 */
export function collectionsHandlers({ em, context, idempotent }: PaymentsEdge): HandlersOf<typeof CollectionsService> {
  return {
    async createVirtualAccount(request, call) {
      const businessId = businessOf(call);
      return idempotent(call, 'CreateVirtualAccount', CreateVirtualAccountResponseSchema, async (tx) => ({
        virtualAccount: await createVirtualAccount(tx, context, businessId, request),
      }));
    },
    async listVirtualAccounts(request, call) {
      const page = await listVirtualAccounts(em(), businessOf(call), request);
      return { virtualAccounts: page.virtualAccounts, page: pageLinks(page) };
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
      return idempotent(call, 'CreateCollection', CreateCollectionResponseSchema, async (tx) => ({
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
    async listCryptoNetworks() {
      return { networks: [...cryptoNetworks()] };
    },
    async createCryptoAddress(request, call) {
      const businessId = businessOf(call);
      return idempotent(call, 'CreateCryptoAddress', CreateCryptoAddressResponseSchema, (tx) =>
        createCryptoAddress(tx, context, businessId, request),
      );
    },
    async createInteracRequest(request, call) {
      const businessId = businessOf(call);
      return idempotent(call, 'CreateInteracRequest', CreateInteracRequestResponseSchema, async (tx) => ({
        transaction: await createInteracRequest(tx, context, businessId, request),
      }));
    },
    async acceptInteracTransfer(request, call) {
      const businessId = businessOf(call);
      return idempotent(call, 'AcceptInteracTransfer', AcceptInteracTransferResponseSchema, async (tx) => ({
        transaction: await acceptInteracTransfer(tx, context, businessId, request.collectionId),
      }));
    },
    async sandboxCryptoDeposit(request, call) {
      const businessId = businessOf(call);
      return idempotent(call, 'SandboxCryptoDeposit', SandboxCryptoDepositResponseSchema, async (tx) => ({
        transaction: await receiveCryptoDeposit(tx, context, businessId, request),
      }));
    },
    async sandboxInteracTransfer(request, call) {
      const businessId = businessOf(call);
      return idempotent(call, 'SandboxInteracTransfer', SandboxInteracTransferResponseSchema, async (tx) => ({
        transaction: await receiveInteracTransfer(tx, context, businessId, request),
      }));
    },
    async sandboxIncomingTransfer(request, call) {
      const businessId = businessOf(call);
      return idempotent(call, 'SandboxIncomingTransfer', SandboxIncomingTransferResponseSchema, async (tx) => ({
        transaction: await receiveTransfer(tx, context, businessId, request),
      }));
    },
    async sandboxSettleCollection(request, call) {
      const businessId = businessOf(call);
      const outcome = SANDBOX_OUTCOMES[request.outcome];
      if (!outcome) throw invalidArgument('outcome must be pay, decline or expire', { outcome: ['is required'] });
      return idempotent(call, 'SandboxSettleCollection', SandboxSettleCollectionResponseSchema, async (tx) => ({
        transaction: await settleCollection(tx, context, businessId, request.collectionId, outcome),
      }));
    },
  };
}
