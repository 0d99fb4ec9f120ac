import type { AuditEntry as AuditEntryMessage } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { invalidArgument, notFound } from '@corridor/grpc';
import { FieldProblems, firstProblemMessage, isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { recordAuditEntry, toAuditEntryMessage } from '../audit/audit-log.js';
import { Business } from '../businesses/business.entity.js';
import { actingFor } from './actors.js';
import { MEMBER_ROLES } from './member.entity.js';
import type { ActorInput, MembersContext } from './members-context.js';

export interface RecordAuditInput {
  businessId: string;
  actor?: ActorInput;
  action: string;
  target: string;
  details: string;
}

function checked(input: RecordAuditInput): void {
  const problems = new FieldProblems();
  if (!/^[a-z][a-z_]*(\.[a-z][a-z_]*)+$/.test(input.action) || input.action.length > 100) {
    problems.add('action', 'must be dotted lowercase words of at most 100 characters, e.g. webhook.updated');
  }
  if (input.target.length > 200) problems.add('target', 'must be at most 200 characters');
  if (input.details.length > 1_000) problems.add('details', 'must be at most 1000 characters');
  if (!problems.isEmpty) throw invalidArgument(firstProblemMessage(problems.errors), problems.errors);
}

/**
 * Records a change a member made through another service (a credential, a webhook). The actor
 * must be an active member of the business, of any role: the service that made the change checked it.
 */
export async function recordAudit(
  em: EntityManager,
  context: MembersContext,
  input: RecordAuditInput,
): Promise<AuditEntryMessage> {
  checked(input);
  return em.transactional(async (tx) => {
    const business = isUuid(input.businessId) ? await tx.findOne(Business, { id: input.businessId }) : null;
    if (!business) throw notFound('BUSINESS_NOT_FOUND', `business ${input.businessId} not found`);
    const acting = await actingFor(tx, business.id, input.actor, MEMBER_ROLES, 'record changes for it');
    const entry = recordAuditEntry(tx, {
      businessId: business.id,
      actor: acting.audit,
      action: input.action,
      target: input.target,
      details: input.details,
      at: context.now(),
    });
    return toAuditEntryMessage(entry);
  });
}
