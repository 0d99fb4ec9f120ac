import { Agent, request } from 'undici';
import type { CountedMeasurement } from './load.js';

/** One request of a loop, as sent: its URL, and what to send. */
export interface LoopRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface Answer {
  index: number;
  status: number;
  text: string;
  /** From the moment the request was due (open loop) or sent (closed loop) to its answer. */
  latencyMs: number;
  answeredAt: number;
}

export interface LoopMeasurement extends CountedMeasurement {
  answers: Answer[];
}

export const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

const round = (ms: number) => Number(ms.toFixed(1));

/** The figures autocannon would give, from the answers: rate over the time answers came in, latency percentiles. */
export function measurementOfAnswers(answers: Answer[], errors: number, startedAt: number, cutShort: boolean) {
  const lastAt = Math.max(startedAt, ...answers.map((answer) => answer.answeredAt));
  const seconds = (lastAt - startedAt) / 1000;
  const latencies = answers.map((answer) => answer.latencyMs).sort((a, b) => a - b);
  const statusCodes: Record<string, number> = {};
  for (const answer of answers) statusCodes[answer.status] = (statusCodes[answer.status] ?? 0) + 1;
  const non2xx = answers.filter((answer) => answer.status < 200 || answer.status > 299).length;
  return {
    requestsPerSecond: seconds > 0 ? Math.round(answers.length / seconds) : 0,
    latencyP50Ms: round(percentile(latencies, 0.5)),
    latencyP99Ms: round(percentile(latencies, 0.99)),
    non2xx,
    errors,
    totalRequests: answers.length,
    statusCodes,
    seconds: Number(seconds.toFixed(2)),
    cutShort,
    answers,
  };
}

async function send(agent: Agent, one: LoopRequest, index: number, dueAt: number): Promise<Answer> {
  const response = await request(one.url, {
    method: one.method,
    headers: one.headers,
    ...(one.body === undefined ? {} : { body: one.body }),
    dispatcher: agent,
  });
  const text = await response.body.text();
  const answeredAt = performance.now();
  return { index, status: response.statusCode, text, latencyMs: answeredAt - dueAt, answeredAt };
}

/**
 * Closed loop over requests that differ one from the next (a refund names its own collection): exactly
 * `count` requests, `connections` in flight, each connection sending its next when the last answered.
 * Every request is answered or counted as an error, so every effect is counted; `limitSeconds` stops
 * sending new ones when a stalled server would hang the run.
 */
export async function closedLoop(
  make: (index: number) => LoopRequest,
  settings: { count: number; connections: number; limitSeconds: number; ca?: string },
): Promise<LoopMeasurement> {
  const agent = new Agent({
    connections: settings.connections,
    ...(settings.ca ? { connect: { ca: settings.ca } } : {}),
  });
  const answers: Answer[] = [];
  let errors = 0;
  let next = 0;
  let cutShort = false;
  const startedAt = performance.now();
  const deadline = startedAt + settings.limitSeconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: Math.min(settings.connections, settings.count) }, async () => {
        while (next < settings.count) {
          if (performance.now() > deadline) {
            cutShort = true;
            return;
          }
          const index = next++;
          const sentAt = performance.now();
          try {
            answers.push(await send(agent, make(index), index, sentAt));
          } catch {
            errors += 1;
          }
        }
      }),
    );
  } finally {
    await agent.close();
  }
  return measurementOfAnswers(answers, errors, startedAt, cutShort);
}

/**
 * Open loop: request i is due at startedAt + i ÷ rate, whatever the server's pace, and its latency
 * runs from when it was due (a late send counts against the server: no coordinated omission).
 * At most `maxInFlight` at once; past that a due request waits, and its wait counts too.
 */
export async function openLoop(
  make: (index: number) => LoopRequest,
  settings: { ratePerSecond: number; seconds: number; maxInFlight: number },
): Promise<LoopMeasurement> {
  const agent = new Agent({ connections: settings.maxInFlight });
  const count = Math.max(1, Math.round(settings.ratePerSecond * settings.seconds));
  const answers: Answer[] = [];
  let errors = 0;
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const startedAt = performance.now();
  const sends: Promise<void>[] = [];
  try {
    for (let index = 0; index < count; index++) {
      const dueAt = startedAt + (index * 1000) / settings.ratePerSecond;
      const wait = dueAt - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      while (inFlight >= settings.maxInFlight) await new Promise<void>((resolve) => waiting.push(resolve));
      inFlight += 1;
      sends.push(
        send(agent, make(index), index, dueAt)
          .then(
            (answer) => void answers.push(answer),
            () => void (errors += 1),
          )
          .finally(() => {
            inFlight -= 1;
            waiting.shift()?.();
          }),
      );
    }
    await Promise.all(sends);
  } finally {
    await agent.close();
  }
  return measurementOfAnswers(answers, errors, startedAt, false);
}
