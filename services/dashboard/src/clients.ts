import { Health } from '@corridor/contracts/grpc/health/v1/health_pb';
import { CustomerService } from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import { KycSessionService } from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { MemberService } from '@corridor/contracts/corridor/identity/v1/member_service_pb';
import { NotificationService } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { PaymentsService } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { createClient, type ClientOf } from '@corridor/grpc';

/** One long-lived gRPC client per service the dashboard calls, as the gateway's clients.ts. */
export interface Clients {
  identity: ClientOf<typeof IdentityService>;
  members: ClientOf<typeof MemberService>;
  customers: ClientOf<typeof CustomerService>;
  kycSessions: ClientOf<typeof KycSessionService>;
  payments: ClientOf<typeof PaymentsService>;
  notification: ClientOf<typeof NotificationService>;
  identityHealth: ClientOf<typeof Health>;
  customerHealth: ClientOf<typeof Health>;
  notificationHealth: ClientOf<typeof Health>;
  paymentsHealth: ClientOf<typeof Health>;
  close(): void;
}

/** The clients the pages use; what specs fake. */
export type PageClients = Pick<
  Clients,
  'identity' | 'members' | 'customers' | 'kycSessions' | 'payments' | 'notification'
>;

export function createClients(config: {
  IDENTITY_GRPC_ADDRESS: string;
  CUSTOMER_GRPC_ADDRESS: string;
  NOTIFICATION_GRPC_ADDRESS: string;
  PAYMENTS_GRPC_ADDRESS: string;
  GRPC_TIMEOUT_MS: number;
}): Clients {
  const target = (address: string) => ({ address, defaultTimeoutMs: config.GRPC_TIMEOUT_MS });
  const identityTarget = target(config.IDENTITY_GRPC_ADDRESS);
  const customerTarget = target(config.CUSTOMER_GRPC_ADDRESS);
  const paymentsTarget = target(config.PAYMENTS_GRPC_ADDRESS);
  const notificationTarget = target(config.NOTIFICATION_GRPC_ADDRESS);
  const clients = {
    identity: createClient(IdentityService, identityTarget),
    members: createClient(MemberService, identityTarget),
    customers: createClient(CustomerService, customerTarget),
    kycSessions: createClient(KycSessionService, customerTarget),
    payments: createClient(PaymentsService, paymentsTarget),
    notification: createClient(NotificationService, notificationTarget),
    identityHealth: createClient(Health, identityTarget),
    customerHealth: createClient(Health, customerTarget),
    notificationHealth: createClient(Health, notificationTarget),
    paymentsHealth: createClient(Health, paymentsTarget),
  };
  return {
    ...clients,
    close() {
      for (const client of Object.values(clients)) client.close();
    },
  };
}
