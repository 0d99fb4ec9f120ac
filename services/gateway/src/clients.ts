import { DeadLetterService } from '@corridor/contracts/corridor/bus/v1/dead_letter_service_pb';
import { SandboxClockCopyService, SandboxClockService } from '@corridor/contracts/corridor/clock/v1/sandbox_clock_pb';
import {
  createClient,
  createPlatformClients,
  type ClientOf,
  type PlatformAddresses,
  type PlatformClients,
} from '@corridor/grpc';

/**
 * One long-lived gRPC client per service the gateway calls: the edges' common ones, the admin API's
 * dead letters, and the sandbox clock with its copies (decision 0069).
 */
export interface Clients extends PlatformClients {
  /** Each consuming service's dead letters (decision 0023), served beside its own service. */
  notificationDeadLetters: ClientOf<typeof DeadLetterService>;
  paymentsDeadLetters: ClientOf<typeof DeadLetterService>;
  /** The business's sandbox clock, which payments keeps. */
  sandboxClock: ClientOf<typeof SandboxClockService>;
  /** Its copies, in every other service that judges a business's deadlines. */
  customerKybClockCopy: ClientOf<typeof SandboxClockCopyService>;
  notificationClockCopy: ClientOf<typeof SandboxClockCopyService>;
  close(): void;
}

export function createClients(config: PlatformAddresses): Clients {
  return createPlatformClients(config, (targets) => ({
    notificationDeadLetters: createClient(DeadLetterService, targets.notification),
    paymentsDeadLetters: createClient(DeadLetterService, targets.payments),
    sandboxClock: createClient(SandboxClockService, targets.payments),
    customerKybClockCopy: createClient(SandboxClockCopyService, targets.customer),
    notificationClockCopy: createClient(SandboxClockCopyService, targets.notification),
  }));
}
