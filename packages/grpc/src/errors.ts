import { Metadata, status as Status, type ServiceError } from '@grpc/grpc-js';
import { BODY_PATH, type FieldErrors } from '@corridor/validation';

export { Status };

const REASON_KEY = 'corridor-reason';
/** ASCII-only text metadata: kept for gateways released before the binary key. */
const FIELD_ERRORS_KEY = 'corridor-field-errors';
/** UTF-8 JSON: field paths are platforms' JSON keys and may be any text ("ñame", "’"). */
const FIELD_ERRORS_BIN_KEY = 'corridor-field-errors-bin';

/**
 * An expected failure of a use case. Services throw these; the gRPC edge turns them into a status
 * (DESIGN.md error table) and the gateway turns the status into HTTP once.
 */
export class DomainError extends Error {
  constructor(
    readonly status: Status,
    /** Stable machine code, e.g. CUSTOMER_NOT_FOUND. */
    readonly reason: string,
    message: string,
    readonly fieldErrors?: FieldErrors,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalidArgument = (message: string, fieldErrors?: FieldErrors, reason = 'VALIDATION_FAILED') =>
  new DomainError(Status.INVALID_ARGUMENT, reason, message, fieldErrors);
export const failedPrecondition = (reason: string, message: string) =>
  new DomainError(Status.FAILED_PRECONDITION, reason, message);
export const notFound = (reason: string, message: string) => new DomainError(Status.NOT_FOUND, reason, message);
export const permissionDenied = (reason: string, message: string) =>
  new DomainError(Status.PERMISSION_DENIED, reason, message);
export const unauthenticated = (reason: string, message: string) =>
  new DomainError(Status.UNAUTHENTICATED, reason, message);
export const alreadyExists = (reason: string, message: string) =>
  new DomainError(Status.ALREADY_EXISTS, reason, message);

/**
 * What one error may put in its trailers. HTTP/2 peers bound a header block (gRPC's usual limit is
 * 8 KiB) and one that overflows resets the connection, failing every call in flight on it: a platform's
 * 64 KiB key or value quoted back must never do that. The JSON appears twice (ASCII and base64).
 */
const MAX_MESSAGE_CHARS = 500; // grpc-message is percent-encoded: up to 9 bytes a character
const MAX_FIELD_ERRORS_BYTES = 2_000;
const MAX_PATH_CHARS = 200;
const MAX_PROBLEM_CHARS = 300;

const shortened = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The field errors within the trailers' budget, in order; what does not fit is counted under (body). */
export function boundedFieldErrors(errors: FieldErrors): FieldErrors {
  const bounded: FieldErrors = {};
  const entries = Object.entries(errors);
  let bytes = 2;
  let kept = 0;
  for (const [path, problems] of entries) {
    const key = shortened(path, MAX_PATH_CHARS);
    const texts = problems.map((text) => shortened(text, MAX_PROBLEM_CHARS));
    bytes += Buffer.byteLength(JSON.stringify({ [key]: texts }));
    if (bytes > MAX_FIELD_ERRORS_BYTES) break;
    Object.defineProperty(bounded, key, { value: texts, enumerable: true, writable: true, configurable: true });
    kept += 1;
  }
  if (kept < entries.length) {
    const rest = `and ${entries.length - kept} more fields have problems: correct these first`;
    bounded[BODY_PATH] = [...(bounded[BODY_PATH] ?? []), rest];
  }
  return bounded;
}

/** Server side: a DomainError as a grpc-js error with its reason and field errors in trailers. */
export function toServiceError(error: DomainError): Partial<ServiceError> {
  const metadata = new Metadata();
  metadata.set(REASON_KEY, error.reason);
  if (error.fieldErrors) {
    const json = JSON.stringify(boundedFieldErrors(error.fieldErrors));
    metadata.set(FIELD_ERRORS_BIN_KEY, Buffer.from(json, 'utf8'));
    // A non-ASCII text value would make grpc-js throw and the call end without its status.
    if (/^[\x20-\x7e]*$/.test(json)) metadata.set(FIELD_ERRORS_KEY, json);
  }
  return { code: error.status, details: shortened(error.message, MAX_MESSAGE_CHARS), metadata };
}

function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as ServiceError).code === 'number' && 'details' in error;
}

/**
 * Client side: the service answered that it does not serve the method, i.e. a release of it older
 * than the caller's contract (version skew, decision 0052).
 */
export const isUnimplemented = (error: unknown): boolean =>
  error instanceof DomainError && error.status === Status.UNIMPLEMENTED;

/** Client side: any error of a call as a DomainError (UNAVAILABLE when it is not a gRPC status). */
export function fromServiceError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  if (!isServiceError(error)) {
    return new DomainError(
      Status.UNAVAILABLE,
      'UPSTREAM_UNAVAILABLE',
      error instanceof Error ? error.message : String(error),
    );
  }
  const reason = String(error.metadata?.get(REASON_KEY)[0] ?? Status[error.code] ?? 'UNKNOWN');
  const binary = error.metadata?.get(FIELD_ERRORS_BIN_KEY)[0];
  const rawFieldErrors = Buffer.isBuffer(binary) ? binary.toString('utf8') : error.metadata?.get(FIELD_ERRORS_KEY)[0];
  let fieldErrors: FieldErrors | undefined;
  if (typeof rawFieldErrors === 'string') {
    try {
      fieldErrors = JSON.parse(rawFieldErrors) as FieldErrors;
    } catch {
      fieldErrors = undefined;
    }
  }
  return new DomainError(error.code, reason, error.details || Status[error.code] || 'unknown error', fieldErrors);
}
