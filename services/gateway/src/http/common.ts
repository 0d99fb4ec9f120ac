import { randomUUID } from 'node:crypto';
import express, { type RequestHandler } from 'express';
import type { z } from '@corridor/config';
import type { FieldErrors } from '@corridor/grpc';
import { HttpError } from './errors.js';
import { inspectRawBody, markInexactNumbers, refuseHostileJson } from './input-boundary.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Every response carries x-request-id: the caller's when it is sane, else a new one. */
export const requestId: RequestHandler = (req, res, next) => {
  const given = req.get('x-request-id');
  const id = given && REQUEST_ID.test(given) ? given : randomUUID();
  res.locals.requestId = id;
  res.setHeader('x-request-id', id);
  next();
};

/**
 * JSON bodies only: a body with another content type is 415, a bad one (or one not UTF-8) 400, a
 * huge one 413, and one holding what no route can take (control characters, deep nesting, a repeated
 * key, a number that would not read back as sent) 422.
 */
export function jsonBody(limit: string): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
    if (hasBody && !req.is('application/json')) {
      next(
        new HttpError(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          `content type ${req.get('content-type') ?? '(none)'} is not supported; send application/json`,
        ),
      );
      return;
    }
    next();
  };
  return [
    requireJson,
    express.json({ limit, strict: true, verify: inspectRawBody, reviver: markInexactNumbers }),
    refuseHostileJson,
  ];
}

/** zod issues as the public `errors` map: field path → problems. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  // No prototype: a platform's key "__proto__" is a field like any other, not Object.prototype.
  const errors: FieldErrors = Object.create(null) as FieldErrors;
  for (const issue of error.issues) {
    const unknownKeys = issue.code === 'unrecognized_keys' ? issue.keys : undefined;
    if (unknownKeys) {
      for (const key of unknownKeys) (errors[[...issue.path, key].join('.')] ??= []).push('is not a recognised field');
      continue;
    }
    const path = issue.path.length > 0 ? issue.path.join('.') : '(body)';
    (errors[path] ??= []).push(issue.message);
  }
  return errors;
}

/** Parses a request body against a schema; a mismatch is 422 naming each field and problem. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const errors = fieldErrorsOf(result.error);
  const [field, problems] = Object.entries(errors)[0] ?? ['(body)', ['is invalid']];
  throw new HttpError(422, 'VALIDATION_FAILED', `${field} ${problems[0] ?? 'is invalid'}`, errors);
}
