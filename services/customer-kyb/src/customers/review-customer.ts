import {
  ReviewInputSchema,
  ReviewJudgementSchema,
  type ReviewInput,
  type ReviewJudgement,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import {
  ReviewStatusSchema,
  type AuditChanges_CustomerReviewedSchema,
  type Customer as CustomerMessage,
  type ReviewStatus as ReviewStatusValue,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { failedPrecondition } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import { recordAudit, statusChange } from '../audit/record-audit.js';
import { changeStatus, type Actor, type CustomerContext } from '../context.js';
import { enumOf } from '../customer-input.js';
import { readBody } from '../files/file-uploads.js';
import { loadAggregate, validationFailed, type CustomerAggregate } from './aggregate.js';
import type { ReviewStatus } from './customer.entity.js';
import { toCustomerMessage } from './customer-message.js';
import { fieldPath, isFormationDocumentType, NOT_RECOGNISED, sent, sentList, unknownNulls } from './rules/index.js';
import { describeJson, FieldProblems, isUuid } from '@corridor/validation';

export const JUDGEMENTS = ['APPROVED', 'REJECTED'] as const;
export const VERDICTS = ['VERIFIED', 'REJECTED'] as const;

interface Judgement {
  id: string;
  status: (typeof JUDGEMENTS)[number];
  adminComments: string[] | undefined;
}

/** `owners` or `documents` of a review body: `[{id, status, admin_comments?}]`. */
function readJudgements(
  value: readonly ReviewJudgement[] | null | undefined,
  key: string,
  problems: FieldProblems,
): Judgement[] {
  if (value === undefined) return [];
  if (value === null) {
    problems.add(key, `must be an array of {id, status, admin_comments}, got ${describeJson(value)}`);
    return [];
  }
  const judgements: Judgement[] = [];
  value.forEach((entry, index) => {
    const path = fieldPath(key, index);
    for (const unknown of unknownNulls(ReviewJudgementSchema, entry)) {
      problems.add(fieldPath(path, unknown), NOT_RECOGNISED);
    }
    const [id, status, comments] = ['id', 'status', 'admin_comments'].map((name) =>
      sent(ReviewJudgementSchema, entry, name),
    );
    if (typeof id !== 'string' || !isUuid(id)) problems.add(fieldPath(path, 'id'), 'must be a uuid');
    if (typeof status !== 'string' || !(JUDGEMENTS as readonly string[]).includes(status)) {
      problems.add(fieldPath(path, 'status'), `must be ${JUDGEMENTS.join(' or ')}`);
    }
    const commentsOk =
      comments === undefined ||
      (Array.isArray(comments) && comments.every((c) => typeof c === 'string' && c.trim() !== '' && c.length <= 2000));
    if (!commentsOk) {
      problems.add(
        fieldPath(path, 'admin_comments'),
        'must be an array of non-empty strings of at most 2000 characters',
      );
    }
    if (status === 'REJECTED' && (!Array.isArray(comments) || comments.length === 0)) {
      problems.add(
        fieldPath(path, 'admin_comments'),
        'is required when rejecting: the platform acts on these comments',
      );
    }
    if (typeof id === 'string' && isUuid(id) && typeof status === 'string' && commentsOk) {
      judgements.push({
        id: id.toLowerCase(),
        status: status as Judgement['status'],
        adminComments: comments as string[] | undefined,
      });
    }
  });
  return judgements;
}

/** Applies judgements to children that are under review; only PROCESSING ones can be judged. */
function judge(
  children: { id: string; status: ReviewStatus; adminComments: string[]; updatedAt: Date }[],
  judgements: Judgement[],
  kind: 'owner' | 'document',
  now: Date,
  problems: FieldProblems,
): Record<string, ReviewStatusValue> {
  const applied: Record<string, ReviewStatusValue> = {};
  judgements.forEach((judgement, index) => {
    const child = children.find((candidate) => candidate.id === judgement.id);
    if (!child) {
      problems.add(
        fieldPath(`${kind}s`, index, 'id'),
        `is not ${kind === 'owner' ? 'an owner' : 'a document'} of this customer`,
      );
      return;
    }
    if (child.status !== 'PROCESSING') {
      throw failedPrecondition(
        'NOT_UNDER_REVIEW',
        `${kind} ${child.id} is ${child.status}; only ${kind}s in PROCESSING are reviewed`,
      );
    }
    child.status = judgement.status;
    child.adminComments = judgement.adminComments ?? [];
    child.updatedAt = now;
    applied[child.id] = enumOf(ReviewStatusSchema, judgement.status);
  });
  return applied;
}

/** What stops a VERIFIED verdict (decision 0008), as field problems; none when it may be verified. */
function verificationGaps({ customer, owners, documents }: CustomerAggregate): FieldProblems {
  const gaps = new FieldProblems();
  if (customer.type !== 'business') return gaps;
  for (const owner of owners) {
    if (owner.status !== 'APPROVED') gaps.add(`owners.${owner.id}`, `is ${owner.status}, not APPROVED`);
  }
  for (const document of documents) {
    if (document.status !== 'APPROVED') gaps.add(`documents.${document.id}`, `is ${document.status}, not APPROVED`);
  }
  if (customer.kybScope === 'FULL' && owners.length === 0)
    gaps.add('owners', 'a FULL KYB customer needs at least one approved owner');
  if (!documents.some((document) => document.status === 'APPROVED' && isFormationDocumentType(document.type))) {
    gaps.add('documents', 'at least one formation document must be APPROVED');
  }
  return gaps;
}

/**
 * The back office's review (DESIGN.md admin API; decision 0008): owner and document statuses with
 * comments, and optionally a verdict that moves the customer (and fires customer.status_changed).
 */
export async function reviewCustomer(
  em: EntityManager,
  context: CustomerContext,
  actor: Actor,
  input: { customerId: string; body: ReviewInput },
): Promise<CustomerMessage> {
  return em.transactional(async (tx) => {
    const aggregate = await loadAggregate(tx, actor, input.customerId, true);
    const { customer } = aggregate;
    if (customer.verificationStatus !== 'PROCESSING') {
      throw failedPrecondition(
        'NOT_UNDER_REVIEW',
        `customer ${customer.id} is ${customer.verificationStatus}; only a PROCESSING customer is reviewed`,
      );
    }
    const problems = new FieldProblems();
    const read = readBody(ReviewInputSchema, input.body, problems);
    const { body } = input;
    const ownerJudgements = readJudgements(sentList(body, 'owners', body.owners), 'owners', problems);
    const documentJudgements = readJudgements(sentList(body, 'documents', body.documents), 'documents', problems);
    const verdict = read('verdict');
    if (verdict !== undefined && (typeof verdict !== 'string' || !(VERDICTS as readonly string[]).includes(verdict))) {
      problems.add('verdict', `must be ${VERDICTS.join(' or ')}`);
    }
    if (!problems.isEmpty) throw validationFailed(problems.errors);

    const now = context.now();
    const changes: MessageInitShape<typeof AuditChanges_CustomerReviewedSchema> = {
      owners: judge(aggregate.owners, ownerJudgements, 'owner', now, problems),
      documents: judge(aggregate.documents, documentJudgements, 'document', now, problems),
    };
    if (!problems.isEmpty) throw validationFailed(problems.errors);

    if (verdict === 'VERIFIED') {
      const gaps = verificationGaps(aggregate);
      if (!gaps.isEmpty) throw validationFailed(gaps.errors, 'REVIEW_INCOMPLETE');
      changeStatus(tx, context, customer, 'VERIFIED', 'review', now);
      changes.verificationStatus = statusChange('PROCESSING', 'VERIFIED');
    } else if (verdict === 'REJECTED') {
      const children = [...aggregate.owners, ...aggregate.documents];
      if (customer.type === 'business' && !children.some((child) => child.status === 'REJECTED')) {
        throw validationFailed(
          {
            verdict: ['REJECTED needs at least one REJECTED owner or document, with comments the platform can act on'],
          },
          'REVIEW_INCOMPLETE',
        );
      }
      // Children left unjudged return to PENDING, so the platform can edit them before resubmitting.
      for (const child of children) {
        if (child.status !== 'PROCESSING') continue;
        child.status = 'PENDING';
        child.updatedAt = now;
      }
      changeStatus(tx, context, customer, 'REJECTED', 'review', now);
      changes.verificationStatus = statusChange('PROCESSING', 'REJECTED');
    }
    recordAudit(
      tx,
      actor,
      customer,
      'customer.reviewed',
      { action: { case: 'customerReviewed', value: changes } },
      now,
    );
    return toCustomerMessage(aggregate);
  });
}
