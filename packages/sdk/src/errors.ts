/** Field path → its problems, as a 422 VALIDATION_FAILED body names them. */
export type FieldErrors = Record<string, string[]>;

/**
 * A call Corridor answered with an error (or, for CorridorConnectionError, never answered).
 * The body's fields as the API sends them (`{status: false, message, code, errors?}`), with the
 * HTTP status and the request id to quote to support.
 */
export class CorridorError extends Error {
  override readonly name: string = 'CorridorError';

  constructor(
    /** The HTTP status; 0 when no answer came. */
    readonly status: number,
    /** The stable machine code, e.g. VALIDATION_FAILED, TOKEN_EXPIRED, INVALID_CLIENT. */
    readonly code: string,
    message: string,
    /** Validation failures only: field path → its problems. */
    readonly errors: FieldErrors | undefined = undefined,
    /** The response's x-request-id. */
    readonly requestId: string | undefined = undefined,
    /** Seconds the server asked to wait (429, 503), when it said. */
    readonly retryAfter: number | undefined = undefined,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** The error an unsuccessful response stands for; reads (and so consumes) its body. */
  static async of(response: Response): Promise<CorridorError> {
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON (a proxy's HTML page): the text is the body
    }
    return CorridorError.answered(response, body);
  }

  /** The error of `response` whose body was already read: parsed JSON, or the text when it was not JSON. */
  static answered(response: Response, body: unknown): CorridorError {
    const fields = isObject(body) ? body : undefined;
    const text = typeof body === 'string' ? body.slice(0, 200) : '';
    return new CorridorError(
      response.status,
      typeof fields?.code === 'string' ? fields.code : `HTTP_${response.status}`,
      typeof fields?.message === 'string'
        ? fields.message
        : `${response.status} ${response.statusText}${text ? `: ${text}` : ''}`.trim(),
      fieldErrors(fields?.errors),
      response.headers.get('x-request-id') ?? undefined,
      retryAfterSeconds(response.headers.get('retry-after')),
    );
  }
}

/** No answer at all after every attempt: the connection was refused, reset or timed out. */
export class CorridorConnectionError extends CorridorError {
  override readonly name = 'CorridorConnectionError';

  constructor(message: string, cause: unknown) {
    super(0, 'CONNECTION_FAILED', message, undefined, undefined, undefined, { cause });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fieldErrors(value: unknown): FieldErrors | undefined {
  if (!isObject(value)) return undefined;
  return Object.fromEntries(
    Object.entries(value).map(([field, problems]) => [
      field,
      Array.isArray(problems) ? problems.map(String) : [String(problems)],
    ]),
  );
}

/** Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110 10.2.3); undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
