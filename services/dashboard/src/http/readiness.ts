import type { Health } from '@corridor/contracts/grpc/health/v1/health_pb';
import { ServingStatus, withTimeout, type ClientOf } from '@corridor/grpc';
import type { RequestHandler } from 'express';

export interface DependencyCheck {
  name: string;
  check(): Promise<void>;
}

const CHECK_TIMEOUT_MS = 2_000;

export function grpcHealthCheck(name: string, health: ClientOf<typeof Health>): DependencyCheck {
  return {
    name,
    async check() {
      const { status } = await health.check({ service: '' }, { timeoutMs: CHECK_TIMEOUT_MS });
      if (status !== ServingStatus.SERVING) throw new Error(`reports ${ServingStatus[status]}`);
    },
  };
}

/** /readyz: 200 when every dependency the pages need answers, else 503 naming each one that does not. */
export function readinessHandler(checks: readonly DependencyCheck[]): RequestHandler {
  return async (_req, res) => {
    const results = await Promise.all(
      checks.map(async ({ name, check }) => {
        try {
          await withTimeout(check(), CHECK_TIMEOUT_MS);
          return [name, 'ok'] as const;
        } catch (error) {
          return [name, error instanceof Error ? error.message : String(error)] as const;
        }
      }),
    );
    const failing = results.filter(([, result]) => result !== 'ok').map(([name]) => name);
    const dependencies = Object.fromEntries(results);
    res.setHeader('Cache-Control', 'no-store');
    if (failing.length === 0) return void res.json({ status: true, message: 'ready', dependencies });
    res.setHeader('Retry-After', '2');
    res.status(503).json({ status: false, message: `not ready: ${failing.join(', ')} unavailable`, dependencies });
  };
}
