import type { Request } from 'express';

/** A `{name}` of the route's path; the table names it, so its absence is a defect of the route. */
export function pathParam(req: Request, name: string): string {
  const value = req.params[name];
  if (typeof value !== 'string') throw new Error(`route has no path parameter ${name}`);
  return value;
}
