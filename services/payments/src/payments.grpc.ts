import { CollectionsService } from '@corridor/contracts/corridor/payments/v1/collections_service_pb';
import { PaymentsService } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { PayoutsService } from '@corridor/contracts/corridor/payments/v1/payouts_service_pb';
import { ReferenceDataService } from '@corridor/contracts/corridor/payments/v1/reference_data_service_pb';
import { RefundsService } from '@corridor/contracts/corridor/payments/v1/refunds_service_pb';
import { TransactionsService } from '@corridor/contracts/corridor/payments/v1/transactions_service_pb';
import { WalletsService } from '@corridor/contracts/corridor/payments/v1/wallets_service_pb';
import type { MikroORM } from '@corridor/db';
import { registration, type ServiceRegistration } from '@corridor/grpc';
import { collectionsHandlers } from './collections/collections.grpc.js';
import type { PaymentsContext } from './context.js';
import { paymentsEdge, type HandlersOf } from './grpc-edge.js';
import { payoutsHandlers } from './payouts/payouts.grpc.js';
import type { SandboxRail } from './payouts/sandbox-rail.js';
import { referenceDataHandlers } from './reference/reference-data.grpc.js';
import { refundsHandlers } from './refunds/refunds.grpc.js';
import { transactionsHandlers } from './transactions/transactions.grpc.js';
import { walletsHandlers } from './wallets/wallets.grpc.js';

/**
 * Payments' gRPC services: one per capability, and the deprecated PaymentsService that gateways up
 * to the one calling the capability services still call (decision 0059).
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
  const referenceData = referenceDataHandlers(edge);
  const wallets = walletsHandlers(edge);
  const transactions = transactionsHandlers(edge);
  const payouts = payoutsHandlers(edge, rail);
  const collections = collectionsHandlers(edge);
  const refunds = refundsHandlers(edge);
  // The table of the legacy service: each of its methods is the capability's handler of that name.
  const legacy: HandlersOf<typeof PaymentsService> = {
    ...referenceData,
    ...wallets,
    ...transactions,
    ...payouts,
    ...collections,
    ...refunds,
  };
  return [
    registration(ReferenceDataService, referenceData),
    registration(WalletsService, wallets),
    registration(TransactionsService, transactions),
    registration(PayoutsService, payouts),
    registration(CollectionsService, collections),
    registration(RefundsService, refunds),
    registration(PaymentsService, legacy),
  ];
}
