import type { IncomingMessage } from 'node:http';
import type { FieldErrors } from '@corridor/grpc';
import type { RequestHandler } from 'express';
import { HttpError } from './errors.js';

/**
 * The gateway's one input boundary (issue 18, DESIGN.md "Errors tell the truth"): what no route can
 * store or mean is refused here, naming where it is, before any service sees it. Services still
 * check what they store; this only makes the common case a clear 4xx instead of a database error.
 *
 * - invalid UTF-8, in a body or a query: 400 (the text is not text; decoding it would alter it);
 * - NUL and the other C0 control characters but tab, line feed and carriage return, in a string or
 *   a key of a body or in a query parameter: 422 naming the field or parameter;
 * - JSON nested deeper than MAX_JSON_DEPTH: 422.
 */

/** Deeper than any body of the API (owners in a customer: 3) by a wide margin; a bound on work. */
export const MAX_JSON_DEPTH = 32;

// eslint-disable-next-line no-control-regex -- the point: the characters no text field may hold
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
const CONTROL_PROBLEM = 'must not contain control characters (U+0000 to U+001F but tab, line feed and carriage return)';

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });
const isUtf8 = (bytes: Uint8Array) => {
  try {
    fatalUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

const invalidUtf8 = new WeakSet<IncomingMessage>();

/** body-parser's `verify`: notes a body that is not UTF-8, for refuseHostileJson to answer 400. */
export function verifyUtf8(req: IncomingMessage, _res: unknown, bytes: Buffer): void {
  if (!isUtf8(bytes)) invalidUtf8.add(req);
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

/** After express.json: 400 for a body that is not UTF-8, 422 naming each field of it no route can take. */
export const refuseHostileJson: RequestHandler = (req, _res, next) => {
  if (invalidUtf8.has(req)) {
    next(new HttpError(400, 'MALFORMED_JSON', 'request body is not valid UTF-8'));
    return;
  }
  const problems = jsonProblems(req.body);
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
