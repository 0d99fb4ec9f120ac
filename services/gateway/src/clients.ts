import { DeadLetterService } from '@corridor/contracts/corridor/bus/v1/dead_letter_service_pb';
import {
  createClient,
  createPlatformClients,
  type ClientOf,
  type PlatformAddresses,
  type PlatformClients,
} from '@corridor/grpc';

/** One long-lived gRPC client per service the gateway calls: the edges' common ones and the admin API's dead letters. */
export interface Clients extends PlatformClients {
  /** Each consuming service's dead letters (decision 0023), served beside its own service. */
  notificationDeadLetters: ClientOf<typeof DeadLetterService>;
  paymentsDeadLetters: ClientOf<typeof DeadLetterService>;
  close(): void;
}

export function createClients(config: PlatformAddresses): Clients {
  return createPlatformClients(config, (targets) => ({
    notificationDeadLetters: createClient(DeadLetterService, targets.notification),
    paymentsDeadLetters: createClient(DeadLetterService, targets.payments),
  }));
}
