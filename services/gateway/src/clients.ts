import { Health } from '@corridor/contracts/grpc/health/v1/health_pb';
import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { createClient, type ClientOf } from '@corridor/grpc';

/** One long-lived gRPC client per service the gateway calls. */
export interface Clients {
  identity: ClientOf<typeof IdentityService>;
  identityHealth: ClientOf<typeof Health>;
  close(): void;
}

export function createClients(config: { IDENTITY_GRPC_ADDRESS: string; GRPC_TIMEOUT_MS: number }): Clients {
  const target = { address: config.IDENTITY_GRPC_ADDRESS, defaultTimeoutMs: config.GRPC_TIMEOUT_MS };
  const identity = createClient(IdentityService, target);
  const identityHealth = createClient(Health, target);
  return {
    identity,
    identityHealth,
    close() {
      identity.close();
      identityHealth.close();
    },
  };
}
