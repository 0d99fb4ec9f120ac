import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { HttpError } from '../http/errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Bearer ADMIN_TOKEN on every admin route, compared in constant time. */
export function requireAdminToken(adminToken: string): RequestHandler {
  const expected = digest(adminToken);
  return (req, _res, next) => {
    const header = req.get('authorization');
    if (!header) {
      next(new HttpError(401, 'ADMIN_TOKEN_MISSING', 'missing Authorization: Bearer <ADMIN_TOKEN> header'));
      return;
    }
    const match = /^Bearer (.+)$/i.exec(header);
    if (!match?.[1] || !timingSafeEqual(digest(match[1]), expected)) {
      next(new HttpError(401, 'ADMIN_TOKEN_INVALID', 'the admin bearer token is not valid'));
      return;
    }
    next();
  };
}
