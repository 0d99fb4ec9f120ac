import { Health } from '@corridor/contracts/grpc/health/v1/health_pb';
import { DeadLetterService } from '@corridor/contracts/corridor/bus/v1/dead_letter_service_pb';
import { CustomerService } from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import { KycSessionService } from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { MemberService } from '@corridor/contracts/corridor/identity/v1/member_service_pb';
import { NotificationService } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { PaymentsService } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { createClient, type ClientOf } from '@corridor/grpc';

/** One long-lived gRPC client per service the gateway calls. */
export interface Clients {
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
  /** Each consuming service's dead letters (decision 0023), served beside its own service. */
  notificationDeadLetters: ClientOf<typeof DeadLetterService>;
  paymentsDeadLetters: ClientOf<typeof DeadLetterService>;
  close(): void;
}

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
  const notificationTarget = target(config.NOTIFICATION_GRPC_ADDRESS);
  const paymentsTarget = target(config.PAYMENTS_GRPC_ADDRESS);
  const clients = {
    identity: createClient(IdentityService, identityTarget),
    identityHealth: createClient(Health, identityTarget),
    members: createClient(MemberService, identityTarget),
    customer: createClient(CustomerService, customerTarget),
    customerHealth: createClient(Health, customerTarget),
    kycSessions: createClient(KycSessionService, customerTarget),
    notification: createClient(NotificationService, notificationTarget),
    notificationHealth: createClient(Health, notificationTarget),
    payments: createClient(PaymentsService, paymentsTarget),
    paymentsHealth: createClient(Health, paymentsTarget),
    notificationDeadLetters: createClient(DeadLetterService, notificationTarget),
    paymentsDeadLetters: createClient(DeadLetterService, paymentsTarget),
  };
  return {
    ...clients,
    close() {
      for (const client of Object.values(clients)) client.close();
    },
  };
}
