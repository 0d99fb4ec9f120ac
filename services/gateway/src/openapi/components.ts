import { SCOPES } from '@corridor/scopes';
import type {
  ComponentsObject,
  HeaderObject,
  ParameterObject,
  SchemaObject,
  SecuritySchemeObject,
} from 'openapi3-ts/oas31';
import { customerSchemaComponents } from '../public/customers/index.js';
import { kycSessionSchemaComponents } from '../public/kyc-sessions/index.js';
import { paymentSchemaComponents } from '../public/payments/index.js';
import { webhookSchemaComponents } from '../public/webhooks/index.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../public/idempotency-key.js';
import { errorResponses } from './error-responses.js';

/** The error body of every error the gateway answers (http/errors.ts ErrorBody, DESIGN.md). */
const error: SchemaObject = {
  type: 'object',
  required: ['status', 'message', 'code'],
  additionalProperties: false,
  properties: {
    status: { type: 'boolean', const: false },
    message: { type: 'string', description: 'the specific problem, in words' },
    code: { type: 'string', description: 'the problem as a stable machine code, e.g. TOKEN_EXPIRED' },
    errors: {
      type: 'object',
      description: 'validation failures only: field path → its problems',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
};

/** The token endpoint's errors carry RFC 6749 section 5.2 fields as well (decision 0007). */
const oauthError: SchemaObject = {
  type: 'object',
  required: ['error', 'error_description', 'status', 'message', 'code'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'string',
      enum: [
        'invalid_request',
        'invalid_client',
        'unauthorized_client',
        'unsupported_grant_type',
        'invalid_scope',
        'rate_limited',
        'temporarily_unavailable',
      ],
    },
    error_description: { type: 'string' },
    status: { type: 'boolean', const: false },
    message: { type: 'string', description: 'the same text as error_description' },
    code: { type: 'string', description: 'error in upper case, e.g. INVALID_SCOPE' },
  },
};

const count: SchemaObject = { type: 'integer', minimum: 0 };

const headers: Record<string, HeaderObject> = {
  RequestId: {
    description: 'Identifies this request in Corridor’s logs and traces: the x-request-id you sent, or a new one',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  RateLimitLimit: {
    description: 'Requests allowed in the tighter of the two windows (per minute, per hour) for this business',
    required: true,
    schema: count,
  },
  RateLimitRemaining: {
    description: 'Requests left in that window after this one',
    required: true,
    schema: count,
  },
  RateLimitReset: { description: 'Seconds until that window starts afresh', required: true, schema: count },
  RetryAfter: { description: 'Seconds to wait before retrying', required: true, schema: count },
  IdempotentReplayed: {
    description:
      'Present, true, when this is the stored answer to an earlier request with the same Idempotency-Key: nothing was done again',
    schema: { type: 'string', enum: ['true'] },
  },
  WwwAuthenticate: {
    description: 'The scheme to authenticate with and, for a bad token, error="invalid_token" (RFC 6750)',
    schema: { type: 'string' },
  },
};

const parameters: Record<string, ParameterObject> = {
  // Any value is taken (http/common.ts requestId): one that is not an id is replaced, never refused.
  RequestId: {
    name: 'x-request-id',
    in: 'header',
    description:
      'Your id for this request, echoed in the response when it is 1 to 128 letters, digits and ._:- (any other value is replaced by a new id)',
    schema: { type: 'string' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    description:
      'Your unique key for this request (1 to 255 visible ASCII characters, e.g. a UUID), so a retry is safe: the same key with the same request answers the stored response again (with Idempotent-Replayed: true) and does nothing twice; with another request to this endpoint it is 422 IDEMPOTENCY_KEY_REUSED; while the first is still running, 409 IDEMPOTENCY_REQUEST_IN_FLIGHT. Keys are per business and endpoint, kept at least 24 hours; a request that failed stores nothing, so its key can be retried.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN },
  },
};

const securitySchemes: Record<string, SecuritySchemeObject> = {
  oauth2: {
    type: 'oauth2',
    description:
      'Exchange client_id and client_secret at POST /oauth/token for an access token carrying the scopes you request, then send Authorization: Bearer <access_token>. Each operation names the scope it requires.',
    flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: { ...SCOPES } } },
  },
  clientBasic: {
    type: 'http',
    scheme: 'basic',
    description:
      'POST /oauth/token only: client_id and client_secret as HTTP Basic credentials (RFC 6749 section 2.3.1), instead of in the body',
  },
};

/** The shared parts every operation refers to with ref(section, name). */
export const components: ComponentsObject = {
  schemas: {
    Error: error,
    OAuthError: oauthError,
    ...customerSchemaComponents,
    ...kycSessionSchemaComponents,
    ...webhookSchemaComponents,
    ...paymentSchemaComponents,
  },
  headers,
  parameters,
  responses: errorResponses,
  securitySchemes,
};
