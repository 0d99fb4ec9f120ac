import { timestampDate } from '@bufbuild/protobuf/wkt';
import { z } from '@corridor/config';
import type { Credential } from '@corridor/contracts/corridor/identity/v1/credential_pb';
import type { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import type { ClientOf } from '@corridor/grpc';
import type { Logger } from '@corridor/logging';
import { Router, type Response } from 'express';
import type { AccessGuard } from '../auth/access-guard.js';
import { parseBody } from '../http/common.js';
import { forgetBeforeChange, pushToCache } from './cache-push.js';

const ScopeSelectionBody = z.strictObject({
  bundles: z
    .array(z.string({ message: 'must be a string' }), { message: 'must be an array of bundle names' })
    .default([]),
  scopes: z.array(z.string({ message: 'must be a string' }), { message: 'must be an array of scopes' }).default([]),
});

export function credentialJson(credential: Credential, clientSecret?: string) {
  return {
    client_id: credential.clientId,
    ...(clientSecret ? { client_secret: clientSecret } : {}),
    business_id: credential.businessId,
    scopes: credential.scopes,
    revoked: credential.revoked,
    created_at: credential.createdAt ? timestampDate(credential.createdAt).toISOString() : null,
    rotated_at: credential.rotatedAt ? timestampDate(credential.rotatedAt).toISOString() : null,
  };
}

/** Create / rotate / revoke client credentials (DESIGN.md admin API; seed part 5). */
export function credentialsRouter(
  identity: ClientOf<typeof IdentityService>,
  guard: AccessGuard,
  logger: Logger,
): Router {
  const router = Router();
  router.post('/admin/businesses/:id/credentials', async (req, res) => {
    const body = parseBody(ScopeSelectionBody, req.body);
    const { credential, clientSecret } = await identity.createCredential(
      { businessId: req.params.id, bundles: body.bundles, scopes: body.scopes },
      { metadata: res.locals.grpcMetadata },
    );
    if (!credential) throw new Error('identity returned no credential');
    res.status(201).setHeader('Cache-Control', 'no-store').json(credentialJson(credential, clientSecret));
  });
  /** The business a credential belongs to: its cached generation is kept under that business's keys. */
  const businessOf = async (clientId: string, res: Response): Promise<string> => {
    const { credential } = await identity.getCredential({ clientId }, { metadata: res.locals.grpcMetadata });
    if (!credential) throw new Error('identity returned no credential');
    return credential.businessId;
  };
  router.post('/admin/credentials/:clientId/rotate', async (req, res) => {
    const body = parseBody(ScopeSelectionBody, req.body);
    const businessId = await businessOf(req.params.clientId, res);
    await forgetBeforeChange(() => guard.forgetCredential(businessId, req.params.clientId));
    const { credential, clientSecret } = await identity.rotateCredential(
      { clientId: req.params.clientId, bundles: body.bundles, scopes: body.scopes },
      { metadata: res.locals.grpcMetadata },
    );
    if (!credential) throw new Error('identity returned no credential');
    // Tokens of the previous generation fail on every replica from the next request on.
    await pushToCache(logger, () => guard.storeCredential(credential));
    res.setHeader('Cache-Control', 'no-store').json(credentialJson(credential, clientSecret));
  });
  router.delete('/admin/credentials/:clientId', async (req, res) => {
    const businessId = await businessOf(req.params.clientId, res);
    await forgetBeforeChange(() => guard.forgetCredential(businessId, req.params.clientId));
    const { credential } = await identity.revokeCredential(
      { clientId: req.params.clientId },
      { metadata: res.locals.grpcMetadata },
    );
    if (!credential) throw new Error('identity returned no credential');
    await pushToCache(logger, () => guard.storeCredential(credential));
    res.json(credentialJson(credential));
  });
  router.get('/admin/credentials/:clientId', async (req, res) => {
    const { credential } = await identity.getCredential(
      { clientId: req.params.clientId },
      { metadata: res.locals.grpcMetadata },
    );
    if (!credential) throw new Error('identity returned no credential');
    res.json(credentialJson(credential));
  });
  return router;
}
