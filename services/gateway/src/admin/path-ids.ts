import { isUuid } from '@corridor/validation';
import { HttpError } from '../http/errors.js';
import { pathParam } from '../http/path-params.js';
import type { AdminRouteContext } from './routes.js';

/**
 * A resource id of the path: anything but a uuid names no resource, answered 404 as a missing one
 * is, before a service is asked (payments stores spreads and lists wallets under any id it is given).
 */
export function uuidOfPath(req: AdminRouteContext['req'], name: string, notFound: (id: string) => HttpError): string {
  const id = pathParam(req, name);
  if (!isUuid(id)) throw notFound(id);
  return id;
}

export const businessNotFound = (id: string) => new HttpError(404, 'BUSINESS_NOT_FOUND', `no business ${id}`);

export const businessIdOfPath = (req: AdminRouteContext['req']) => uuidOfPath(req, 'id', businessNotFound);

/** The 404 of a route whose path names a business. */
export const NO_SUCH_BUSINESS = { description: 'No business with this id (BUSINESS_NOT_FOUND)' };
