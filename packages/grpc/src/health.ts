import {
  HealthCheckResponse_ServingStatus as ServingStatus,
  Health,
} from '@corridor/contracts/grpc/health/v1/health_pb';
import { notFound } from './errors.js';
import { registration, type ServiceRegistration } from './server.js';

export { ServingStatus };

/**
 * The health name that answers SERVING while the process runs, whatever its dependencies: the
 * liveness probe's, so Kubernetes never restarts a pod because PostgreSQL is away (issue 18).
 */
export const LIVENESS = 'liveness';

/** Something the service cannot work without, e.g. its database. */
export interface ReadinessCheck {
  /** Named in the log when it fails or recovers. */
  name: string;
  /** Resolves when the dependency is usable; rejects when not. */
  check(): Promise<void>;
}

export interface HealthOptions {
  /** "" and every service name answer NOT_SERVING while one of these fails. */
  readiness?: ReadinessCheck[];
  /** How long an answer of the checks is reused, so probes and /readyz never hammer a dependency. */
  cacheMs?: number;
  /** A check slower than this counts as failed (under the gateway's 2 s /readyz limit). */
  timeoutMs?: number;
  /** Told when readiness changes, with the failing check and its error when it turns false. */
  onChange?(ready: boolean, failed?: { name: string; error: unknown }): void;
}

export interface HealthService {
  registration: ServiceRegistration;
  /** Sets the status of one service name; "" is the whole server, as kubelet's gRPC probe asks. */
  setStatus(service: string, status: ServingStatus): void;
  /** Whether every readiness check passes now (the cached answer when it is fresh). */
  ready(): Promise<boolean>;
}

/** grpc.health.v1.Health (Check; Watch answers UNIMPLEMENTED). */
export function createHealthService(serviceNames: readonly string[], options: HealthOptions = {}): HealthService {
  const statuses = new Map<string, ServingStatus>([['', ServingStatus.SERVING]]);
  for (const name of serviceNames) statuses.set(name, ServingStatus.SERVING);
  const ready = cachedReadiness(options);
  return {
    registration: registration(Health, {
      async check(request) {
        if (request.service === LIVENESS) return { status: ServingStatus.SERVING };
        const status = statuses.get(request.service);
        if (status === undefined) throw notFound('SERVICE_UNKNOWN', `unknown service ${request.service}`);
        if (status !== ServingStatus.SERVING) return { status };
        return { status: (await ready()) ? ServingStatus.SERVING : ServingStatus.NOT_SERVING };
      },
    }),
    setStatus: (service, status) => void statuses.set(service, status),
    ready,
  };
}

/** The checks' answer, reused for `cacheMs`. */
function cachedReadiness({ readiness = [], cacheMs = 1_000, timeoutMs = 1_000, onChange }: HealthOptions) {
  const checks = readiness.map(({ name, check }) => ({ name, run: singleFlight(check) }));
  let answer: { ready: boolean; at: number } | undefined;
  return async (): Promise<boolean> => {
    if (checks.length === 0) return true;
    if (answer && Date.now() - answer.at < cacheMs) return answer.ready;
    const outcomes = await Promise.all(
      checks.map(({ name, run }) =>
        withTimeout(run(), timeoutMs).then(
          () => undefined,
          (error: unknown) => ({ name, error }),
        ),
      ),
    );
    const failed = outcomes.find((outcome) => outcome !== undefined);
    const ready = failed === undefined;
    if ((answer?.ready ?? true) !== ready) onChange?.(ready, failed); // the first answer is news only when bad
    answer = { ready, at: Date.now() };
    return ready;
  };
}

/** One run of `task` at a time; callers meanwhile share it, so a stuck query is never joined by another. */
function singleFlight(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= task().finally(() => (running = undefined)));
}

/** `promise`, or a rejection naming the wait when it takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
