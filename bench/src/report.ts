import { cpus, loadavg } from 'node:os';
import type { LoadSettings, Measurement } from './load.js';

export interface PhaseResult {
  /** Stable key in latest.json. */
  key: string;
  title: string;
  measurement: Measurement;
}

/** Share of the baseline's requests per second: how much the work behind the request costs. */
const ratio = (phase: PhaseResult, baseline: PhaseResult) =>
  baseline.measurement.requestsPerSecond > 0
    ? phase.measurement.requestsPerSecond / baseline.measurement.requestsPerSecond
    : 0;

/**
 * The load average travels with the figures: on a small shared machine another build running
 * alongside moves every number, and the baseline only absorbs part of that. Read when this module
 * loads, at the start of the run, before the bench's own load counts in it.
 */
const LOAD_AVERAGE_BEFORE = loadavg()[0] ?? 0;

const machine = () => {
  const all = cpus();
  return {
    cpus: all.length,
    cpu_model: all[0]?.model.trim() ?? 'unknown',
    node: process.version,
    load_average_1m_before: Number(LOAD_AVERAGE_BEFORE.toFixed(2)),
  };
};

/** A fixed-width table for the terminal. */
export function formatTable(phases: PhaseResult[], baseline: PhaseResult, settings: LoadSettings): string {
  const { cpus: count, cpu_model: model, node, load_average_1m_before: load } = machine();
  const header = ['phase', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'vs baseline'];
  const rows = phases.map((phase) => {
    const m = phase.measurement;
    return [
      phase.title,
      m.requestsPerSecond.toLocaleString('en'),
      String(m.latencyP50Ms),
      String(m.latencyP99Ms),
      String(m.non2xx),
      String(m.errors),
      `${(ratio(phase, baseline) * 100).toFixed(1)} %`,
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ');
  const statuses = phases
    .filter((phase) => phase.measurement.non2xx > 0)
    .map((phase) => `  ${phase.title}: status counts ${JSON.stringify(phase.measurement.statusCodes)}`);
  return [
    `${settings.seconds} s per phase, ${settings.connections} connections, ${node}, ${count} × ${model}, load average before ${load}`,
    '',
    line(header),
    ...rows.map(line),
    ...(statuses.length > 0 ? ['', 'non-2xx answers (these phases measured refusals too):', ...statuses] : []),
  ].join('\n');
}

/** latest.json: objects only (no arrays), so prettier leaves the written file as it is. */
export function resultsJson(phases: PhaseResult[], baseline: PhaseResult, settings: LoadSettings) {
  return {
    measured_at: new Date().toISOString(),
    machine: machine(),
    settings: { seconds_per_phase: settings.seconds, connections: settings.connections },
    phases: Object.fromEntries(
      phases.map((phase) => [
        phase.key,
        {
          title: phase.title,
          requests_per_second: phase.measurement.requestsPerSecond,
          latency_ms: { p50: phase.measurement.latencyP50Ms, p99: phase.measurement.latencyP99Ms },
          non_2xx: phase.measurement.non2xx,
          errors: phase.measurement.errors,
          total_requests: phase.measurement.totalRequests,
          status_codes: phase.measurement.statusCodes,
          ratio_to_baseline: Number(ratio(phase, baseline).toFixed(4)),
        },
      ]),
    ),
  };
}
