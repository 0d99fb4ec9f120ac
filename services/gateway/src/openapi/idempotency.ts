import type { OperationObject, ReferenceObject, ResponseObject, ResponsesObject } from 'openapi3-ts/oas31';
import { errorExample, errorResponses, requestIdHeader } from './error-responses.js';
import { ref } from '../http/json-schema.js';

/** What an Idempotency-Key can answer on a POST, beside the route's own reasons for the same status. */
export const IDEMPOTENCY_ANSWERS: Readonly<Record<number, string>> = {
  400: 'the Idempotency-Key header is not 1 to 255 visible ASCII characters (IDEMPOTENCY_KEY_INVALID)',
  409: 'a request with this Idempotency-Key is still being processed (IDEMPOTENCY_REQUEST_IN_FLIGHT): retry once it has finished',
  422: 'this Idempotency-Key was already used for another request to this endpoint (IDEMPOTENCY_KEY_REUSED): send a new key for a new request',
};

/** A shared response by its components name; the route's own as it is. */
function resolved(response: ResponseObject | ReferenceObject | undefined): ResponseObject | undefined {
  if (!response || !('$ref' in response)) return response;
  return errorResponses[response.$ref.split('/').pop() ?? ''];
}

/**
 * A POST as the Idempotency-Key makes it (DESIGN.md "Idempotent by construction"): the header
 * parameter, `Idempotent-Replayed` on its successes, and its 400, 409 and 422 added to the route's
 * (appended to the description where the route answers that status for reasons of its own).
 */
export function withIdempotencyKey(operation: OperationObject): OperationObject {
  const responses: ResponsesObject = {};
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const success = Number(status) < 300 ? resolved(response as ResponseObject | ReferenceObject) : undefined;
    responses[status] = success
      ? { ...success, headers: { ...success.headers, 'Idempotent-Replayed': ref('headers', 'IdempotentReplayed') } }
      : response;
  }
  for (const [status, answer] of Object.entries(IDEMPOTENCY_ANSWERS)) {
    const current = resolved(responses[status] as ResponseObject | ReferenceObject | undefined);
    responses[status] = current
      ? { ...current, description: `${current.description}; or ${answer}` }
      : {
          description: `${answer.charAt(0).toUpperCase()}${answer.slice(1)}`,
          headers: requestIdHeader,
          content: {
            'application/json': { schema: ref('schemas', 'Error'), example: errorExample(Number(status), answer) },
          },
        };
  }
  const parameters = [...(operation.parameters ?? [])];
  // After x-request-id, the other header a client sets itself.
  const requestId = parameters.findIndex((parameter) => '$ref' in parameter && parameter.$ref.endsWith('/RequestId'));
  parameters.splice(requestId + 1, 0, ref('parameters', 'IdempotencyKey'));
  return { ...operation, parameters, responses };
}
