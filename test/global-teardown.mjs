// jest's global tear-down (jest.config.mjs): drops this run's template databases (test/global-setup.mjs)
// and what the workers' shared platforms made (test/support/platform.ts, Platform.shared), and
// deletes the Kafka topics the run made (@corridor/testing createTopics).
import { dropRunTopics, dropSharedResources, dropTemplates, TEMPLATE_PREFIX, TEST_RUN_ENV } from '@corridor/testing';

export default async function globalTeardown() {
  const run = process.env[TEST_RUN_ENV];
  if (!run) return;
  await dropSharedResources().catch((error) =>
    process.stderr.write(`[global-teardown] shared platforms' databases not dropped: ${error.message}\n`),
  );
  await dropTemplates((name) => name.startsWith(`${TEMPLATE_PREFIX}${run}_`)).catch((error) =>
    process.stderr.write(`[global-teardown] templates not dropped: ${error.message}\n`),
  );
  await dropRunTopics(run).catch((error) =>
    process.stderr.write(`[global-teardown] the run's Kafka topics not deleted: ${error.message}\n`),
  );
}
