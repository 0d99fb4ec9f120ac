import type { Measurement } from './load.js';

/** One phase's figures, as the report prints them and latest.json keeps them. */
export interface PhaseResult {
  /** Stable key in latest.json. */
  key: string;
  title: string;
  measurement: Measurement;
  /** How long a phase of a fixed number of requests took (the swaps); timed phases last `settings.seconds`. */
  seconds?: number;
}

/** Share of another phase's requests per second (the baseline's, whoami's): what the extra work costs. */
export const ratio = (phase: PhaseResult, reference: PhaseResult) =>
  reference.measurement.requestsPerSecond > 0
    ? phase.measurement.requestsPerSecond / reference.measurement.requestsPerSecond
    : 0;
