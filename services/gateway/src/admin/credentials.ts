import { z } from '@corridor/config';
import type { Credential } from '@corridor/contracts/corridor/identity/v1/credential_pb';
import { ALL_SCOPES } from '@corridor/scopes';
import type { HeadersObject } from 'openapi3-ts/oas31';
import type { JsonSchema } from '../http/json-schema.js';
import { ref } from '../http/json-schema.js';
import { readBody } from '../http/input.js';
import { pathParam } from '../http/path-params.js';
import { CACHE_UNAVAILABLE, forgetBeforeChange, pushToCache } from './cache-push.js';
import { jsonSchemaOf } from './json-schema.js';
import { NO_SUCH_BUSINESS } from './path-ids.js';
import type { AdminRoute, AdminRouteContext } from '../floor/route-context.js';
import { isoOrNull } from '../floor/times.js';

/** Create / rotate / revoke client credentials (DESIGN.md admin API; seed part 5), served by identity. */

/** Names only: identity says which are bundles and scopes (decision 0006), 422 INVALID_SCOPE otherwise. */
const ScopeSelectionBody = z.strictObject({
  bundles: z
    .array(z.string({ message: 'must be a string' }), { message: 'must be an array of bundle names' })
    .default([])
    .meta({ description: 'bundles to grant (decision 0006), e.g. full-access, read-only, payouts' }),
  scopes: z
    .array(z.string({ message: 'must be a string' }), { message: 'must be an array of scopes' })
    .default([])
    .meta({
      description: 'individual scopes to grant beside the bundles; neither bundles nor scopes: full-access',
    }),
});

export function credentialJson(credential: Credential, clientSecret?: string) {
  return {
    client_id: credential.clientId,
    ...(clientSecret ? { client_secret: clientSecret } : {}),
    business_id: credential.businessId,
    scopes: credential.scopes,
    revoked: credential.revoked,
    created_at: isoOrNull(credential.createdAt),
    rotated_at: isoOrNull(credential.rotatedAt),
  };
}

const credentialProperties: Record<string, JsonSchema> = {
  client_id: { type: 'string', pattern: '^ci_(test|live)_[0-9a-f]{32}$' },
  business_id: { type: 'string', format: 'uuid' },
  scopes: {
    type: 'array',
    items: { type: 'string', enum: [...ALL_SCOPES] },
    description: 'the granted scopes, in the seed’s order',
  },
  revoked: { type: 'boolean' },
  created_at: { type: ['string', 'null'], format: 'date-time' },
  rotated_at: { type: ['string', 'null'], format: 'date-time', description: 'null until first rotated' },
};

const credentialSchema = (description: string, secret?: JsonSchema): JsonSchema => ({
  type: 'object',
  description,
  required: [...Object.keys(credentialProperties), ...(secret ? ['client_secret'] : [])],
  additionalProperties: false,
  properties: { ...credentialProperties, ...(secret ? { client_secret: secret } : {}) },
});

/** components.schemas of the credential routes. */
export const credentialSchemaComponents: Record<string, JsonSchema> = {
  AdminCredential: credentialSchema('Client credentials; the secret is never shown again'),
  IssuedCredential: credentialSchema('Client credentials with their new secret, shown this once', {
    type: 'string',
    pattern: '^cs_(test|live)_[A-Za-z0-9_-]+$',
    description: 'at least 256 random bits; only its keyed hash is stored',
  }),
};

const schema = (name: string): JsonSchema => ({ $ref: ref('schemas', name).$ref });

export const noStore: HeadersObject = {
  'Cache-Control': {
    description: 'A secret is never cached',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
};

const present = (answer: { credential?: Credential }): Credential => {
  if (!answer.credential) throw new Error('identity returned no credential');
  return answer.credential;
};

async function createCredential({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const body = readBody(ScopeSelectionBody, req.body);
  const { credential, clientSecret } = await clients.identity.createCredential(
    { businessId: pathParam(req, 'id'), bundles: body.bundles, scopes: body.scopes },
    call,
  );
  const created = present({ credential });
  res.status(201).setHeader('Cache-Control', 'no-store').json(credentialJson(created, clientSecret));
}

/** The business a credential belongs to: its cached generation is kept under that business's keys. */
async function businessOf({ clients, call }: AdminRouteContext, clientId: string): Promise<string> {
  return present(await clients.identity.getCredential({ clientId }, call)).businessId;
}

async function rotateCredential(context: AdminRouteContext): Promise<void> {
  const { req, res, clients, guard, logger, call } = context;
  const clientId = pathParam(req, 'clientId');
  const body = readBody(ScopeSelectionBody, req.body);
  const businessId = await businessOf(context, clientId);
  await forgetBeforeChange(() => guard.forgetCredential(businessId, clientId));
  const { credential, clientSecret } = await clients.identity.rotateCredential(
    { clientId, bundles: body.bundles, scopes: body.scopes },
    call,
  );
  const rotated = present({ credential });
  // Tokens of the previous generation fail on every replica from the next request on.
  await pushToCache(logger, () => guard.storeCredential(rotated));
  res.setHeader('Cache-Control', 'no-store').json(credentialJson(rotated, clientSecret));
}

async function revokeCredential(context: AdminRouteContext): Promise<void> {
  const { req, res, clients, guard, logger, call } = context;
  const clientId = pathParam(req, 'clientId');
  const businessId = await businessOf(context, clientId);
  await forgetBeforeChange(() => guard.forgetCredential(businessId, clientId));
  const revoked = present(await clients.identity.revokeCredential({ clientId }, call));
  await pushToCache(logger, () => guard.storeCredential(revoked));
  res.json(credentialJson(revoked));
}

async function getCredential({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  res.json(
    credentialJson(present(await clients.identity.getCredential({ clientId: pathParam(req, 'clientId') }, call))),
  );
}

const CREDENTIAL_NOT_FOUND = { description: 'No credentials with this client_id (CREDENTIAL_NOT_FOUND)' };
const SCOPE_REFUSED = {
  description:
    'bundles or scopes is not an array of strings, or another field is sent (VALIDATION_FAILED); or identity refuses a name: an unknown bundle or scope, a scope listed as a bundle or the reverse (INVALID_SCOPE, `errors` names the list)',
};
const PATH = '/admin/credentials/{clientId}';

export const CREDENTIAL_ROUTES: readonly AdminRoute[] = [
  {
    method: 'post',
    path: '/admin/businesses/{id}/credentials',
    operationId: 'createCredential',
    summary: 'Create client credentials for a business; the secret is shown in this answer only',
    requestBody: jsonSchemaOf(ScopeSelectionBody, 'input'),
    requestBodyRequired: false,
    responses: {
      201: { description: 'The credentials and their secret', schema: schema('IssuedCredential'), headers: noStore },
      404: NO_SUCH_BUSINESS,
      422: SCOPE_REFUSED,
    },
    handle: createCredential,
  },
  {
    method: 'get',
    path: PATH,
    operationId: 'getCredential',
    summary: 'Read client credentials: their business, scopes and whether they are revoked (never the secret)',
    responses: {
      200: { description: 'The credentials', schema: schema('AdminCredential') },
      404: CREDENTIAL_NOT_FOUND,
    },
    handle: getCredential,
  },
  {
    method: 'post',
    path: `${PATH}/rotate`,
    operationId: 'rotateCredential',
    summary:
      'Rotate client credentials (seed 5 rule 1): a new secret, optionally a new scope set; the old secret and every token from it stop working at once on every gateway',
    requestBody: jsonSchemaOf(ScopeSelectionBody, 'input'),
    requestBodyRequired: false,
    responses: {
      200: {
        description: 'The credentials and their new secret',
        schema: schema('IssuedCredential'),
        headers: noStore,
      },
      400: {
        description:
          'The body is not valid JSON (MALFORMED_JSON), or the credentials are revoked and cannot be rotated (CREDENTIAL_REVOKED)',
      },
      404: CREDENTIAL_NOT_FOUND,
      422: SCOPE_REFUSED,
      503: CACHE_UNAVAILABLE,
    },
    handle: rotateCredential,
  },
  {
    method: 'delete',
    path: PATH,
    operationId: 'revokeCredential',
    summary: 'Revoke client credentials: the secret and every token from it stop working at once on every gateway',
    responses: {
      200: { description: 'The revoked credentials', schema: schema('AdminCredential') },
      404: CREDENTIAL_NOT_FOUND,
      503: CACHE_UNAVAILABLE,
    },
    handle: revokeCredential,
  },
];
