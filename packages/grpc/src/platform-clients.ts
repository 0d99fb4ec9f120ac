import { CustomerService } from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import { KycSessionService } from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { MemberService } from '@corridor/contracts/corridor/identity/v1/member_service_pb';
import { NotificationService } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { PaymentsService } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { Health } from '@corridor/contracts/grpc/health/v1/health_pb';
import { createClient, type ClientOf, type ClientOptions } from './client.js';

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

/** One long-lived client per service an edge calls, and each service's health. */
export interface PlatformClients {
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
  payments: ClientOf<typeof PaymentsService>;
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
    payments: createClient(PaymentsService, targets.payments),
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
