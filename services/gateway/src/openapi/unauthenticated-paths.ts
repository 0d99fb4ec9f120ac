import type {
  HeadersObject,
  OperationObject,
  PathsObject,
  ReferenceObject,
  ResponseObject,
  ResponsesObject,
  SchemaObject,
} from 'openapi3-ts/oas31';
import { queryBoundaryErrors, requestIdHeader } from './error-responses.js';
import { ref } from '../http/json-schema.js';

/** An OAuthError body narrowed to the `error` values one status can carry. */
const oauthError = (...errors: string[]): SchemaObject => ({
  allOf: [ref('schemas', 'OAuthError'), { type: 'object', properties: { error: { type: 'string', enum: errors } } }],
});

const json = (schema: SchemaObject | ReferenceObject) => ({
  'application/json': { schema },
});

const tokenRequest: SchemaObject = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: { type: 'string', enum: ['client_credentials'] },
    client_id: { type: 'string', description: 'required unless sent with HTTP Basic' },
    client_secret: { type: 'string', description: 'required unless sent with HTTP Basic' },
    scope: {
      type: 'string',
      description:
        'Space-separated individual scopes assigned to the credentials, e.g. "customer:read customer:write". A bundle name, an unknown or an unassigned scope is invalid_scope. Omitted: a token without scopes, so every call that needs a scope is 403.',
    },
  },
};

const tokenResponse: SchemaObject = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in', 'scope'],
  additionalProperties: false,
  properties: {
    access_token: { type: 'string', description: 'send as Authorization: Bearer <access_token>' },
    token_type: { type: 'string', const: 'Bearer' },
    expires_in: { type: 'integer', minimum: 1, description: 'seconds; no refresh tokens: request a new one' },
    scope: { type: 'string', description: 'the granted scopes, space-separated; empty when none were requested' },
  },
};

/** Sent with every answer the token endpoint gives itself (RFC 6749 section 5.1). */
const noStore: HeadersObject = {
  'Cache-Control': {
    description: 'Tokens and their refusals are never cached',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
  ...requestIdHeader,
};

const tokenFailure = (description: string, schema: SchemaObject, headers: HeadersObject = noStore): ResponseObject => ({
  description,
  headers,
  content: json(schema),
});

/** POST /oauth/token (seed 4.1; oauth/token-endpoint.ts). */
function tokenOperation(tokenRequestsPerMinute: number): OperationObject {
  return {
    operationId: 'requestToken',
    summary: 'Exchange client credentials for an access token (client-credentials grant)',
    description: `Client authentication in the body (client_id, client_secret) or with HTTP Basic, never both. At most ${tokenRequestsPerMinute} requests per minute per client_id, failed ones included, and a per-address budget on top. Errors carry RFC 6749 \`error\`/\`error_description\` and Corridor's \`status\`/\`message\`/\`code\`.`,
    tags: ['Authentication'],
    // Either no scheme (credentials in the body) or HTTP Basic.
    security: [{}, { clientBasic: [] }],
    requestBody: {
      required: true,
      content: { 'application/x-www-form-urlencoded': { schema: tokenRequest } },
    },
    responses: {
      200: {
        description: 'An access token',
        headers: noStore,
        content: json(tokenResponse),
      },
      400: tokenFailure(
        'invalid_request (missing or repeated parameter, both client authentication methods), unsupported_grant_type, or invalid_scope (a bundle, an unknown or an unassigned scope)',
        oauthError('invalid_request', 'unsupported_grant_type', 'invalid_scope'),
      ),
      401: tokenFailure(
        'invalid_client: unknown client, wrong secret or revoked credentials, alike',
        oauthError('invalid_client'),
        { ...noStore, 'WWW-Authenticate': ref('headers', 'WwwAuthenticate') },
      ),
      403: tokenFailure(
        'unauthorized_client: the business no longer has API services, or (production) the caller’s address is not on its IP allow-list',
        oauthError('unauthorized_client'),
      ),
      413: ref('responses', 'BodyTooLarge'),
      // A query holding a control character is refused before the endpoint reads anything.
      422: ref('responses', 'ValidationFailed'),
      // 415 and 503 may also come from the common error handler: a plain Error body.
      415: tokenFailure(
        'The body is not application/x-www-form-urlencoded (or not UTF-8)',
        { anyOf: [oauthError('invalid_request'), ref('schemas', 'Error')] },
        requestIdHeader,
      ),
      429: tokenFailure(
        `More than ${tokenRequestsPerMinute} token requests this minute for this client_id, or more than the per-address budget`,
        oauthError('rate_limited'),
        { ...noStore, 'Retry-After': ref('headers', 'RetryAfter') },
      ),
      500: ref('responses', 'InternalError'),
      503: tokenFailure(
        'Token requests cannot be rate-limited right now, so none is issued (temporarily_unavailable), or identity is unavailable (SERVICE_UNAVAILABLE); retry shortly',
        { anyOf: [oauthError('temporarily_unavailable'), ref('schemas', 'Error')] },
        { ...requestIdHeader, 'Retry-After': ref('headers', 'RetryAfter') },
      ),
      504: ref('responses', 'GatewayTimeout'),
    },
  };
}

const dependencies: SchemaObject = {
  type: 'object',
  description: 'each dependency: "ok", or why it is not usable',
  additionalProperties: { type: 'string' },
};

/** An OpenAPI document, as GET …/openapi.json answers one on either listener. */
export const openApiDocumentSchema: SchemaObject = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.' },
    info: { type: 'object' },
    paths: { type: 'object' },
  },
};

const withoutToken = (
  tag: string,
  operationId: string,
  summary: string,
  responses: ResponsesObject,
): OperationObject => ({
  operationId,
  summary,
  tags: [tag],
  security: [],
  responses: { ...responses, ...queryBoundaryErrors() },
});

/** GET /healthz, answered on both listeners without any token. */
export const livenessPath = (): PathsObject => ({
  '/healthz': {
    get: withoutToken('Operations', 'liveness', 'Liveness: the gateway process answers', {
      200: {
        description: 'Alive',
        headers: requestIdHeader,
        content: json({
          type: 'object',
          required: ['status', 'message'],
          additionalProperties: false,
          properties: { status: { type: 'boolean', const: true }, message: { type: 'string', const: 'alive' } },
        }),
      },
    }),
  },
});

/** The routes that need no access token: the token endpoint, probes and this document. */
export function unauthenticatedPaths(options: { tokenRequestsPerMinute: number }): PathsObject {
  return {
    '/oauth/token': { post: tokenOperation(options.tokenRequestsPerMinute) },
    ...livenessPath(),
    '/readyz': {
      get: withoutToken('Operations', 'readiness', 'Readiness: every dependency of the gateway answers', {
        200: {
          description: 'Ready to serve',
          headers: requestIdHeader,
          content: json({
            type: 'object',
            required: ['status', 'message', 'dependencies'],
            additionalProperties: false,
            properties: {
              status: { type: 'boolean', const: true },
              message: { type: 'string', const: 'ready' },
              dependencies,
            },
          }),
        },
        503: {
          description: 'Not ready: the message names the dependencies that do not answer',
          headers: { ...requestIdHeader, 'Retry-After': ref('headers', 'RetryAfter') },
          content: json({
            type: 'object',
            required: ['status', 'message', 'code', 'dependencies'],
            additionalProperties: false,
            properties: {
              status: { type: 'boolean', const: false },
              message: { type: 'string' },
              code: { type: 'string', const: 'NOT_READY' },
              dependencies,
            },
          }),
        },
      }),
    },
    '/api/external/openapi.json': {
      get: withoutToken('Documentation', 'openApiDocument', 'This document: the public API as OpenAPI 3.1', {
        200: {
          description: 'The OpenAPI document',
          headers: requestIdHeader,
          content: json(openApiDocumentSchema),
        },
      }),
    },
  };
}
