import { readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_RUN_ENV, testDatabaseAt } from './postgres.js';
import { killQuietly } from './processes.js';
import { testBucketNamed } from './s3.js';

/** What a test platform shared between suites leaves for the run's end: processes, databases, bucket. */
export interface SharedResources {
  /** Its service processes: a suite's realm ends before its worker does, so nothing else stops them. */
  pids: number[];
  databases: Record<string, string>;
  bucket: string;
}

/**
 * Where the test run's shared platforms are described (one JSON file per jest worker): named after
 * the run (jest's global set-up), so two runs on one machine never share one.
 */
export function sharedPlatformsDirectory(): string {
  const run = process.env[TEST_RUN_ENV];
  if (!run)
    throw new Error(`${TEST_RUN_ENV} is unset: shared platforms need jest's global set-up (test/global-setup.mjs)`);
  return join(tmpdir(), 'corridor-test-runs', run);
}

/**
 * At the run's end (jest's global tear-down): kills every shared platform's processes, drops its
 * databases (with any open session) and bucket, then removes the directory.
 */
export async function dropSharedResources(): Promise<void> {
  const directory = sharedPlatformsDirectory();
  const files = await readdir(directory).catch(() => []);
  for (const file of files) {
    const resources = JSON.parse(await readFile(join(directory, file), 'utf8')) as SharedResources;
    for (const pid of resources.pids) killQuietly(pid, 'SIGKILL');
    await Promise.all([
      ...Object.values(resources.databases).map((name) => testDatabaseAt(name).drop()),
      testBucketNamed(resources.bucket).drop(),
    ]);
  }
  await rm(directory, { recursive: true, force: true });
}
