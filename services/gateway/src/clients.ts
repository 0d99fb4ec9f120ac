import { Health } from '@corridor/contracts/grpc/health/v1/health_pb';
import { CustomerService } from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { createClient, type ClientOf } from '@corridor/grpc';

/** One long-lived gRPC client per service the gateway calls. */
export interface Clients {
  identity: ClientOf<typeof IdentityService>;
  identityHealth: ClientOf<typeof Health>;
  customer: ClientOf<typeof CustomerService>;
  customerHealth: ClientOf<typeof Health>;
  close(): void;
}

export function createClients(config: {
  IDENTITY_GRPC_ADDRESS: string;
  CUSTOMER_GRPC_ADDRESS: string;
  GRPC_TIMEOUT_MS: number;
}): Clients {
  const identityTarget = { address: config.IDENTITY_GRPC_ADDRESS, defaultTimeoutMs: config.GRPC_TIMEOUT_MS };
  const customerTarget = { address: config.CUSTOMER_GRPC_ADDRESS, defaultTimeoutMs: config.GRPC_TIMEOUT_MS };
  const identity = createClient(IdentityService, identityTarget);
  const identityHealth = createClient(Health, identityTarget);
  const customer = createClient(CustomerService, customerTarget);
  const customerHealth = createClient(Health, customerTarget);
  return {
    identity,
    identityHealth,
    customer,
    customerHealth,
    close() {
      identity.close();
      identityHealth.close();
      customer.close();
      customerHealth.close();
    },
  };
}
