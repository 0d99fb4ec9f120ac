import type { OpenAPIObject, OperationObject, ParameterObject, ResponseObject } from 'openapi3-ts/oas31';
import { PUBLIC_ROUTES, type PublicRoute, type RouteResponse } from '../public/routes.js';
import { components } from './components.js';
import { authenticatedRouteErrors, rateLimitHeaders, requestIdHeader } from './error-responses.js';
import { withIdempotencyKey } from './idempotency.js';
import { ref } from './json-schema.js';
import { refusingControlCharacters, schemasNamedBy } from './text-boundary.js';
import { unauthenticatedPaths } from './unauthenticated-paths.js';

export interface DocumentOptions {
  tokenRequestsPerMinute: number;
}

const description = (tokenRequestsPerMinute: number) => `
The payments platform API: business customers and KYB, virtual accounts, collections, payouts, swaps and refunds.

**Authentication.** Exchange your \`client_id\` and \`client_secret\` at \`POST /oauth/token\` for an access token
with the scopes you need, then send \`Authorization: Bearer <access_token>\` on every call. There are no refresh
tokens: request a new one when \`expires_in\` runs out. Sandbox and production have separate credentials, and a
token of one is refused by the other. The legacy \`x-corridor-api-key\` header is deprecated and answered 401.

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

/** /api/external/customer/{id} names the resource {id}; each template is a required path parameter. */
const pathParameters = (path: string): ParameterObject[] =>
  [...path.matchAll(/\{([^}]+)\}/g)].map(([, name = '']) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));

/** A route's query schema (one closed object) as one parameter per property. */
const queryParameters = ({ query }: PublicRoute): ParameterObject[] =>
  Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: query?.required?.includes(name) ?? false,
    schema: refusingControlCharacters(schema),
  }));

/** Groups operations by resource: the first path segment after /api/external. */
const tagOf = (path: string) => path.replace(/^\/api\/external\//, '').split('/')[0] ?? path;

function routeResponse(status: number, { description, schema, headers }: RouteResponse): ResponseObject {
  if (status >= 400) {
    return {
      description,
      headers: requestIdHeader,
      content: { 'application/json': { schema: schema ?? ref('schemas', 'Error') } },
    };
  }
  return {
    description,
    headers: { ...requestIdHeader, ...rateLimitHeaders, ...headers },
    ...(schema ? { content: { 'application/json': { schema } } } : {}),
  };
}

function routeOperation(route: PublicRoute): OperationObject {
  const inPath = pathParameters(route.path);
  const own = Object.entries(route.responses).map(([status, response]) => [
    status,
    routeResponse(Number(status), response),
  ]);
  const operation: OperationObject = {
    operationId: route.operationId,
    summary: route.summary,
    description: route.scope
      ? `Requires the scope \`${route.scope}\`.`
      : 'Any valid access token, whatever its scopes.',
    tags: [tagOf(route.path)],
    security: [{ oauth2: route.scope ? [route.scope] : [] }],
    parameters: [
      ...inPath,
      ...queryParameters(route),
      ref('parameters', 'RequestId'),
      ref('parameters', 'LegacyApiKey'),
    ],
    ...(route.requestBody
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: refusingControlCharacters(route.requestBody) } },
          },
        }
      : {}),
    responses: {
      ...authenticatedRouteErrors({ namesResource: inPath.length > 0, readsBody: route.requestBody !== undefined }),
      ...Object.fromEntries(own),
    },
  };
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
  const paths = unauthenticatedPaths(options);
  for (const route of routes) paths[route.path] = { ...paths[route.path], [route.method]: routeOperation(route) };
  // The shared schemas a request body names (a customer's owners) are request text too.
  const schemas = { ...components.schemas };
  for (const name of schemasNamedBy(routes.map((route) => route.requestBody))) {
    const schema = schemas[name];
    if (schema && !('$ref' in schema)) schemas[name] = refusingControlCharacters(schema);
  }
  return {
    openapi: '3.1.1',
    // Relative: the document is served by the gateway it describes, sandbox or production alike.
    servers: [{ url: '/', description: 'the gateway serving this document' }],
    info: {
      title: 'Corridor API',
      // seed part 9: the API description carries version 1.0.0.
      version: '1.0.0',
      // An SPDX LicenseRef: no public licence applies (OpenAPI 3.1 license.identifier).
      license: { name: 'Proprietary: for platforms with a Corridor agreement', identifier: 'LicenseRef-Corridor' },
      description: description(options.tokenRequestsPerMinute).trim(),
    },
    tags: [
      { name: 'Authentication', description: 'Access tokens from client credentials' },
      { name: 'Operations', description: 'Probes for load balancers and orchestrators' },
      { name: 'Documentation', description: 'This document' },
    ],
    paths,
    components: { ...components, schemas },
  };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Every documented path and method: the gateway answers any other method on these paths 405. */
export function documentedOperations(options: DocumentOptions): { method: string; path: string }[] {
  return Object.entries(openApiDocument(options).paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method) => ({ method, path })),
  );
}
