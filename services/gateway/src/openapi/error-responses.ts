import type { HeadersObject, MediaTypeObject, ResponseObject, ResponsesObject, SchemaObject } from 'openapi3-ts/oas31';
import { ref } from '../http/json-schema.js';
import { LEGACY_API_KEY_CODE, TOKEN_CODES } from '../auth/authenticate.js';

export const requestIdHeader: HeadersObject = { 'x-request-id': ref('headers', 'RequestId') };

/**
 * Sent once the rate limiter has counted the request. Documented (as required) on success and 429
 * only: an API_DISABLED 403 is refused before counting and has none.
 */
export const rateLimitHeaders: HeadersObject = {
  'RateLimit-Limit': ref('headers', 'RateLimitLimit'),
  'RateLimit-Remaining': ref('headers', 'RateLimitRemaining'),
  'RateLimit-Reset': ref('headers', 'RateLimitReset'),
};

/**
 * The shared Error body; `codes` narrows `code` where the gateway alone decides the answer, so the
 * document lists every code a client can meet there.
 */
function errorBody(description: string, codes?: readonly string[]): MediaTypeObject {
  if (!codes) return { schema: ref('schemas', 'Error'), example: errorExample(0, description) };
  const narrowed: SchemaObject = { type: 'object', properties: { code: { type: 'string', enum: [...codes] } } };
  return {
    schema: { allOf: [ref('schemas', 'Error'), narrowed] },
    example: { status: false, message: messageOf(description), code: codes[0] },
  };
}

/** The code an error's description names first, e.g. "… (CUSTOMER_NOT_FOUND)". */
const CODE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/;

/** The code an answer of this status most often carries, when its description names none. */
const STATUS_CODES: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'TOKEN_EXPIRED',
  403: 'SCOPE_MISSING',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'BODY_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_FAILED',
  429: 'RATE_LIMITED',
  500: 'INTERNAL',
  503: 'SERVICE_UNAVAILABLE',
  504: 'SERVICE_TIMEOUT',
};

/** The first clause of a description, as an example message. */
const messageOf = (description: string) => {
  const clause = description.split(/[;:(]/)[0]?.trim() ?? description;
  return (clause.length > 0 ? clause : description).replace(/^./, (first) => first.toLowerCase());
};

/** An example Error body for an answer described as `description`: its first named code, else the status's. */
export function errorExample(status: number, description: string): Record<string, unknown> {
  const code = CODE.exec(description)?.[0] ?? STATUS_CODES[status] ?? 'VALIDATION_FAILED';
  return {
    status: false,
    message: messageOf(description),
    code,
    ...(code === 'VALIDATION_FAILED' ? { errors: { amount: ['must be at least 1'] } } : {}),
  };
}

/** An error answer with the shared Error body, its `code` narrowed to `codes` when given. */
export const errorResponse = (
  description: string,
  codes?: readonly string[],
  headers: HeadersObject = {},
): ResponseObject => ({
  description,
  headers: { ...requestIdHeader, ...headers },
  content: { 'application/json': errorBody(description, codes) },
});

/** components.responses: the errors shared by authenticated routes. */
export const errorResponses: Record<string, ResponseObject> = {
  MalformedRequest: errorResponse(
    'The body is not valid JSON (MALFORMED_JSON), a query parameter is not UTF-8 (BAD_REQUEST), or another precondition failed',
  ),
  // Not narrowed to BAD_REQUEST: a POST adds its Idempotency-Key's 400 to this one.
  BadQuery: errorResponse('A query parameter’s percent-encoding is not UTF-8 (BAD_REQUEST)'),
  Unauthorized: errorResponse(
    'No usable access token: missing, malformed, expired, not signed by Corridor, from the other environment, or revoked (its credentials were rotated or revoked); or the deprecated x-corridor-api-key header was sent. `code` says which.',
    [...Object.values(TOKEN_CODES), LEGACY_API_KEY_CODE],
    { 'WWW-Authenticate': ref('headers', 'WwwAuthenticate') },
  ),
  Forbidden: errorResponse(
    'The token lacks the scope this operation requires (SCOPE_MISSING, the message names it), the business no longer has API services (API_DISABLED), or, in production, the caller’s address is not on the business’s IP allow-list (IP_NOT_ALLOWED).',
  ),
  NotFound: errorResponse(
    'No such resource for this business (e.g. CUSTOMER_NOT_FOUND); a resource of another business is answered the same way.',
  ),
  BodyTooLarge: errorResponse('The body is larger than the gateway accepts', ['BODY_TOO_LARGE']),
  UnsupportedMediaType: errorResponse('The body is not application/json', ['UNSUPPORTED_MEDIA_TYPE', 'BAD_REQUEST']),
  ValidationFailed: errorResponse(
    'Validation or eligibility failed; `message` names the first problem, `errors` every field and its problems.',
  ),
  TooManyRequests: errorResponse(
    'Rate limit exceeded: by default 120 requests per minute and 1,500 per hour per business (adjustable per business), counted in fixed windows aligned to the clock. The message says which window; retry after Retry-After seconds.',
    ['RATE_LIMITED'],
    { 'Retry-After': ref('headers', 'RetryAfter'), ...rateLimitHeaders },
  ),
  InternalError: errorResponse('An unexpected error; retry, and quote x-request-id if it persists', ['INTERNAL']),
  ServiceUnavailable: errorResponse(
    'A service Corridor depends on is unavailable (SERVICE_UNAVAILABLE), or revocation and rate limits cannot be checked so no request is served (RATE_LIMITER_UNAVAILABLE); retry shortly.',
    ['SERVICE_UNAVAILABLE', 'RATE_LIMITER_UNAVAILABLE'],
    { 'Retry-After': ref('headers', 'RetryAfter') },
  ),
  // The admin listener's 503: it has no rate limiter to be away.
  DependencyUnavailable: errorResponse(
    'A service Corridor depends on is unavailable; retry shortly',
    ['SERVICE_UNAVAILABLE'],
    { 'Retry-After': ref('headers', 'RetryAfter') },
  ),
  GatewayTimeout: errorResponse('A service Corridor depends on did not answer in time; retry shortly', [
    'SERVICE_TIMEOUT',
  ]),
};

/**
 * The errors a route can answer besides its own: its listener's (`listener`: authentication,
 * policy, rate limits, dependencies away), a defect or a slow dependency; 404 when its path names a
 * resource; body errors when it reads one; and the input boundary's.
 */
export function routeErrors(
  route: { namesResource: boolean; readsBody: boolean },
  listener: ResponsesObject,
): ResponsesObject {
  const responses: ResponsesObject = {
    ...listener,
    500: ref('responses', 'InternalError'),
    504: ref('responses', 'GatewayTimeout'),
  };
  if (route.namesResource) responses[404] = ref('responses', 'NotFound');
  if (route.readsBody) {
    responses[400] = ref('responses', 'MalformedRequest');
    responses[413] = ref('responses', 'BodyTooLarge');
    responses[415] = ref('responses', 'UnsupportedMediaType');
  }
  return { ...responses, ...queryBoundaryErrors(responses) };
}

/** The errors an authenticated public route can answer: token, scope and policy, rate limits, and routeErrors'. */
export const authenticatedRouteErrors = (route: { namesResource: boolean; readsBody: boolean }) =>
  routeErrors(route, {
    401: ref('responses', 'Unauthorized'),
    403: ref('responses', 'Forbidden'),
    429: ref('responses', 'TooManyRequests'),
    503: ref('responses', 'ServiceUnavailable'),
  });

/**
 * What the input boundary answers on any route, before the route runs (http/input-boundary.ts): a
 * query that is not UTF-8 (400) or holds a control character (422). Kept where a route says more.
 */
export function queryBoundaryErrors(own: ResponsesObject = {}): ResponsesObject {
  return {
    400: own[400] ?? ref('responses', 'BadQuery'),
    422: own[422] ?? ref('responses', 'ValidationFailed'),
  };
}
