import type { OpenAPIObject, OperationObject } from 'openapi3-ts/oas31';
import { PUBLIC_ROUTES } from '../public/routes.js';
import type { PublicRoute } from '../floor/route-context.js';
import { assembleDocument, documentedOperations } from './assemble.js';
import { components } from './components.js';
import { authenticatedRouteErrors, rateLimitHeaders } from './error-responses.js';
import { withExamples } from '../floor/examples.js';
import { withIdempotencyKey } from './idempotency.js';
import { ref } from '../http/json-schema.js';
import { pathParameters, routeOperation } from './operation.js';
import { unauthenticatedPaths } from './unauthenticated-paths.js';

export interface DocumentOptions {
  tokenRequestsPerMinute: number;
}

const description = (tokenRequestsPerMinute: number) => `
The payments platform API: business customers and KYB, virtual accounts, collections, payouts, swaps and refunds.

**Authentication.** Exchange your \`client_id\` and \`client_secret\` at \`POST /oauth/token\` for an access token
with the scopes you need, then send \`Authorization: Bearer <access_token>\` on every call. There are no refresh
tokens: request a new one when \`expires_in\` runs out. Sandbox and production have separate credentials, and a
token of one is refused by the other.

**The legacy \`x-corridor-api-key\` header** is deprecated and no longer accepted: a request that sends it without a
bearer token is answered 401 \`LEGACY_API_KEY_DEPRECATED\`. Exchange your credentials for an access token instead.

**Scopes.** Each operation names the scope it requires. Request individual scopes; bundles are only for creating
or rotating credentials.

**Rate limits.** Per business: 120 requests per minute and 1,500 per hour by default, adjustable per business,
counted in fixed windows aligned to the clock. Every authenticated response carries \`RateLimit-Limit\`,
\`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds) for the tighter window; a 429 adds \`Retry-After\`.
Token requests: ${tokenRequestsPerMinute} per minute per \`client_id\`.

**Errors.** \`{"status": false, "message": "<the specific problem>", "code": "<MACHINE_CODE>"}\`, plus
\`errors\` (field → problems) for validation. The token endpoint adds RFC 6749 \`error\` and \`error_description\`.

**Idempotency.** Every POST accepts an \`Idempotency-Key\` header (1 to 255 visible ASCII characters, e.g. a UUID),
so a retry after a timeout or a dropped connection is safe: the same key with the same request (path and body) answers
the stored response again, with \`Idempotent-Replayed: true\`, and does nothing twice; the same key with another
request is 422 \`IDEMPOTENCY_KEY_REUSED\`; while the first is still running, 409 \`IDEMPOTENCY_REQUEST_IN_FLIGHT\`.
Keys are per business and endpoint, kept at least 24 hours; a request that failed stores nothing.

**Request ids.** Every response carries \`x-request-id\` (yours, if you send one); quote it to support.
`;

/** Groups operations by resource: the first path segment after /api/external. */
const tagOf = (path: string) => path.replace(/^\/api\/external\//, '').split('/')[0] ?? path;

function publicOperation(route: PublicRoute): OperationObject {
  const operation = routeOperation(route, {
    security: [{ oauth2: route.scope ? [route.scope] : [] }],
    description: route.scope
      ? `Requires the scope \`${route.scope}\`.`
      : 'Any valid access token, whatever its scopes.',
    tag: tagOf(route.path),
    // The deprecated x-corridor-api-key is described once, in the description and the 401.
    headers: [ref('parameters', 'RequestId')],
    successHeaders: rateLimitHeaders,
    schemas: components.schemas ?? {},
    errors: authenticatedRouteErrors({
      namesResource: pathParameters(route.path).length > 0,
      readsBody: route.requestBody !== undefined,
    }),
  });
  return route.method === 'post' ? withIdempotencyKey(operation) : operation;
}

/**
 * The OpenAPI 3.1 document of the public API: every route of PUBLIC_ROUTES with its scope and
 * schemas, plus the routes that need no token. Built from the same table the router mounts.
 */
export function openApiDocument(
  options: DocumentOptions,
  routes: readonly PublicRoute[] = PUBLIC_ROUTES,
): OpenAPIObject {
  return assembleDocument({
    title: 'Corridor API',
    description: description(options.tokenRequestsPerMinute),
    server: 'the gateway serving this document',
    tags: [
      { name: 'Authentication', description: 'Access tokens from client credentials' },
      { name: 'Operations', description: 'Probes for load balancers and orchestrators' },
      { name: 'Documentation', description: 'This document' },
    ],
    paths: withExamples(unauthenticatedPaths(options), components.schemas ?? {}),
    routes,
    operationOf: publicOperation,
    components,
  });
}

/** Every documented path and method of the public API: any other method on these paths is 405. */
export const publicOperations = (options: DocumentOptions) => documentedOperations(openApiDocument(options));
