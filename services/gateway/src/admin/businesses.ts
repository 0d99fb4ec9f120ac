import { z } from '@corridor/config';
import type { Business } from '@corridor/contracts/corridor/identity/v1/business_pb';
import type { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import type { ClientOf } from '@corridor/grpc';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { Router } from 'express';
import type { Logger } from '@corridor/logging';
import type { AccessGuard } from '../auth/access-guard.js';
import { parseBody } from '../http/common.js';
import { forgetBeforeChange, pushToCache } from './cache-push.js';

type IdentityClient = ClientOf<typeof IdentityService>;

const CreateBusinessBody = z.strictObject({
  name: z
    .string({ message: 'is required and must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters'),
  api_enabled: z.boolean({ message: 'must be a boolean' }).optional(),
  kyb_minimal_allowed: z.boolean({ message: 'must be a boolean' }).optional(),
});

const UpdateBusinessBody = z
  .strictObject({
    api_enabled: z.boolean({ message: 'must be a boolean' }).optional(),
    kyb_minimal_allowed: z.boolean({ message: 'must be a boolean' }).optional(),
    ip_allowlist: z
      .array(z.string({ message: 'must be a string' }), { message: 'must be an array of addresses or CIDRs' })
      .optional(),
    rate_limits: z
      .strictObject({
        per_minute: z.number({ message: 'must be a number' }).int('must be a whole number'),
        per_hour: z.number({ message: 'must be a number' }).int('must be a whole number'),
      })
      .optional(),
  })
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
    created_at: business.createdAt ? timestampDate(business.createdAt).toISOString() : null,
  };
}

export function businessesRouter(identity: IdentityClient, guard: AccessGuard, logger: Logger): Router {
  const router = Router();
  router.post('/admin/businesses', async (req, res) => {
    const body = parseBody(CreateBusinessBody, req.body);
    const { business } = await identity.createBusiness(
      { name: body.name, apiEnabled: body.api_enabled, kybMinimalAllowed: body.kyb_minimal_allowed },
      { metadata: res.locals.grpcMetadata },
    );
    if (!business) throw new Error('identity returned no business');
    res.status(201).location(`/admin/businesses/${business.id}`).json(businessJson(business));
  });
  router.get('/admin/businesses/:id', async (req, res) => {
    const { business } = await identity.getBusiness({ id: req.params.id }, { metadata: res.locals.grpcMetadata });
    if (!business) throw new Error('identity returned no business');
    res.json(businessJson(business));
  });
  router.patch('/admin/businesses/:id', async (req, res) => {
    const body = parseBody(UpdateBusinessBody, req.body);
    await forgetBeforeChange(() => guard.forgetBusiness(req.params.id));
    const { business } = await identity.updateBusiness(
      {
        id: req.params.id,
        apiEnabled: body.api_enabled,
        kybMinimalAllowed: body.kyb_minimal_allowed,
        ipAllowlist: body.ip_allowlist ? { entries: body.ip_allowlist } : undefined,
        rateLimits: body.rate_limits
          ? { perMinute: body.rate_limits.per_minute, perHour: body.rate_limits.per_hour }
          : undefined,
      },
      { metadata: res.locals.grpcMetadata },
    );
    if (!business) throw new Error('identity returned no business');
    // Every gateway replica reads the same cache: the change applies to the next request anywhere.
    await pushToCache(logger, () => guard.storeBusiness(business));
    res.json(businessJson(business));
  });
  return router;
}
