import { randomUUID } from 'node:crypto';
import express, { type RequestHandler } from 'express';
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
