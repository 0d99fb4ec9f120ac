import { CreatePayoutResponseSchema } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import type { PayoutsService } from '@corridor/contracts/corridor/payments/v1/payouts_service_pb';
import { notFound } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import { businessOf, pageLinks, type HandlersOf, type PaymentsEdge } from '../grpc-edge.js';
import { getTransaction } from '../transactions/read-transactions.js';
import { createPayout } from './create-payout.js';
import { getBeneficiary, listBanks, listBeneficiaries, lookupAccount } from './destinations.js';
import { setPayoutLimit } from './payout-limits.js';
import type { SandboxRail } from './sandbox-rail.js';

/** The gRPC edge of payouts: banks, beneficiaries, payouts, their limits and the rail's view. */
export function payoutsHandlers(
  { em, context, idempotent }: PaymentsEdge,
  rail: SandboxRail,
): HandlersOf<typeof PayoutsService> {
  return {
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
      return { beneficiaries: page.beneficiaries, page: pageLinks(page) };
    },
    async getBeneficiary(request, call) {
      const beneficiary = await getBeneficiary(em(), businessOf(call), request.beneficiaryId);
      if (!beneficiary)
        throw notFound('BENEFICIARY_NOT_FOUND', `no beneficiary ${request.beneficiaryId} for this business`);
      return { beneficiary };
    },
    async createPayout(request, call) {
      const businessId = businessOf(call);
      return idempotent(call, 'CreatePayout', CreatePayoutResponseSchema, async (tx) => ({
        transaction: await createPayout(tx, context, businessId, request),
      }));
    },
    async getPayout(request, call) {
      const transaction = await getTransaction(em(), businessOf(call), request.payoutId).catch(() => undefined);
      if (!transaction?.payoutDetails)
        throw notFound('PAYOUT_NOT_FOUND', `no payout ${request.payoutId} for this business`);
      return { transaction };
    },
    async adminSetPayoutLimit(request) {
      return setPayoutLimit(em(), context, request);
    },
    async adminGetRailPayout(request) {
      const view = isUuid(request.payoutId) ? await rail.view(request.payoutId, context.now()) : undefined;
      if (!view) throw notFound('PAYOUT_NOT_FOUND', `the rail has never received payout ${request.payoutId}`);
      return { payoutId: request.payoutId, submitCalls: view.submitCalls, state: view.state };
    },
  };
}
