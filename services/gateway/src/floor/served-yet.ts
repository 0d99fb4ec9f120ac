import { isUnimplemented } from '@corridor/grpc';
import { HttpError } from '../http/errors.js';

/**
 * A call to a method the service's running release does not serve yet (a rolling deploy, decision
 * 0052): 503 with Retry-After, naming what is not there, never a 500.
 */
export function servedYet<T>(call: Promise<T>, what: string): Promise<T> {
  return call.catch((error: unknown) => {
    if (!isUnimplemented(error)) throw error;
    throw new HttpError(503, 'SERVICE_UNAVAILABLE', `${what} is not served yet; retry shortly`);
  });
}
