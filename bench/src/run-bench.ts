import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBaselineServer, type BaselineServer } from './baseline-server.js';
import { startCorridor, type CorridorUnderLoad } from './corridor-under-load.js';
import { measure, warmUp, type LoadSettings, type Target } from './load.js';
import { formatTable, resultsJson, type PhaseResult } from './report.js';

function wholeFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number ${min}–${max}`);
  return value;
}

// Short and bounded on purpose: the whole run takes about a minute and always ends by itself.
const settings: LoadSettings = {
  seconds: wholeFromEnv('BENCH_SECONDS', 10, 1, 60),
  connections: wholeFromEnv('BENCH_CONNECTIONS', 32, 1, 256),
};
const WARM_UP_SECONDS = 2;
const RESULTS_FILE = fileURLToPath(new URL('../results/latest.json', import.meta.url));

let baselineServer: BaselineServer | undefined;
let corridor: CorridorUnderLoad | undefined;

async function cleanUp(): Promise<void> {
  await Promise.allSettled([baselineServer?.stop(), corridor?.stop()]);
}

// Ctrl-C still stops the gateway and identity and drops their database.
process.once('SIGINT', () => {
  console.error('\ninterrupted: stopping the processes the bench started');
  void cleanUp().finally(() => process.exit(130));
});

async function phase(key: string, title: string, target: Target): Promise<PhaseResult> {
  console.log(`… ${title}: ${WARM_UP_SECONDS} s warm-up, then ${settings.seconds} s measured`);
  await warmUp(target, WARM_UP_SECONDS);
  return { key, title, measurement: await measure(target, settings) };
}

async function main(): Promise<void> {
  console.log('starting gateway and identity on free ports (own database and topics)…');
  // Everything is started before the first phase, so all three run on the same, equally busy machine.
  corridor = await startCorridor();
  baselineServer = await startBaselineServer();

  const baseline = await phase('baseline', 'node:http hello world (baseline)', { url: baselineServer.url });
  const tokens = await phase('oauth_token', 'POST /oauth/token (gateway → identity)', corridor.tokenRequest);
  const whoami = await phase('whoami', 'GET /api/external/whoami (gateway)', corridor.whoamiRequest);
  const phases = [baseline, tokens, whoami];

  console.log(`\n${formatTable(phases, baseline, settings)}\n`);
  await mkdir(dirname(RESULTS_FILE), { recursive: true });
  await writeFile(RESULTS_FILE, `${JSON.stringify(resultsJson(phases, baseline, settings), null, 2)}\n`);
  console.log(`written to ${RESULTS_FILE}`);
}

try {
  await main();
} catch (error) {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
