import type { IncomingMessage } from 'node:http';
import type { FieldErrors } from '@corridor/validation';
import type { RequestHandler } from 'express';
import { CONTROL_CHARACTER as CONTROL, CONTROL_PROBLEM } from '@corridor/validation';
import { HttpError } from './errors.js';

/**
 * The gateway's one input boundary (issue 18, DESIGN.md "Errors tell the truth"): what no route can
 * store or mean is refused here, naming where it is, before any service sees it. Services still
 * check what they store; this only makes the common case a clear 4xx instead of a database error.
 *
 * - invalid UTF-8, in a body or a query: 400 (the text is not text; decoding it would alter it);
 * - NUL and the other C0 control characters but tab, line feed and carriage return, in a string or
 *   a key of a body or in a query parameter: 422 naming the field or parameter;
 * - JSON nested deeper than MAX_JSON_DEPTH: 422;
 * - a key twice in one object, or a number that would not read back as sent (1e400, 2^53 + 1): 422
 *   naming the field;
 * - an empty body is no body: the route says whether it needs one.
 */

/** Deeper than any body of the API (owners in a customer: 3) by a wide margin; a bound on work. */
export const MAX_JSON_DEPTH = 32;

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });
const textOf = (bytes: Uint8Array) => {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    return undefined;
  }
};

/** What the raw bytes of a body showed, for refuseHostileJson to answer. */
type RawBody = 'empty' | 'not UTF-8' | FieldErrors;
const rawBodies = new WeakMap<IncomingMessage, RawBody>();

/** body-parser's `verify`: notes a body that is empty, not UTF-8, or repeats a key. */
export function inspectRawBody(req: IncomingMessage, _res: unknown, bytes: Buffer): void {
  const text = bytes.length === 0 ? '' : textOf(bytes);
  rawBodies.set(req, text === '' ? 'empty' : text === undefined ? 'not UTF-8' : repeatedKeys(text));
}

/**
 * Keys that appear twice in one object (RFC 8259 4 leaves their meaning open; I-JSON, RFC 7493 2.3,
 * forbids them): JSON.parse keeps the last, another reader the first, so the request has no one
 * meaning. One pass over the text, no recursion; a text that is not JSON is body-parser's to refuse.
 */
export function repeatedKeys(text: string): FieldErrors {
  const problems: FieldErrors = Object.create(null) as FieldErrors;
  interface Container {
    path: string;
    keys?: Set<string>; // objects only
    key?: string;
    index: number;
    expectsKey: boolean;
  }
  const open: Container[] = [];
  const childPath = (parent: Container | undefined) => {
    if (!parent) return '';
    const name = parent.keys ? (parent.key ?? '') : String(parent.index);
    return parent.path ? `${parent.path}.${name}` : name;
  };
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    const current = open.at(-1);
    if (char === '{' || char === '[') {
      open.push({
        path: childPath(current),
        index: 0,
        expectsKey: char === '{',
        ...(char === '{' ? { keys: new Set() } : {}),
      });
    } else if (char === '}' || char === ']') {
      open.pop();
    } else if (char === ',' && current) {
      current.index += 1;
      current.expectsKey = current.keys !== undefined;
    } else if (char === '"') {
      const start = at;
      for (at += 1; at < text.length && text[at] !== '"'; at += 1) if (text[at] === '\\') at += 1;
      if (!current?.keys || !current.expectsKey) continue;
      let key: string;
      try {
        key = JSON.parse(text.slice(start, at + 1)) as string;
      } catch {
        return problems;
      }
      current.expectsKey = false;
      current.key = key;
      if (current.keys.has(key)) (problems[childPath(current)] ??= []).push('appears more than once in its object');
      current.keys.add(key);
    }
  }
  return problems;
}

/** A number whose text reads back as another value (beyond a double's range or precision). */
class InexactNumber {
  constructor(readonly numeral: string) {}
}

/** A decimal numeral as its exact value: sign, significant digits, power of ten ("-0" and "0" alike). */
function exactValueOf(numeral: string): string | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(numeral);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return '0';
  const significant = digits.replace(/0+$/, '');
  return `${sign}${significant}e${Number(exponent) - fraction.length + digits.length - significant.length}`;
}

/**
 * body-parser's `reviver`: a number whose value is not exactly its text (1e400 reads as Infinity,
 * 9007199254740993 as ...992, 1e-400 as 0) is marked, for jsonProblems to name rather than let a
 * service store another number than the one sent.
 */
export function markInexactNumbers(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || context?.source === undefined) return value;
  const exact = Number.isFinite(value) && exactValueOf(String(value)) === exactValueOf(context.source);
  return exact ? value : new InexactNumber(context.source);
}

/** Where each problem of a parsed JSON value is, as the public `errors` map names fields. */
export function jsonProblems(value: unknown): FieldErrors {
  const problems: FieldErrors = Object.create(null) as FieldErrors;
  const add = (path: string, problem: string) => (problems[path || '(body)'] ??= []).push(problem);
  // Iterative: a body nested 100,000 deep must not take the call stack with it.
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const next = stack.pop();
    if (!next) break;
    if (typeof next.value === 'string') {
      if (CONTROL.test(next.value)) add(next.path, CONTROL_PROBLEM);
      continue;
    }
    if (next.value instanceof InexactNumber) {
      const shown = next.value.numeral.length > 40 ? `${next.value.numeral.slice(0, 40)}…` : next.value.numeral;
      add(next.path, `must be a number that reads back as sent; ${shown} is beyond the range or precision of a double`);
      continue;
    }
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth >= MAX_JSON_DEPTH) {
      add(next.path, `nests deeper than ${MAX_JSON_DEPTH} levels`);
      continue;
    }
    const at = (key: string) => (next.path ? `${next.path}.${key}` : key);
    for (const [key, child] of Object.entries(next.value)) {
      if (CONTROL.test(key)) {
        add(at(key.replace(CONTROL, '?')), `is a key that ${CONTROL_PROBLEM}`);
        continue;
      }
      stack.push({ value: child, path: at(key), depth: next.depth + 1 });
    }
  }
  return problems;
}

const refuse = (problems: FieldErrors) => {
  const [field, [problem] = []] = Object.entries(problems)[0] ?? ['(body)', []];
  return new HttpError(422, 'VALIDATION_FAILED', `${field} ${problem ?? 'is invalid'}`, problems);
};

/**
 * After express.json: 400 for a body that is not UTF-8, 422 naming each field of it no route can
 * take. An empty body (body-parser reads it as {}) is no body, so a route that needs one says so.
 */
export const refuseHostileJson: RequestHandler = (req, _res, next) => {
  const raw = rawBodies.get(req);
  if (raw === 'empty') req.body = undefined;
  if (raw === 'not UTF-8') {
    next(new HttpError(400, 'MALFORMED_JSON', 'request body is not valid UTF-8'));
    return;
  }
  const problems = jsonProblems(req.body);
  for (const [path, repeated] of Object.entries(typeof raw === 'object' ? raw : {})) {
    (problems[path] ??= []).push(...repeated);
  }
  next(Object.keys(problems).length > 0 ? refuse(problems) : undefined);
};

/**
 * Every query of every route: 400 for a percent-encoding that is not UTF-8 (URLSearchParams would
 * read it as U+FFFD), 422 naming each parameter that holds a control character.
 */
export const refuseHostileQuery: RequestHandler = (req, _res, next) => {
  const start = req.originalUrl.indexOf('?');
  if (start < 0) {
    next();
    return;
  }
  const query = req.originalUrl.slice(start + 1);
  const problems: FieldErrors = Object.create(null) as FieldErrors;
  for (const pair of query.split('&')) {
    const [rawName = '', rawValue = ''] = pair.split(/=(.*)/s);
    const decoded = [rawName, rawValue].map((part) => {
      try {
        return decodeURIComponent(part.replace(/\+/g, ' '));
      } catch {
        return undefined;
      }
    });
    const [name, value] = decoded;
    if (name === undefined || value === undefined) {
      next(
        new HttpError(
          400,
          'BAD_REQUEST',
          `query parameter ${JSON.stringify(rawName)} is not valid percent-encoded UTF-8`,
        ),
      );
      return;
    }
    if (CONTROL.test(name) || CONTROL.test(value)) {
      (problems[name.replace(CONTROL, '?')] ??= []).push(CONTROL_PROBLEM);
    }
  }
  next(Object.keys(problems).length > 0 ? refuse(problems) : undefined);
};
