/** Problems by field path (`owners.1.email`), each a sentence without its subject: the seed 7 `errors` map. */
export type FieldErrors = Record<string, string[]>;

/** The outcome of validating a request: the typed value, or every problem by field path. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** The problem of a property no request of its kind has. */
export const NOT_RECOGNISED = 'is not a recognised field';

/** The path of the whole body, for problems that belong to no field (as the gateway names it). */
export const BODY_PATH = '(body)';

/**
 * Collects problems by field path, in the order they were found. Paths come from platforms' JSON
 * keys, so they are kept in a Map: a key such as `constructor` or `__proto__` is just a path.
 */
export class FieldProblems {
  private readonly byPath = new Map<string, string[]>();

  add(path: string, text: string): void {
    const problems = this.byPath.get(path) ?? [];
    if (!problems.includes(text)) problems.push(text);
    this.byPath.set(path, problems);
  }

  addAll(errors: FieldErrors): void {
    for (const [path, problems] of Object.entries(errors)) for (const text of problems) this.add(path, text);
  }

  has(path: string): boolean {
    return this.byPath.has(path);
  }

  get isEmpty(): boolean {
    return this.byPath.size === 0;
  }

  /** The problems as the public `errors` map (own properties only, whatever the path). */
  get errors(): FieldErrors {
    const errors: FieldErrors = {};
    for (const [path, problems] of this.byPath) {
      Object.defineProperty(errors, path, {
        value: [...problems],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return errors;
  }

  /** The value when nothing was found, else the problems. */
  resultOf<T>(value: () => T): ValidationResult<T> {
    return this.isEmpty ? { ok: true, value: value() } : { ok: false, errors: this.errors };
  }
}

/**
 * The first problem as one line for the error body's `message` (seed 7: "the message names the
 * specific problem"), e.g. `owners.1.email must be unique within the customer (case-insensitive)`.
 */
export function firstProblemMessage(errors: FieldErrors): string {
  for (const [path, problems] of Object.entries(errors)) {
    const first = problems[0];
    if (first !== undefined) return `${path} ${first}`;
  }
  return `${BODY_PATH} is invalid`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An id as Corridor issues them (any case). Anything else names no record and must not reach a
 * uuid column, where PostgreSQL would refuse it with an error rather than find nothing.
 */
export const isUuid = (value: string): boolean => UUID.test(value);

/** A JSON object (not an array, not null), as a platform's body or an entry of `owners`. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a JSON value is, in the words of the error message ("got a string"). */
export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return typeof value;
}
