/**
 * What an unexpected error of a call says about its cause (issue 18): a dependency that is away, so
 * a retry is the remedy (UNAVAILABLE, 503); a value the database refused to store or compare (NUL in
 * text, an invalid byte sequence, a number out of range), so the caller's input is at fault
 * (INVALID_ARGUMENT, 422); or a defect (INTERNAL, 500). Read from the error's own fields and its
 * causes, never from a stack: PostgreSQL's SQLSTATE, Node's socket codes, and the names the
 * drivers (pg, MikroORM, redis, kafkajs) give to connection failures.
 */
export type FailureKind = 'unavailable' | 'refused-value' | 'defect';

/** Node socket and DNS failures: the peer is not there, or not now. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Connection failures the drivers report by name (MikroORM, node-redis, kafkajs). */
const UNAVAILABLE_NAMES = new Set([
  'ConnectionException',
  'ConnectionTimeoutError',
  'SocketTimeoutError',
  'ClientClosedError',
  'ClientOfflineError',
  'SocketClosedUnexpectedlyError',
  'ReconnectStrategyError',
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
]);

/** pg's own words when a connection ends or never comes (it gives these no code). */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /^Client has encountered a connection error/,
  /the database system is (starting up|shutting down|in recovery mode)/,
];

/**
 * SQLSTATEs: class 08 is a connection exception (but 08P01, a protocol violation, is what a NUL in a
 * bind parameter gets), 57P01–57P03 an administrator or crash shutdown and "cannot connect now",
 * class 53 insufficient resources (too many connections, out of memory, disk full).
 */
const isUnavailableState = (state: string) =>
  (state.startsWith('08') && state !== '08P01') || /^57P0[123]$/.test(state) || state.startsWith('53');

/** Class 22 is a data exception (22P05 NUL in jsonb, 22021 bad byte, 22001 too long, 22003 out of range). */
const isRefusedValueState = (state: string) => state.startsWith('22') || state === '08P01' || state === '54000';

/** The fields of an error that say what happened; drivers set some of them, never all. */
export interface ErrorFields {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  sqlState?: unknown;
  address?: unknown;
  port?: unknown;
  cause?: unknown;
  previous?: unknown;
  errors?: unknown;
}

/**
 * The error and every error it wraps (cause, MikroORM's previous, an AggregateError's errors),
 * outermost first, each once, at most 16.
 */
export function errorChain(error: unknown): ErrorFields[] {
  const chain: ErrorFields[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && chain.length < 16) {
    const next = queue.shift();
    if (typeof next !== 'object' || next === null || chain.includes(next as ErrorFields)) continue;
    const fields = next as ErrorFields;
    chain.push(fields);
    queue.push(fields.cause, fields.previous, ...(Array.isArray(fields.errors) ? fields.errors : []));
  }
  return chain;
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

/** The kind of failure `error` is; a defect unless its fields say otherwise. */
export function failureKind(error: unknown): FailureKind {
  const chain = errorChain(error);
  // A refused value is the caller's, whatever else the chain holds.
  for (const fields of chain) {
    const state = textOf(fields.sqlState) || textOf(fields.code);
    if (/^[0-9A-Z]{5}$/.test(state) && isRefusedValueState(state)) return 'refused-value';
  }
  for (const fields of chain) {
    const code = textOf(fields.code);
    const state = textOf(fields.sqlState) || code;
    if (NETWORK_CODES.has(code)) return 'unavailable';
    if (/^[0-9A-Z]{5}$/.test(state) && isUnavailableState(state)) return 'unavailable';
    if (UNAVAILABLE_NAMES.has(textOf(fields.name))) return 'unavailable';
    const message = textOf(fields.message);
    if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return 'unavailable';
  }
  return 'defect';
}
