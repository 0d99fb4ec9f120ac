import { CollectionsService } from '@corridor/contracts/corridor/payments/v1/collections_service_pb';
import { PayoutsService } from '@corridor/contracts/corridor/payments/v1/payouts_service_pb';
import { ReferenceDataService } from '@corridor/contracts/corridor/payments/v1/reference_data_service_pb';
import { RefundsService } from '@corridor/contracts/corridor/payments/v1/refunds_service_pb';
import { TransactionsService } from '@corridor/contracts/corridor/payments/v1/transactions_service_pb';
import { WalletsService } from '@corridor/contracts/corridor/payments/v1/wallets_service_pb';
import type { MikroORM } from '@corridor/db';
import { registration, type ServiceRegistration } from '@corridor/grpc';
import { sandboxClockRegistration } from '@corridor/sandbox-clock';
import { collectionsHandlers } from './collections/collections.grpc.js';
import type { PaymentsContext } from './context.js';
import { paymentsEdge } from './grpc-edge.js';
import { payoutsHandlers } from './payouts/payouts.grpc.js';
import type { SandboxRail } from './payouts/sandbox-rail.js';
import { referenceDataHandlers } from './reference/reference-data.grpc.js';
import { refundsHandlers } from './refunds/refunds.grpc.js';
import { transactionsHandlers } from './transactions/transactions.grpc.js';
import { walletsHandlers } from './wallets/wallets.grpc.js';

/**
 * Payments' gRPC services: one per capability, each edge beside its capability's code (decision 0059),
 * and the business's sandbox clock, which payments owns (decision 0069).
 */
export function paymentsServiceRegistrations({
  orm,
  context,
  rail,
}: {
  orm: MikroORM;
  context: PaymentsContext;
  rail: SandboxRail;
}): ServiceRegistration[] {
  const edge = paymentsEdge(orm, context);
  return [
    registration(ReferenceDataService, referenceDataHandlers(edge)),
    registration(WalletsService, walletsHandlers(edge)),
    registration(TransactionsService, transactionsHandlers(edge)),
    registration(PayoutsService, payoutsHandlers(edge, rail)),
    registration(CollectionsService, collectionsHandlers(edge)),
    registration(RefundsService, refundsHandlers(edge)),
    sandboxClockRegistration({ em: edge.em, clock: context.clock }, edge.idempotent),
  ];
}
