import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { startFakeGrpcService, type Answer } from '@corridor/testing';

export const BUSINESS_ID = '4b8f3c2e-0000-4000-8000-00000000b001';
export const CLIENT_ID = `ci_test_${'0'.repeat(31)}1`;
export const CREATED = new Date('2026-11-21T09:00:00.000Z');

const at = (date: Date) => ({ seconds: BigInt(date.getTime() / 1000), nanos: 0 });

/** A business as identity answers it; `changes` as sent in the request (camelCase proto fields). */
export const business = (changes: Record<string, unknown> = {}) => ({
  id: BUSINESS_ID,
  name: 'Acme',
  apiEnabled: true,
  kybMinimalAllowed: false,
  ipAllowlist: [],
  rateLimits: { perMinute: 120, perHour: 1500 },
  createdAt: at(CREATED),
  version: 1n,
  environment: 'sandbox',
  ...changes,
});

export const credential = (changes: Record<string, unknown> = {}) => ({
  clientId: CLIENT_ID,
  businessId: BUSINESS_ID,
  scopes: ['wallet:read'],
  generation: 1,
  revoked: false,
  createdAt: at(CREATED),
  ...changes,
});

/** identity answering canned businesses and credentials, for the admin route specs. */
export function startFakeIdentityService() {
  const defaults: Record<string, Answer> = {
    createBusiness: (request) => ({ business: business({ name: request.name }) }),
    getBusiness: () => ({ business: business() }),
    updateBusiness: () => ({ business: business({ version: 2n }) }),
    createCredential: () => ({ credential: credential(), clientSecret: 'cs_test_secret' }),
    rotateCredential: () => ({ credential: credential({ generation: 2 }), clientSecret: 'cs_test_rotated' }),
    revokeCredential: () => ({ credential: credential({ revoked: true }) }),
    getCredential: () => ({ credential: credential() }),
  };
  return startFakeGrpcService(IdentityService, (method) => {
    const answer = defaults[method];
    if (!answer) throw new Error(`the fake identity does not answer ${method}`);
    return answer;
  });
}
