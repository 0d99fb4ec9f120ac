import { isUuid } from '@corridor/validation';
import type { Request } from 'express';
import type { HttpError } from '../http/errors.js';
import { pathParam } from '../http/path-params.js';

/**
 * A resource id of the path: anything but a uuid names no resource, answered 404 as a missing one
 * (or one of another business) is, before a service is asked (payments stores spreads and lists
 * wallets under any id it is given).
 */
export function uuidOfPath(req: Request, name: string, notFound: (id: string) => HttpError): string {
  const id = pathParam(req, name);
  if (!isUuid(id)) throw notFound(id);
  return id;
}
