import { CustomerService } from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import { KycSessionService } from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { MemberService } from '@corridor/contracts/corridor/identity/v1/member_service_pb';
import { NotificationService } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { CollectionsService } from '@corridor/contracts/corridor/payments/v1/collections_service_pb';
import { PayoutsService } from '@corridor/contracts/corridor/payments/v1/payouts_service_pb';
import { ReferenceDataService } from '@corridor/contracts/corridor/payments/v1/reference_data_service_pb';
import { RefundsService } from '@corridor/contracts/corridor/payments/v1/refunds_service_pb';
import { TransactionsService } from '@corridor/contracts/corridor/payments/v1/transactions_service_pb';
import { WalletsService } from '@corridor/contracts/corridor/payments/v1/wallets_service_pb';
import { Health } from '@corridor/contracts/grpc/health/v1/health_pb';
import { createClient, createClients, type ClientOf, type ClientOptions, type ClientsOf } from './client.js';

/** Where the four services listen, and every call's deadline: the edges' (gateway, dashboard) config. */
export interface PlatformAddresses {
  IDENTITY_GRPC_ADDRESS: string;
  CUSTOMER_GRPC_ADDRESS: string;
  NOTIFICATION_GRPC_ADDRESS: string;
  PAYMENTS_GRPC_ADDRESS: string;
  GRPC_TIMEOUT_MS: number;
}

/** One target per service, for an edge's clients beyond the common ones. */
export interface PlatformTargets {
  identity: ClientOptions;
  customer: ClientOptions;
  notification: ClientOptions;
  payments: ClientOptions;
}

/** payments' services, one per capability (decision 0059), by the name of their client. */
export const PAYMENTS_SERVICES = {
  referenceData: ReferenceDataService,
  wallets: WalletsService,
  transactions: TransactionsService,
  payouts: PayoutsService,
  collections: CollectionsService,
  refunds: RefundsService,
} as const;

/** A client of each of payments' capability services. */
export type PaymentsClients = ClientsOf<typeof PAYMENTS_SERVICES>;

/**
 * One long-lived client per service an edge calls, and each service's health; payments' are its
 * capability services' (PaymentsClients), all at its one address.
 */
export interface PlatformClients extends PaymentsClients {
  identity: ClientOf<typeof IdentityService>;
  identityHealth: ClientOf<typeof Health>;
  /** Dashboard members of businesses (decision 0028), served by identity beside IdentityService. */
  members: ClientOf<typeof MemberService>;
  customer: ClientOf<typeof CustomerService>;
  customerHealth: ClientOf<typeof Health>;
  /** Merchant KYC sessions, served by customer-kyb beside CustomerService. */
  kycSessions: ClientOf<typeof KycSessionService>;
  notification: ClientOf<typeof NotificationService>;
  notificationHealth: ClientOf<typeof Health>;
  paymentsHealth: ClientOf<typeof Health>;
}

/**
 * The clients of an edge that calls the platform's services over gRPC exactly as the other edges do
 * (the gateway, the dashboard), plus what `extra` makes from the same targets; `close()` closes all.
 */
export function createPlatformClients<Extra extends Record<string, { close(): void }> = Record<never, never>>(
  config: PlatformAddresses,
  extra: (targets: PlatformTargets) => Extra = () => ({}) as Extra,
): PlatformClients & Extra & { close(): void } {
  const target = (address: string): ClientOptions => ({ address, defaultTimeoutMs: config.GRPC_TIMEOUT_MS });
  const targets: PlatformTargets = {
    identity: target(config.IDENTITY_GRPC_ADDRESS),
    customer: target(config.CUSTOMER_GRPC_ADDRESS),
    notification: target(config.NOTIFICATION_GRPC_ADDRESS),
    payments: target(config.PAYMENTS_GRPC_ADDRESS),
  };
  const clients = {
    identity: createClient(IdentityService, targets.identity),
    identityHealth: createClient(Health, targets.identity),
    members: createClient(MemberService, targets.identity),
    customer: createClient(CustomerService, targets.customer),
    customerHealth: createClient(Health, targets.customer),
    kycSessions: createClient(KycSessionService, targets.customer),
    notification: createClient(NotificationService, targets.notification),
    notificationHealth: createClient(Health, targets.notification),
    ...createClients(PAYMENTS_SERVICES, targets.payments),
    paymentsHealth: createClient(Health, targets.payments),
    ...extra(targets),
  };
  return {
    ...clients,
    close() {
      for (const client of Object.values(clients)) client.close();
    },
  };
}
