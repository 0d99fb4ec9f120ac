import { Health } from '@corridor/contracts/grpc/health/v1/health_pb';
import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { MemberService } from '@corridor/contracts/corridor/identity/v1/member_service_pb';
import { createClient, type ClientOf } from '@corridor/grpc';

/**
 * One long-lived gRPC client per service the dashboard calls, as the gateway's clients.ts. Customer,
 * payments and notification are only checked for readiness until their pages exist.
 */
export interface Clients {
  identity: ClientOf<typeof IdentityService>;
  members: ClientOf<typeof MemberService>;
  identityHealth: ClientOf<typeof Health>;
  customerHealth: ClientOf<typeof Health>;
  notificationHealth: ClientOf<typeof Health>;
  paymentsHealth: ClientOf<typeof Health>;
  close(): void;
}

/** The clients the pages use; what specs fake. */
export type PageClients = Pick<Clients, 'identity' | 'members'>;

export function createClients(config: {
  IDENTITY_GRPC_ADDRESS: string;
  CUSTOMER_GRPC_ADDRESS: string;
  NOTIFICATION_GRPC_ADDRESS: string;
  PAYMENTS_GRPC_ADDRESS: string;
  GRPC_TIMEOUT_MS: number;
}): Clients {
  const target = (address: string) => ({ address, defaultTimeoutMs: config.GRPC_TIMEOUT_MS });
  const identityTarget = target(config.IDENTITY_GRPC_ADDRESS);
  const clients = {
    identity: createClient(IdentityService, identityTarget),
    members: createClient(MemberService, identityTarget),
    identityHealth: createClient(Health, identityTarget),
    customerHealth: createClient(Health, target(config.CUSTOMER_GRPC_ADDRESS)),
    notificationHealth: createClient(Health, target(config.NOTIFICATION_GRPC_ADDRESS)),
    paymentsHealth: createClient(Health, target(config.PAYMENTS_GRPC_ADDRESS)),
  };
  return {
    ...clients,
    close() {
      for (const client of Object.values(clients)) client.close();
    },
  };
}
