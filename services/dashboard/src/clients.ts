import {
  createPlatformClients,
  type PaymentsClients,
  type PlatformAddresses,
  type PlatformClients,
} from '@corridor/grpc';

/** One long-lived gRPC client per service the dashboard calls, the same as the gateway's (@corridor/grpc). */
export type Clients = PlatformClients & { close(): void };

/** The clients the pages use; what specs fake. */
export type PageClients = Pick<
  PlatformClients,
  'identity' | 'members' | 'customer' | 'kycSessions' | keyof PaymentsClients | 'notification'
>;

export const createClients = (config: PlatformAddresses): Clients => createPlatformClients(config);
