import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import type { LoadMeasurement, LoadSettings } from './ledger-load.js';
import type { Contention, Scenario } from './ledger-scenarios.js';
import type { PgbenchResult } from './pgbench.js';

export interface PhaseResult {
  scenario: Scenario;
  measurement: LoadMeasurement;
  checkMs: number;
}

export interface LedgerRun {
  startedAt: Date;
  settings: LoadSettings;
  /** The server's `server_version`. */
  postgresVersion: string;
  pgbench: PgbenchResult & { scale: number; threads: number };
  phases: PhaseResult[];
}

/** Targets from the ledger's brief: share of pgbench's tps on the same machine in the same run. */
const TARGETS: Record<Contention, number> = { distinct: 0.5, hot: 0.25 };

/** Read at module load, before the bench's own work counts in it. */
const LOAD_AVERAGE_BEFORE = loadavg()[0] ?? 0;

const whole = (value: number) => Math.round(value).toLocaleString('en');
const ratioOf = (phase: PhaseResult, run: LedgerRun) =>
  run.pgbench.tps > 0 ? phase.measurement.commitsPerSecond / run.pgbench.tps : 0;

/** A markdown table padded the way prettier pads one, so the README stays `prettier --check` clean. */
function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(3, title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

export function formatRun(run: LedgerRun): string {
  const { settings, pgbench } = run;
  const header = ['phase', 'commits/s', 'transfers/s', 'p50 ms', 'p99 ms', 'vs pgbench', 'target'];
  const baseline = [
    `pgbench tpcb-like (baseline)`,
    whole(pgbench.tps),
    '—',
    `${pgbench.latencyAverageMs.toFixed(1)} (mean)`,
    '—',
    '1.00×',
    '—',
  ];
  const rows = run.phases.map((phase) => {
    const m = phase.measurement;
    const ratio = ratioOf(phase, run);
    const target = TARGETS[phase.scenario.contention];
    return [
      phase.scenario.title,
      whole(m.commitsPerSecond),
      whole(m.transfersPerSecond),
      m.latencyP50Ms.toFixed(1),
      m.latencyP99Ms.toFixed(1),
      `${ratio.toFixed(2)}×`,
      phase.scenario.targeted === false ? '— (decision 0070)' : `≥ ${target}× ${ratio >= target ? 'met' : 'missed'}`,
    ];
  });
  const model = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const notes = run.phases
    .filter((phase) => phase.scenario.note !== undefined)
    .map((phase) => `- ${phase.scenario.title}: ${phase.scenario.note}.`);
  const checks = run.phases.map((phase) => `${phase.scenario.title} ${whole(phase.checkMs)} ms`).join('; ');
  return [
    `### ${run.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `${cpus().length} × ${model}, Node ${process.version}, PostgreSQL ${run.postgresVersion}, load average before ${LOAD_AVERAGE_BEFORE.toFixed(2)}; ` +
      `${settings.writers} writers for ${settings.seconds} s after ${settings.warmUpSeconds} s of warm-up; ` +
      `\`pgbench -s ${pgbench.scale} -c ${settings.writers} -j ${pgbench.threads} -T ${settings.seconds}\` ` +
      `(${pgbench.failed} failed).`,
    '',
    markdownTable(header, [baseline, ...rows]),
    '',
    ...notes,
    `- checkLedger after each phase: 0 violations, every committed transfer in the books; it took: ${checks}.`,
  ].join('\n');
}

/**
 * Adds the run at the end of the README's "Ledger" section (made when missing), so earlier runs and
 * the rest of the file stay as they are.
 */
export async function appendToReadme(readmePath: string, run: LedgerRun): Promise<void> {
  const readme = await readFile(readmePath, 'utf8');
  const block = `${formatRun(run)}\n`;
  const heading = /^## Ledger\s*$/m.exec(readme);
  if (!heading) {
    await writeFile(readmePath, `${readme.trimEnd()}\n\n## Ledger\n\n${block}`);
    return;
  }
  const afterHeading = heading.index + heading[0].length;
  const nextSection = /^## /m.exec(readme.slice(afterHeading));
  const end = nextSection ? afterHeading + nextSection.index : readme.length;
  const before = readme.slice(0, end).trimEnd();
  const after = readme.slice(end);
  await writeFile(readmePath, `${before}\n\n${block}${after ? `\n${after}` : ''}`);
}
