import type { Business as BusinessMessage } from '@corridor/contracts/corridor/identity/v1/business_pb';
import { invalidArgument, notFound } from '@corridor/grpc';
import { isUuid, type FieldErrors } from '@corridor/validation';
import { allowlistEntryProblem } from '@corridor/ip-allowlist';
import { LockMode, type EntityManager } from '@mikro-orm/core';
import { recordIdentityEvent, type IdentityContext } from '../context.js';
import { Business } from './business.entity.js';
import { toBusinessMessage } from './create-business.js';

export interface UpdateBusinessInput {
  id: string;
  apiEnabled?: boolean;
  kybMinimalAllowed?: boolean;
  ipAllowlist?: string[];
  rateLimits?: { perMinute: number; perHour: number };
}

export const IP_ALLOWLIST_MAX_ENTRIES = 100;
export const RATE_LIMIT_MAX_PER_MINUTE = 100_000;

function validate(input: UpdateBusinessInput): void {
  const errors: FieldErrors = {};
  if (input.ipAllowlist) {
    if (input.ipAllowlist.length > IP_ALLOWLIST_MAX_ENTRIES) {
      errors.ip_allowlist = [`must have at most ${IP_ALLOWLIST_MAX_ENTRIES} entries`];
    }
    input.ipAllowlist.forEach((entry, index) => {
      const problem = allowlistEntryProblem(entry);
      if (problem) errors[`ip_allowlist.${index}`] = [problem];
    });
  }
  if (input.rateLimits) {
    const { perMinute, perHour } = input.rateLimits;
    if (perMinute < 1 || perMinute > RATE_LIMIT_MAX_PER_MINUTE) {
      errors['rate_limits.per_minute'] = [`must be between 1 and ${RATE_LIMIT_MAX_PER_MINUTE}`];
    }
    if (perHour < perMinute || perHour > RATE_LIMIT_MAX_PER_MINUTE * 60) {
      errors['rate_limits.per_hour'] = [
        `must be at least per_minute (${perMinute}) and at most ${RATE_LIMIT_MAX_PER_MINUTE * 60}`,
      ];
    }
  }
  const [field, problems] = Object.entries(errors)[0] ?? [];
  if (field && problems) throw invalidArgument(`${field} ${problems[0]}`, errors);
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Changes the fields given; every change bumps the version gateways' caches compare against. */
export async function updateBusiness(
  em: EntityManager,
  context: IdentityContext,
  input: UpdateBusinessInput,
): Promise<BusinessMessage> {
  validate(input);
  return em.transactional(async (tx) => {
    const business = isUuid(input.id)
      ? await tx.findOne(Business, { id: input.id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
      : null;
    if (!business) throw notFound('BUSINESS_NOT_FOUND', `business ${input.id} not found`);
    const changed: string[] = [];
    if (input.apiEnabled !== undefined && input.apiEnabled !== business.apiEnabled) {
      business.apiEnabled = input.apiEnabled;
      changed.push('api_enabled');
    }
    if (input.kybMinimalAllowed !== undefined && input.kybMinimalAllowed !== business.kybMinimalAllowed) {
      business.kybMinimalAllowed = input.kybMinimalAllowed;
      changed.push('kyb_minimal_allowed');
    }
    if (input.ipAllowlist && !sameList(input.ipAllowlist, business.ipAllowlist)) {
      business.ipAllowlist = input.ipAllowlist;
      changed.push('ip_allowlist');
    }
    if (
      input.rateLimits &&
      (input.rateLimits.perMinute !== business.rateLimitPerMinute ||
        input.rateLimits.perHour !== business.rateLimitPerHour)
    ) {
      business.rateLimitPerMinute = input.rateLimits.perMinute;
      business.rateLimitPerHour = input.rateLimits.perHour;
      changed.push('rate_limits');
    }
    if (changed.length === 0) return toBusinessMessage(business);
    const now = context.now();
    business.version += 1;
    business.updatedAt = now;
    const message = toBusinessMessage(business);
    recordIdentityEvent(
      tx,
      context,
      business.id,
      { case: 'businessUpdated', value: { business: message, changedFields: changed } },
      now,
    );
    return message;
  });
}
