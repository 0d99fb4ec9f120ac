import type { JsonObject } from '@bufbuild/protobuf';
import { HttpError } from '../http/errors.js';

/**
 * A request body as the `google.protobuf.Struct` a service reads (decision 0008; customer-kyb):
 * the JSON object exactly as sent, nulls included, so "null writes null, omitted is untouched"
 * (seed 2.1 rule 2) survives the hop. The gateway checks only that there is one and that it is an
 * object; the service checks the rest. The webhook routes check this first too, then the body's
 * shape (decision 0026). No body at all is 422: read as {}, a change of nothing would answer 200
 * for a request that lost its body (issue 18).
 */
export function structOfBody(body: unknown): JsonObject {
  if (body === undefined) {
    throw new HttpError(422, 'VALIDATION_FAILED', 'the request body is required: send a JSON object', {
      '(body)': ['is required: send a JSON object'],
    });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(422, 'VALIDATION_FAILED', 'the request body must be a JSON object', {
      '(body)': ['must be a JSON object'],
    });
  }
  return body as JsonObject;
}
