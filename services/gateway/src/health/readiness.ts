import { type Health } from '@corridor/contracts/grpc/health/v1/health_pb';
import { ServingStatus, withTimeout, type ClientOf } from '@corridor/grpc';
import type { RequestHandler } from 'express';

export interface DependencyCheck {
  name: string;
  /** Resolves when the dependency is usable; rejects (or times out) when not. */
  check(): Promise<void>;
}

const CHECK_TIMEOUT_MS = 2_000;

/** grpc.health.v1 Check of one service over an existing client. */
export function grpcHealthCheck(name: string, health: ClientOf<typeof Health>, service = ''): DependencyCheck {
  return {
    name,
    async check() {
      const { status } = await health.check({ service }, { timeoutMs: CHECK_TIMEOUT_MS });
      if (status !== ServingStatus.SERVING) throw new Error(`reports ${ServingStatus[status]}`);
    },
  };
}

/** /readyz: 200 when every dependency answers, else 503 naming each one that does not. */
export function readinessHandler(checks: DependencyCheck[]): RequestHandler {
  return async (_req, res) => {
    const results = await Promise.all(
      checks.map(async ({ name, check }) => {
        try {
          await withTimeout(check(), CHECK_TIMEOUT_MS);
          return { name, ok: true as const };
        } catch (error) {
          return { name, ok: false as const, error: error instanceof Error ? error.message : String(error) };
        }
      }),
    );
    const failing = results.filter((r) => !r.ok);
    const dependencies = Object.fromEntries(results.map((r) => [r.name, r.ok ? 'ok' : r.error]));
    if (failing.length === 0) {
      res.json({ status: true, message: 'ready', dependencies });
      return;
    }
    res.status(503).json({
      status: false,
      message: `not ready: ${failing.map((f) => f.name).join(', ')} unavailable`,
      code: 'NOT_READY',
      dependencies,
    });
  };
}
