import { z } from '@corridor/config';
import type { Business } from '@corridor/contracts/corridor/identity/v1/business_pb';
import type { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import type { ClientOf } from '@corridor/grpc';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { Router } from 'express';
import { parseBody } from '../http/common.js';

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

/** The admin API's view of a business (DESIGN.md). */
export function businessJson(business: Business) {
  return {
    id: business.id,
    name: business.name,
    api_enabled: business.apiEnabled,
    kyb_minimal_allowed: business.kybMinimalAllowed,
    ip_allowlist: business.ipAllowlist,
    rate_limits: { per_minute: business.rateLimits?.perMinute ?? 0, per_hour: business.rateLimits?.perHour ?? 0 },
    created_at: business.createdAt ? timestampDate(business.createdAt).toISOString() : null,
  };
}

export function businessesRouter(identity: IdentityClient): Router {
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
  return router;
}
