import type { ComponentsObject, OpenAPIObject, OperationObject, PathsObject } from 'openapi3-ts/oas31';
import { assembleDocument } from '../openapi/assemble.js';
import { components } from '../openapi/components.js';
import { errorResponse, requestIdHeader, routeErrors } from '../openapi/error-responses.js';
import { ref } from '../http/json-schema.js';
import { pathParameters, routeOperation } from '../openapi/operation.js';
import { livenessPath, openApiDocumentSchema } from '../openapi/unauthenticated-paths.js';
import { businessSchemaComponents } from './businesses.js';
import { credentialSchemaComponents } from './credentials.js';
import { customerReviewSchemaComponents } from './customers.js';
import { deadLetterSchemaComponents } from './dead-letters.js';
import { memberSchemaComponents } from './members.js';
import { endpointSchemaComponents } from '../public/webhooks/endpoint-routes.js';
import { rotationSchemaComponents, webhook } from '../public/webhooks/schemas.js';
import { adminMoneySchemaComponents } from './json-schema.js';
import { ADMIN_ROUTES } from './routes.js';
import type { AdminRoute } from '../floor/route-context.js';

/** Served on the admin listener only, behind the admin token like every admin route (decision 0021). */
export const ADMIN_DOCUMENT_PATH = '/openapi.json';

const description = `
The back office: what the seed calls "the dashboard" and "an administrator". Served on the gateway's internal
admin listener (:8081), never routed from the public one; the admin CLI (\`pnpm corridor admin …\`) wraps it.

**Authentication.** \`Authorization: Bearer <ADMIN_TOKEN>\` on every operation but \`/healthz\`, this document included.
Admin calls act for no business: each names the business it concerns, and nothing here is rate limited.

**Validation.** The gateway refuses what cannot be sent to the owning service at all: a body that is not a JSON
object, an unknown field, a value of the wrong JSON type or word. Each service checks the rest (lengths, ranges,
formats, whether a currency or business exists) and its refusal is answered as is: 422 naming each field.

**Errors.** \`{"status": false, "message": "<the specific problem>", "code": "<MACHINE_CODE>"}\`, plus \`errors\`
(field → problems) for validation, as on the public API.

**Request ids.** Every response carries \`x-request-id\` (yours, if you send one).
`;

/** The tag of a path under /admin/businesses/{id}/… that concerns something else than the business. */
const CONCERNS: Readonly<Record<string, string>> = {
  credentials: 'credentials',
  members: 'members',
  spread: 'rates',
  wallets: 'wallets',
  'payout-limits': 'payouts',
};

/** Groups operations by what they concern: /admin/businesses/{id}/spread is about rates. */
function tagOf(path: string): string {
  const words = path.split('/').filter((word) => word !== '' && word !== 'admin' && !word.startsWith('{'));
  const concern = words.map((word) => CONCERNS[word]).find((tag) => tag !== undefined);
  return concern ?? words[0] ?? path;
}

const adminComponents: ComponentsObject = {
  ...components,
  schemas: {
    ...components.schemas,
    ...businessSchemaComponents,
    ...credentialSchemaComponents,
    ...customerReviewSchemaComponents,
    ...adminMoneySchemaComponents,
    ...deadLetterSchemaComponents,
    ...memberSchemaComponents,
    ...rotationSchemaComponents,
    // Decision 0068: enabling a URL answers the registration with its health.
    Webhook: webhook,
    ...endpointSchemaComponents,
  },
  responses: {
    ...components.responses,
    AdminUnauthorized: errorResponse(
      'No admin token (ADMIN_TOKEN_MISSING), or not the admin token (ADMIN_TOKEN_INVALID)',
      ['ADMIN_TOKEN_MISSING', 'ADMIN_TOKEN_INVALID'],
    ),
  },
  securitySchemes: {
    ...components.securitySchemes,
    adminToken: {
      type: 'http',
      scheme: 'bearer',
      description: 'The gateway’s ADMIN_TOKEN (configuration), sent as Authorization: Bearer <ADMIN_TOKEN>',
    },
  },
};

const ADMIN_SECURITY = [{ adminToken: [] }];

function adminOperation(route: AdminRoute): OperationObject {
  return routeOperation(route, {
    security: ADMIN_SECURITY,
    description: 'Requires the admin token.',
    tag: tagOf(route.path),
    headers: [ref('parameters', 'RequestId')],
    successHeaders: {},
    errors: routeErrors(
      { namesResource: pathParameters(route.path).length > 0, readsBody: route.requestBody !== undefined },
      { 401: ref('responses', 'AdminUnauthorized'), 503: ref('responses', 'DependencyUnavailable') },
    ),
  });
}

/** The routes outside the table: the liveness probe, and this document. */
const ownPaths = (): PathsObject => ({
  ...livenessPath(),
  [ADMIN_DOCUMENT_PATH]: {
    get: {
      operationId: 'adminOpenApiDocument',
      summary: 'This document: the admin API as OpenAPI 3.1',
      tags: ['Documentation'],
      security: ADMIN_SECURITY,
      parameters: [ref('parameters', 'RequestId')],
      responses: {
        200: {
          description: 'The OpenAPI document',
          headers: requestIdHeader,
          content: { 'application/json': { schema: openApiDocumentSchema } },
        },
        401: ref('responses', 'AdminUnauthorized'),
      },
    },
  },
});

/**
 * The OpenAPI 3.1 document of the admin API, made from ADMIN_ROUTES as the admin router is, with
 * the public document's components and error responses.
 */
export function adminOpenApiDocument(routes: readonly AdminRoute[] = ADMIN_ROUTES): OpenAPIObject {
  return assembleDocument({
    title: 'Corridor admin API',
    description,
    server: 'the admin listener serving this document',
    tags: [
      { name: 'Operations', description: 'Probes for load balancers and orchestrators' },
      { name: 'Documentation', description: 'This document' },
    ],
    paths: ownPaths(),
    routes,
    operationOf: adminOperation,
    components: adminComponents,
  });
}
