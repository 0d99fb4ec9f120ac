import type { Business as BusinessMessage } from '@corridor/contracts/corridor/identity/v1/business_pb';
import { notFound } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { Business } from './business.entity.js';
import { toBusinessMessage } from './create-business.js';

export async function getBusiness(em: EntityManager, id: string): Promise<BusinessMessage> {
  const business = isUuid(id) ? await em.findOne(Business, { id }) : null;
  if (!business) throw notFound('BUSINESS_NOT_FOUND', `business ${id} not found`);
  return toBusinessMessage(business);
}
