import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { BusinessSchema, type Business as BusinessMessage } from '@corridor/contracts/corridor/identity/v1/business_pb';
import { invalidArgument } from '@corridor/grpc';
import { type FieldErrors } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { recordIdentityEvent, type IdentityContext } from '../context.js';
import { Business, DEFAULT_RATE_LIMITS } from './business.entity.js';

export interface CreateBusinessInput {
  name: string;
  apiEnabled?: boolean;
  kybMinimalAllowed?: boolean;
}

export const NAME_MAX_LENGTH = 200;

function validate(input: CreateBusinessInput): string {
  const name = input.name.trim();
  const errors: FieldErrors = {};
  if (name === '') errors.name = ['is required'];
  else if (name.length > NAME_MAX_LENGTH) errors.name = [`must be at most ${NAME_MAX_LENGTH} characters`];
  if (Object.keys(errors).length > 0) throw invalidArgument(`name ${errors.name?.[0]}`, errors);
  return name;
}

export function toBusinessMessage(business: Business): BusinessMessage {
  return create(BusinessSchema, {
    id: business.id,
    name: business.name,
    apiEnabled: business.apiEnabled,
    kybMinimalAllowed: business.kybMinimalAllowed,
    ipAllowlist: business.ipAllowlist,
    rateLimits: { perMinute: business.rateLimitPerMinute, perHour: business.rateLimitPerHour },
    createdAt: timestampFromDate(business.createdAt),
    version: BigInt(business.version),
    environment: business.environment,
  });
}

/**
 * Creates a platform business. The business row and its business.created outbox row are written
 * by one flush in one transaction: both exist or neither does.
 */
export async function createBusiness(
  em: EntityManager,
  context: IdentityContext,
  input: CreateBusinessInput,
): Promise<BusinessMessage> {
  const name = validate(input);
  return em.transactional(async (tx) => {
    const now = context.now();
    const business = tx.create(Business, {
      id: randomUUID(),
      name,
      environment: context.environment,
      apiEnabled: input.apiEnabled ?? true,
      kybMinimalAllowed: input.kybMinimalAllowed ?? false,
      ipAllowlist: [],
      rateLimitPerMinute: DEFAULT_RATE_LIMITS.perMinute,
      rateLimitPerHour: DEFAULT_RATE_LIMITS.perHour,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    const message = toBusinessMessage(business);
    recordIdentityEvent(tx, context, business.id, { case: 'businessCreated', value: { business: message } }, now);
    return message;
  });
}
