import {
  HealthCheckResponse_ServingStatus as ServingStatus,
  Health,
} from '@corridor/contracts/grpc/health/v1/health_pb';
import { notFound } from './errors.js';
import { registration, type ServiceRegistration } from './server.js';

export { ServingStatus };

export interface HealthService {
  registration: ServiceRegistration;
  /** Sets the status of one service name; "" is the whole server, as kubelet's gRPC probe asks. */
  setStatus(service: string, status: ServingStatus): void;
}

/** grpc.health.v1.Health (Check; Watch answers UNIMPLEMENTED). */
export function createHealthService(serviceNames: readonly string[]): HealthService {
  const statuses = new Map<string, ServingStatus>([['', ServingStatus.SERVING]]);
  for (const name of serviceNames) statuses.set(name, ServingStatus.SERVING);
  return {
    registration: registration(Health, {
      async check(request) {
        const status = statuses.get(request.service);
        if (status === undefined) throw notFound('SERVICE_UNKNOWN', `unknown service ${request.service}`);
        return { status };
      },
    }),
    setStatus: (service, status) => void statuses.set(service, status),
  };
}
