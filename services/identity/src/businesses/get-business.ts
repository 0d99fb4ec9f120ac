import type { Business as BusinessMessage } from '@corridor/contracts/corridor/identity/v1/business_pb';
import { notFound } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import { Business } from './business.entity.js';
import { toBusinessMessage } from './create-business.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function getBusiness(em: EntityManager, id: string): Promise<BusinessMessage> {
  const business = UUID.test(id) ? await em.findOne(Business, { id }) : null;
  if (!business) throw notFound('BUSINESS_NOT_FOUND', `business ${id} not found`);
  return toBusinessMessage(business);
}
