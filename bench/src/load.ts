import autocannon from 'autocannon';

/** One kind of request, repeated. */
export interface Target {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Each `[<id>]` in the body becomes a fresh id per request (autocannon): unique references. */
  idReplacement?: boolean;
  /**
   * Requests each connection sends in turn, each overriding the path and headers above: the same
   * request as several businesses, so no one business's rate limit (at most 100,000 a minute)
   * refuses a fast phase.
   */
  rotation?: { path: string; headers: Record<string, string> }[];
}

export interface LoadSettings {
  seconds: number;
  connections: number;
}

/** What one measured phase produced. */
export interface Measurement {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  /** Connection errors and timeouts: the server did not answer at all. */
  errors: number;
  totalRequests: number;
  /** Count per HTTP status, so a run full of 429s or 503s shows what it measured. */
  statusCodes: Record<string, number>;
  /** The whole machine's CPU time per request, in µs, where measured (cpu.ts). */
  cpuMicrosPerRequest?: number;
}

const options = (target: Target, connections: number) => ({
  url: target.url,
  method: target.method ?? 'GET',
  headers: target.headers,
  body: target.body,
  idReplacement: target.idReplacement ?? false,
  ...(target.rotation ? { requests: target.rotation } : {}),
  connections,
  pipelining: 1,
});

const run = (target: Target, settings: LoadSettings) =>
  autocannon({ ...options(target, settings.connections), duration: settings.seconds });

function measurementOf(result: autocannon.Result): Measurement {
  const statusCodes: Record<string, number> = {};
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[status] = stats.count ?? 0;
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    totalRequests: result.requests.total,
    statusCodes,
  };
}

/** Closed-loop load: `connections` clients, each sending its next request when the last answered. */
export async function measure(target: Target, settings: LoadSettings): Promise<Measurement> {
  return measurementOf(await run(target, settings));
}

/** A phase of a fixed number of requests, and how long answering them took. */
export interface CountedMeasurement extends Measurement {
  seconds: number;
  /** Stopped by the time limit: requests in flight were dropped, so their effects are uncounted. */
  cutShort: boolean;
}

/**
 * Closed-loop load of exactly `requests` requests. A timed run destroys the requests in flight when
 * its time is up, though the server may still commit them; here every request sent is answered, so
 * the answers count every effect (swaps made). `limitSeconds` keeps a stalled server from hanging the run.
 */
export function measureCount(
  target: Target,
  settings: { requests: number; connections: number; limitSeconds: number },
): Promise<CountedMeasurement> {
  const startedAt = performance.now();
  let lastAnswerAt = startedAt;
  let cutShort = false;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { ...options(target, settings.connections), amount: settings.requests },
      (error: unknown, result) => {
        clearTimeout(limit);
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        // Rate over the time answers came in: autocannon reports a run's end up to a second late.
        const seconds = (lastAnswerAt - startedAt) / 1000;
        const measurement = measurementOf(result);
        resolve({
          ...measurement,
          requestsPerSecond: seconds > 0 ? Math.round(measurement.totalRequests / seconds) : 0,
          seconds: Number(seconds.toFixed(2)),
          cutShort,
        });
      },
    );
    instance.on('response', () => (lastAnswerAt = performance.now()));
    const limit = setTimeout(() => {
      cutShort = true;
      instance.stop();
    }, settings.limitSeconds * 1000);
  });
}

/** Unrecorded load first, so JIT compilation and connection pools are not part of the figures. */
export async function warmUp(target: Target, seconds: number): Promise<void> {
  if (seconds > 0) await run(target, { seconds, connections: 8 });
}
