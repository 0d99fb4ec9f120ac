import { create } from '@bufbuild/protobuf';
import { ReviewInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import {
  ReviewStatus as ReviewStatusValue,
  VerificationStatus,
  type Customer as CustomerMessage,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import type { CallerContext } from '@corridor/grpc';
import { FieldProblems } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import type { CustomerContext } from '../context.js';
import { sandboxPlatform } from '../sandbox-caller.js';
import { loadAggregate, validationFailed } from './aggregate.js';
import type { ReviewStatus } from './customer.entity.js';
import { reviewCustomer } from './review-customer.js';

const COMMENT_MAX = 2000;
/** Production's review refuses a rejection without comments; the sandbox supplies one when none is given. */
export const SANDBOX_REJECTION_COMMENT = 'Rejected with the sandbox tools (no comment given).';

const VERDICTS: Partial<Record<VerificationStatus, 'VERIFIED' | 'REJECTED'>> = {
  [VerificationStatus.VERIFIED]: 'VERIFIED',
  [VerificationStatus.REJECTED]: 'REJECTED',
};

/**
 * SandboxReviewCustomer: the back office's review of one of the caller's own customers, in the
 * sandbox only. Every owner and document under review is judged as the verdict says (APPROVED for
 * VERIFIED, REJECTED for REJECTED) and the verdict given in the same review, through reviewCustomer:
 * its rules (only a PROCESSING customer, VERIFIED needs an approved formation document, ...), its
 * customer.status_changed (so the customer webhook) and its audit entry, whose actor is the caller.
 */
export async function sandboxReviewCustomer(
  em: EntityManager,
  context: CustomerContext,
  caller: CallerContext,
  input: { customerId: string; verdict: VerificationStatus; comment?: string },
): Promise<CustomerMessage> {
  const actor = sandboxPlatform(caller, context);
  const problems = new FieldProblems();
  const verdict = VERDICTS[input.verdict];
  if (!verdict) problems.add('verdict', 'must be VERIFIED or REJECTED');
  const comment = input.comment?.trim();
  if (input.comment !== undefined && (!comment || comment.length > COMMENT_MAX)) {
    problems.add('comment', `must be a non-empty text of at most ${COMMENT_MAX} characters`);
  }
  if (!problems.isEmpty) throw validationFailed(problems.errors);

  return em.transactional(async (tx) => {
    // Locked (another business's customer is not found), so the judgements name the children as
    // they are when reviewCustomer reads them again in this transaction.
    const { owners, documents } = await loadAggregate(tx, actor, input.customerId, true);
    const status = verdict === 'VERIFIED' ? ReviewStatusValue.APPROVED : ReviewStatusValue.REJECTED;
    const comments = comment ? [comment] : verdict === 'REJECTED' ? [SANDBOX_REJECTION_COMMENT] : undefined;
    const judged = (children: readonly { id: string; status: ReviewStatus }[]) => ({
      entries: children
        .filter((child) => child.status === 'PROCESSING')
        .map((child) => ({ id: child.id, status, adminComments: comments ? { entries: comments } : undefined })),
    });
    return reviewCustomer(tx, context, actor, {
      customerId: input.customerId,
      body: create(ReviewInputSchema, { owners: judged(owners), documents: judged(documents), verdict: input.verdict }),
    });
  });
}
