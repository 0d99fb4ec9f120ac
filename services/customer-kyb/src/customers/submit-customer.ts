import type { Customer as CustomerMessage } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { failedPrecondition, invalidArgument } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import { recordAudit, statusChange } from '../audit/record-audit.js';
import { changeStatus, type Actor, type CustomerContext } from '../context.js';
import { loadAggregate, type CustomerAggregate } from './aggregate.js';
import { toCustomerMessage } from './customer-message.js';
import {
  checkIndividualReadiness,
  checkReadiness,
  type IdDocumentType,
  type IdSlot,
  type KybScope,
  type ReadinessSubject,
} from './rules/index.js';

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The business as seed 3.2's checks read it: stored values and the ID slots that hold a file. */
function readinessSubject({ customer, owners, documents }: CustomerAggregate): ReadinessSubject {
  const fields = customer.fields;
  return {
    kyb_scope: customer.kybScope as KybScope | null,
    business_name: text(fields.business_name),
    registration_number: text(fields.registration_number),
    incorporation_country: text(fields.incorporation_country),
    country: text(fields.country),
    owners: owners.map((owner) => ({
      ownership_percentage:
        typeof owner.fields.ownership_percentage === 'number' ? owner.fields.ownership_percentage : null,
      email: text(owner.fields.email),
      date_of_birth: text(owner.fields.date_of_birth),
      id_expiry_date: text(owner.fields.id_expiry_date),
      nationality: text(owner.fields.nationality),
      country: text(owner.fields.country),
      id_document_country: text(owner.fields.id_document_country),
      id_document_type: text(owner.fields.id_document_type) as IdDocumentType | null,
      id_slots: [
        ...(owner.idDocumentFrontId ? ['id_document_front' as IdSlot] : []),
        ...(owner.idDocumentBackId ? ['id_document_back' as IdSlot] : []),
      ],
    })),
    documents: documents.map((document) => ({ type: document.type })),
  };
}

function assertReady(aggregate: CustomerAggregate, today: Date): void {
  const { customer } = aggregate;
  if (customer.type === 'business') {
    const outcome = checkReadiness(readinessSubject(aggregate), today); // seed 3.2, in order
    if (!outcome.ok) throw invalidArgument(outcome.message, outcome.errors, 'READINESS_CHECK_FAILED');
    return;
  }
  const outcome = checkIndividualReadiness(
    {
      ...customer.fields,
      id_type: text(customer.fields.id_type) as IdDocumentType | null,
      has_id_file: customer.idFileId != null,
      has_id_file_back: customer.idFileBackId != null,
    },
    today,
  );
  if (!outcome.ok) throw invalidArgument(outcome.message, outcome.errors, 'READINESS_CHECK_FAILED');
}

/**
 * POST /customer/{customer}/submit (seed 3.1, 3.2): from PENDING or REJECTED, the readiness checks
 * pass, then the customer and its PENDING owners and documents move to PROCESSING (APPROVED ones
 * are not re-reviewed) and customer.status_changed is recorded with them.
 */
export async function submitCustomer(
  em: EntityManager,
  context: CustomerContext,
  actor: Actor,
  customerId: string,
): Promise<CustomerMessage> {
  return em.transactional(async (tx) => {
    const aggregate = await loadAggregate(tx, actor, customerId, true);
    const { customer } = aggregate;
    if (customer.verificationStatus === 'PROCESSING') {
      throw failedPrecondition(
        'ALREADY_PROCESSING',
        `customer ${customer.id} is already PROCESSING: it is under review`,
      );
    }
    if (customer.verificationStatus === 'VERIFIED') {
      throw failedPrecondition(
        'ALREADY_VERIFIED',
        `customer ${customer.id} is already VERIFIED` +
          (customer.type === 'business' && customer.kybScope !== 'FULL'
            ? '; to verify it for FULL KYB, call POST /customer/{customer}/upgrade-kyb-scope first'
            : ''),
      );
    }
    const now = context.now();
    assertReady(aggregate, now);
    const moved = { owners: [] as string[], documents: [] as string[] };
    for (const owner of aggregate.owners) {
      if (owner.status !== 'PENDING') continue;
      owner.status = 'PROCESSING';
      owner.updatedAt = now;
      moved.owners.push(owner.id);
    }
    for (const document of aggregate.documents) {
      if (document.status !== 'PENDING') continue;
      document.status = 'PROCESSING';
      document.updatedAt = now;
      moved.documents.push(document.id);
    }
    const from = customer.verificationStatus;
    changeStatus(tx, context, customer, 'PROCESSING', 'submit', now);
    customer.submittedAt = now;
    recordAudit(
      tx,
      actor,
      customer,
      'customer.submitted',
      {
        action: {
          case: 'customerSubmitted',
          value: { verificationStatus: statusChange(from, 'PROCESSING'), toReview: moved },
        },
      },
      now,
    );
    return toCustomerMessage(aggregate);
  });
}
