import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedPlatformsDirectory, type SharedResources } from '@corridor/testing';

/** What a suite needs to use the platform an earlier suite of its jest worker started. */
export interface SharedPlatformState extends SharedResources {
  adminToken: string;
  identitySecretKey: string;
  notificationSecretKey: string;
  topicPrefix: string;
  ports: {
    identity: number;
    customer: number;
    notification: number;
    notificationMetrics: number;
    public: number;
    admin: number;
    payments: number;
  };
  /** Database names on the shared PostgreSQL; jest's global tear-down drops them and the bucket. */
  databases: { identity: string; customerKyb: string; notification: string; payments: string };
}

/**
 * The worker's shared platform, if an earlier suite started it, and the file that says so: one per
 * jest worker (suites of a worker run one after another), in a directory of the test run's own.
 */
export function sharedState(): { file: string; state: SharedPlatformState | undefined } {
  const directory = sharedPlatformsDirectory();
  const file = join(directory, `worker-${process.env.JEST_WORKER_ID ?? '1'}.json`);
  if (!existsSync(file)) return { file, state: undefined };
  return { file, state: JSON.parse(readFileSync(file, 'utf8')) as SharedPlatformState };
}

export function publishShared(file: string, state: SharedPlatformState): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(state));
}
