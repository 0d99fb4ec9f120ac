import { HttpError } from '../http/errors.js';
import type { AdminRouteContext } from '../floor/route-context.js';
import { uuidOfPath } from '../floor/path-ids.js';

export const businessNotFound = (id: string) => new HttpError(404, 'BUSINESS_NOT_FOUND', `no business ${id}`);

export const businessIdOfPath = (req: AdminRouteContext['req']) => uuidOfPath(req, 'id', businessNotFound);

/** The 404 of a route whose path names a business. */
export const NO_SUCH_BUSINESS = { description: 'No business with this id (BUSINESS_NOT_FOUND)' };
