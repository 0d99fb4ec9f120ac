import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import type { MikroORM } from '@corridor/db';
import { registration } from '@corridor/grpc';
import { createBusiness } from './businesses/create-business.js';
import { getBusiness } from './businesses/get-business.js';
import { updateBusiness } from './businesses/update-business.js';
import type { IdentityContext } from './context.js';
import {
  createCredential,
  getCredential,
  listCredentials,
  revokeCredential,
  rotateCredential,
} from './credentials/manage-credentials.js';
import type { IdentitySecrets } from './secrets/identity-secrets.js';
import { issueToken, type TokenSettings } from './tokens/issue-token.js';
import type { ActiveSigningKey } from './tokens/signing-keys.js';

export interface IdentityDependencies {
  orm: MikroORM;
  context: IdentityContext;
  secrets: IdentitySecrets;
  signingKey: ActiveSigningKey;
  tokens: TokenSettings;
}

/** The gRPC edge of identity: thin, one fork of the entity manager per call. */
export function identityServiceRegistration({ orm, context, secrets, signingKey, tokens }: IdentityDependencies) {
  const em = () => orm.em.fork();
  return registration(IdentityService, {
    async createBusiness(request) {
      const business = await createBusiness(em(), context, {
        name: request.name,
        apiEnabled: request.apiEnabled,
        kybMinimalAllowed: request.kybMinimalAllowed,
      });
      return { business };
    },
    async getBusiness(request) {
      return { business: await getBusiness(em(), request.id) };
    },
    async updateBusiness(request) {
      const business = await updateBusiness(em(), context, {
        id: request.id,
        apiEnabled: request.apiEnabled,
        kybMinimalAllowed: request.kybMinimalAllowed,
        ipAllowlist: request.ipAllowlist?.entries,
        rateLimits: request.rateLimits,
      });
      return { business };
    },
    async createCredential(request) {
      return createCredential(em(), context, secrets, {
        businessId: request.businessId,
        bundles: request.bundles,
        scopes: request.scopes,
      });
    },
    async rotateCredential(request) {
      return rotateCredential(em(), context, secrets, {
        clientId: request.clientId,
        bundles: request.bundles,
        scopes: request.scopes,
      });
    },
    async revokeCredential(request) {
      return { credential: await revokeCredential(em(), context, request.clientId) };
    },
    async listCredentials(request) {
      return listCredentials(em(), request.businessId, request.page);
    },
    async getCredential(request) {
      return { credential: await getCredential(em(), request.clientId) };
    },
    async issueToken(request) {
      return issueToken(em(), secrets, signingKey, tokens, {
        clientId: request.clientId,
        clientSecret: request.clientSecret,
        scope: request.scope,
        clientIp: request.clientIp,
      });
    },
    async getSigningKeys() {
      return {
        keys: [{ keyId: signingKey.keyId, publicJwk: JSON.stringify(signingKey.publicJwk) }],
        issuer: tokens.issuer,
        audience: tokens.audience,
      };
    },
  });
}
