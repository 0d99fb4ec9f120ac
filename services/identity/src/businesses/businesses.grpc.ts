import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { registration } from '@corridor/grpc';
import type { MikroORM } from '@corridor/db';
import { createBusiness, type BusinessContext } from './create-business.js';
import { getBusiness } from './get-business.js';

/** The gRPC edge of businesses: thin, one fork of the entity manager per call. */
export function identityServiceRegistration(orm: MikroORM, context: BusinessContext) {
  return registration(IdentityService, {
    async createBusiness(request) {
      const business = await createBusiness(orm.em.fork(), context, {
        name: request.name,
        apiEnabled: request.apiEnabled,
        kybMinimalAllowed: request.kybMinimalAllowed,
      });
      return { business };
    },
    async getBusiness(request) {
      return { business: await getBusiness(orm.em.fork(), request.id) };
    },
  });
}
