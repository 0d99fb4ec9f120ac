import { z } from '@corridor/config';
import type { Business } from '@corridor/contracts/corridor/identity/v1/business_pb';
import type { JsonSchema } from '../http/json-schema.js';
import { ref } from '../http/json-schema.js';
import { readBody } from '../http/input.js';
import { pathParam } from '../http/path-params.js';
import { CACHE_UNAVAILABLE, forgetBeforeChange, pushToCache } from './cache-push.js';
import { uint32 } from './fields.js';
import { NO_SUCH_BUSINESS } from './path-ids.js';
import { jsonSchemaOf } from './json-schema.js';
import type { AdminRoute, AdminRouteContext } from '../floor/route-context.js';
import { isoOrNull } from '../floor/times.js';

/** Platform businesses (DESIGN.md admin API), served by identity; identity checks every value. */

const flag = (description: string) => z.boolean({ message: 'must be a boolean' }).meta({ description });

const CreateBusinessBody = z.strictObject({
  name: z.string({ message: 'is required and must be a string' }).meta({
    minLength: 1,
    maxLength: 200,
    description: 'the business’s name; identity trims it and refuses it empty or longer than 200 characters',
  }),
  api_enabled: flag('whether its credentials may call the API; default true').optional(),
  kyb_minimal_allowed: flag('whether it may create MINIMAL KYB business customers; default false').optional(),
});

const rateLimit = (window: string) =>
  uint32('a whole number of requests').meta({ description: `requests per ${window}` });

const UpdateBusinessBody = z
  .strictObject({
    api_enabled: flag('whether its credentials may call the API').optional(),
    kyb_minimal_allowed: flag('whether it may create MINIMAL KYB business customers').optional(),
    ip_allowlist: z
      .array(z.string({ message: 'must be a string' }), { message: 'must be an array of addresses or CIDRs' })
      .meta({
        maxItems: 100,
        description:
          'replaces the whole list: IPv4 or IPv6 addresses or CIDRs (identity checks each, at most 100); empty allows every address (enforced in production)',
      })
      .optional(),
    rate_limits: z
      .strictObject({ per_minute: rateLimit('minute'), per_hour: rateLimit('hour') })
      .meta({
        description:
          'replaces both limits: identity takes per_minute from 1 to 100000 and per_hour from per_minute to 6000000',
      })
      .optional(),
  })
  // identity takes an empty change as a no-op; the gateway says it changes nothing instead.
  .refine((body) => Object.keys(body).length > 0, {
    message: 'send at least one of api_enabled, kyb_minimal_allowed, ip_allowlist, rate_limits',
  });

/** The admin API's view of a business (DESIGN.md). */
export function businessJson(business: Business) {
  return {
    id: business.id,
    name: business.name,
    api_enabled: business.apiEnabled,
    kyb_minimal_allowed: business.kybMinimalAllowed,
    ip_allowlist: business.ipAllowlist,
    rate_limits: { per_minute: business.rateLimits?.perMinute ?? 0, per_hour: business.rateLimits?.perHour ?? 0 },
    environment: business.environment,
    created_at: isoOrNull(business.createdAt),
  };
}

const count: JsonSchema = { type: 'integer', minimum: 0 };

/** components.schemas of the business routes. */
export const businessSchemaComponents: Record<string, JsonSchema> = {
  AdminBusiness: {
    type: 'object',
    description: 'A platform business: the tenant that owns credentials, customers and money',
    required: [
      'id',
      'name',
      'api_enabled',
      'kyb_minimal_allowed',
      'ip_allowlist',
      'rate_limits',
      'environment',
      'created_at',
    ],
    additionalProperties: false,
    properties: {
      id: { type: 'string', format: 'uuid' },
      name: { type: 'string' },
      api_enabled: { type: 'boolean' },
      kyb_minimal_allowed: { type: 'boolean' },
      ip_allowlist: { type: 'array', items: { type: 'string' }, description: 'empty: every address' },
      rate_limits: {
        type: 'object',
        required: ['per_minute', 'per_hour'],
        additionalProperties: false,
        properties: { per_minute: count, per_hour: count },
      },
      environment: { type: 'string', enum: ['sandbox', 'production'] },
      created_at: { type: ['string', 'null'], format: 'date-time' },
    },
  },
};

const business: JsonSchema = { $ref: ref('schemas', 'AdminBusiness').$ref };

const present = (answer: { business?: Business }): Business => {
  if (!answer.business) throw new Error('identity returned no business');
  return answer.business;
};

async function createBusiness({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const body = readBody(CreateBusinessBody, req.body);
  const created = present(
    await clients.identity.createBusiness(
      { name: body.name, apiEnabled: body.api_enabled, kybMinimalAllowed: body.kyb_minimal_allowed },
      call,
    ),
  );
  res.status(201).location(`/admin/businesses/${created.id}`).json(businessJson(created));
}

async function getBusiness({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  res.json(businessJson(present(await clients.identity.getBusiness({ id: pathParam(req, 'id') }, call))));
}

async function updateBusiness({ req, res, clients, guard, logger, call }: AdminRouteContext): Promise<void> {
  const id = pathParam(req, 'id');
  const body = readBody(UpdateBusinessBody, req.body);
  await forgetBeforeChange(() => guard.forgetBusiness(id));
  const updated = present(
    await clients.identity.updateBusiness(
      {
        id,
        apiEnabled: body.api_enabled,
        kybMinimalAllowed: body.kyb_minimal_allowed,
        ipAllowlist: body.ip_allowlist ? { entries: body.ip_allowlist } : undefined,
        rateLimits: body.rate_limits
          ? { perMinute: body.rate_limits.per_minute, perHour: body.rate_limits.per_hour }
          : undefined,
      },
      call,
    ),
  );
  // Every gateway replica reads the same cache: the change applies to the next request anywhere.
  await pushToCache(logger, () => guard.storeBusiness(updated));
  res.json(businessJson(updated));
}

const PATH = '/admin/businesses';

export const BUSINESS_ROUTES: readonly AdminRoute[] = [
  {
    method: 'post',
    path: PATH,
    operationId: 'createBusiness',
    summary: 'Create a platform business; business.created goes out with it',
    requestBody: jsonSchemaOf(CreateBusinessBody, 'input'),
    responses: {
      201: {
        description: 'The business, at the Location given',
        schema: business,
        headers: { Location: { description: 'The business’s path', required: true, schema: { type: 'string' } } },
      },
      422: {
        description:
          'A field is missing, of the wrong JSON type or unknown (VALIDATION_FAILED, `errors` names each), or identity refuses the name: empty once trimmed, or over 200 characters',
      },
    },
    handle: createBusiness,
  },
  {
    method: 'get',
    path: `${PATH}/{id}`,
    operationId: 'getBusiness',
    summary: 'Read a business: its flags, IP allow-list and rate limits',
    responses: { 200: { description: 'The business', schema: business }, 404: NO_SUCH_BUSINESS },
    handle: getBusiness,
  },
  {
    method: 'patch',
    path: `${PATH}/{id}`,
    operationId: 'updateBusiness',
    summary:
      'Change a business’s flags, IP allow-list or rate limits; every gateway applies the change from its next request',
    requestBody: jsonSchemaOf(UpdateBusinessBody, 'input'),
    responses: {
      200: { description: 'The business as changed', schema: business },
      404: NO_SUCH_BUSINESS,
      422: {
        description:
          'No field, an unknown one, or one of the wrong JSON type (VALIDATION_FAILED, `errors` names each); or identity refuses a value: an allow-list entry that is no address or CIDR, more than 100 entries, a rate limit out of range',
      },
      503: CACHE_UNAVAILABLE,
    },
    handle: updateBusiness,
  },
];
