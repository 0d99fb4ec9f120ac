import autocannon from 'autocannon';

/** One kind of request, repeated. */
export interface Target {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
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
}

const run = (target: Target, settings: LoadSettings) =>
  autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    connections: settings.connections,
    duration: settings.seconds,
    pipelining: 1,
  });

/** Closed-loop load: `connections` clients, each sending its next request when the last answered. */
export async function measure(target: Target, settings: LoadSettings): Promise<Measurement> {
  const result = await run(target, settings);
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

/** Unrecorded load first, so JIT compilation and connection pools are not part of the figures. */
export async function warmUp(target: Target, seconds: number): Promise<void> {
  await run(target, { seconds, connections: 8 });
}
