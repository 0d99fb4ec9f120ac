import { CreateRefundResponseSchema } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import type { RefundsService } from '@corridor/contracts/corridor/payments/v1/refunds_service_pb';
import { businessOf, type HandlersOf, type PaymentsEdge } from '../grpc-edge.js';
import { createRefund, getRefund } from './refunds.js';

/** The gRPC edge of refunds of collections. */
export function refundsHandlers({ em, context, idempotent }: PaymentsEdge): HandlersOf<typeof RefundsService> {
  return {
    async createRefund(request, call) {
      const businessId = businessOf(call);
      return idempotent(call, 'CreateRefund', CreateRefundResponseSchema, (tx) =>
        createRefund(tx, context, businessId, request),
      );
    },
    async getRefund(request, call) {
      return { refund: await getRefund(em(), businessOf(call), request.refundId) };
    },
  };
}
