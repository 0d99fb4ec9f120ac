import type { z } from '@corridor/config';
import { BODY_PATH, FieldProblems, firstProblemMessage, isJsonObject, NOT_RECOGNISED } from '@corridor/validation';
import { HttpError } from './errors.js';

/**
 * Input conversion at the edge: a body or query becomes the typed request, or the gateway answers
 * 422 VALIDATION_FAILED naming every problem by field. Problems are collected in a FieldProblems
 * (a Map), so a field called `__proto__` or `constructor` is just a name.
 */

function refuse(problems: FieldProblems): never {
  const { errors } = problems;
  throw new HttpError(422, 'VALIDATION_FAILED', firstProblemMessage(errors), errors);
}

function collect(error: z.ZodError, problems: FieldProblems, unknownProblem: string): void {
  for (const issue of error.issues) {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.add([...path, key].join('.'), unknownProblem);
      continue;
    }
    problems.add(path.length > 0 ? path.join('.') : BODY_PATH, issue.message);
  }
}

/**
 * A body that must be sent, as one JSON object. No body at all is 422: read as {}, a change of
 * nothing would answer 200 for a request that lost its body (issue 18).
 */
export function requiredJsonObject(body: unknown): Record<string, unknown> {
  if (body === undefined) {
    throw new HttpError(422, 'VALIDATION_FAILED', 'the request body is required: send a JSON object', {
      [BODY_PATH]: ['is required: send a JSON object'],
    });
  }
  if (!isJsonObject(body)) {
    throw new HttpError(422, 'VALIDATION_FAILED', 'the request body must be a JSON object', {
      [BODY_PATH]: ['must be a JSON object'],
    });
  }
  return body;
}

/** A JSON body against its schema; no body at all reads as {}, so each required field is named. */
export function readBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const problems = new FieldProblems();
  if (body !== undefined && !isJsonObject(body)) {
    problems.add(BODY_PATH, 'must be a JSON object');
    refuse(problems);
  }
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  collect(result.error, problems, NOT_RECOGNISED);
  refuse(problems);
}

/**
 * A query against its schema, each parameter given at most once: an unknown or repeated one is a
 * problem naming it, so a typo (`per-page=`) never silently lists everything.
 */
export function readQuery<S extends z.ZodObject>(schema: S, params: URLSearchParams): z.output<S> {
  const allowed = Object.keys(schema.shape);
  const problems = new FieldProblems();
  const values = new Map<string, string>();
  for (const [name, value] of params) {
    if (values.has(name)) problems.add(name, 'must be given once');
    values.set(name, value);
  }
  const unknown =
    allowed.length > 0
      ? `is not a recognised query parameter; use ${allowed.join(', ')}`
      : 'is not a recognised query parameter; this endpoint takes none';
  const result = schema.safeParse(Object.fromEntries(values));
  if (!result.success) collect(result.error, problems, unknown);
  if (!problems.isEmpty || !result.success) refuse(problems);
  return result.data;
}
