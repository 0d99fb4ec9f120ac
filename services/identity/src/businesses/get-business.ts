import type { Business as BusinessMessage } from '@corridor/contracts/corridor/identity/v1/business_pb';
import { notFound } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import { Business } from './business.entity.js';
import { toBusinessMessage } from './create-business.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are uuids; anything else cannot name a business (and must not reach a uuid column). */
export const isUuid = (id: string) => UUID.test(id);

export async function getBusiness(em: EntityManager, id: string): Promise<BusinessMessage> {
  const business = isUuid(id) ? await em.findOne(Business, { id }) : null;
  if (!business) throw notFound('BUSINESS_NOT_FOUND', `business ${id} not found`);
  return toBusinessMessage(business);
}
