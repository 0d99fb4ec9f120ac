import {
  BusinessDataSchema,
  IndividualDataSchema,
  OwnerDataSchema,
  type Customer as CustomerMessage,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { dataOfJson } from '@corridor/customer-json';
import { CustomerInputSchema, type CustomerInput } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { changedFields, dataChange, recordAudit } from '../audit/record-audit.js';
import type { Actor, CustomerContext } from '../context.js';
import {
  assertCustomerEditable,
  assertOwnerEditable,
  loadAggregate,
  reopenIfRejected,
  storedFields,
  validationFailed,
} from './aggregate.js';
import { Owner, type Customer } from './customer.entity.js';
import { toCustomerMessage } from './customer-message.js';
import { ownerNotFound } from './owner-not-found.js';
import { assertRegistrationUnique, withRegistrationUniqueness } from './registration.js';
import {
  applyCustomerUpdate,
  applyOwnerChanges,
  customerFieldsOf,
  OWNER_FIELDS,
  validateCustomerUpdate,
  type CurrentCustomer,
  type CurrentOwner,
  isSent,
} from './rules/index.js';

export interface UpdateCustomerInput {
  customerId: string;
  body: CustomerInput;
  /** POST /customer/{id}/kyc-data changes data fields only; owners are PUT's. */
  kycDataOnly: boolean;
}

const OWNERS_NOT_IN_KYC_DATA = 'cannot be sent to kyc-data; add or change owners with PUT /customer/{id}';

/** The owner ids a body's `owners` entries name, for the lock rule before any validation. */
function ownerIdsNamed(body: CustomerInput): string[] {
  return (body.owners?.entries ?? []).flatMap((entry) => (entry.id === undefined ? [] : [entry.id.toLowerCase()]));
}

/**
 * PUT /customer/{id} and POST /customer/{id}/kyc-data (seed 2.1 rule 2): the properties sent are
 * written (null writes null), the omitted ones are untouched; for owners the same per entry.
 * Order of answers: 404, then 400 for a locked customer or owner (seed 3.3), then 422.
 */
export async function updateCustomer(
  em: EntityManager,
  context: CustomerContext,
  actor: Actor,
  input: UpdateCustomerInput,
): Promise<CustomerMessage> {
  let customer: Customer | undefined;
  return withRegistrationUniqueness(
    () =>
      em.transactional(async (tx) => {
        const aggregate = await loadAggregate(tx, actor, input.customerId, true);
        const locked = aggregate.customer;
        customer = locked;
        assertCustomerEditable(locked);
        for (const id of ownerIdsNamed(input.body)) {
          const owner = aggregate.owners.find((candidate) => candidate.id === id);
          if (owner) assertOwnerEditable(customer, owner);
        }
        if (input.kycDataOnly && isSent(CustomerInputSchema, input.body, 'owners')) {
          throw validationFailed({ owners: [OWNERS_NOT_IN_KYC_DATA] });
        }

        const now = context.now();
        const current = { ...customer.fields, type: customer.type, kyb_scope: customer.kybScope } as CurrentCustomer;
        const update = validateCustomerUpdate(input.body, { today: now, current });
        if (!update.ok) throw validationFailed(update.errors);
        const applied = applyCustomerUpdate(current, update.value.fields);
        const ownerChanges = update.value.owners ?? [];
        const currentOwners = aggregate.owners.map((owner) => ({ ...owner.fields, id: owner.id }) as CurrentOwner);
        const owners = applyOwnerChanges(currentOwners, ownerChanges);
        if (!applied.ok || !owners.ok) {
          throw validationFailed({ ...(applied.ok ? {} : applied.errors), ...(owners.ok ? {} : owners.errors) });
        }

        const before = customer.fields;
        const after = storedFields(applied.value, customerFieldsOf(customer.type));
        const fieldsChanged = changedFields(before, after).length > 0;
        if (fieldsChanged) {
          customer.fields = after;
          await assertRegistrationUnique(tx, customer);
        }

        const ownersChanged: string[] = [];
        const ownersAdded: string[] = [];
        const existingOwners = [...aggregate.owners];
        let position = Math.max(-1, ...existingOwners.map((owner) => owner.position)) + 1;
        owners.value.forEach((result, index) => {
          const existing = existingOwners[index]; // applyOwnerChanges keeps current owners first, in order
          const fields = storedFields(result, OWNER_FIELDS);
          if (existing) {
            if (changedFields(existing.fields, fields).length === 0) return;
            existing.fields = fields;
            existing.updatedAt = now;
            reopenIfRejected(existing); // seed 3.3
            ownersChanged.push(existing.id);
            return;
          }
          const owner = tx.create(Owner, {
            id: randomUUID(),
            customerId: locked.id,
            businessId: locked.businessId,
            status: 'PENDING',
            adminComments: [],
            fields,
            idDocumentFrontId: null,
            idDocumentBackId: null,
            position: position++,
            createdAt: now,
            updatedAt: now,
          });
          aggregate.owners.push(owner);
          ownersAdded.push(owner.id);
        });
        if (fieldsChanged || ownersChanged.length > 0 || ownersAdded.length > 0) {
          customer.updatedAt = now;
          const fields = !fieldsChanged
            ? { case: undefined }
            : customer.type === 'business'
              ? { case: 'businessFields' as const, value: dataChange(BusinessDataSchema, before, after) }
              : { case: 'individualFields' as const, value: dataChange(IndividualDataSchema, before, after) };
          recordAudit(
            tx,
            actor,
            customer,
            input.kycDataOnly ? 'customer.kyc_data_updated' : 'customer.updated',
            { action: { case: 'customerUpdated', value: { fields, ownersChanged, ownersAdded } } },
            now,
          );
        }
        return toCustomerMessage(aggregate);
      }),
    () => customer,
  );
}

/** DELETE /customer/{customer}/owner/{owner}: under the same lock rule as an edit (decision 0008). */
export async function removeOwner(
  em: EntityManager,
  context: CustomerContext,
  actor: Actor,
  input: { customerId: string; ownerId: string },
): Promise<CustomerMessage> {
  return em.transactional(async (tx) => {
    const aggregate = await loadAggregate(tx, actor, input.customerId, true);
    const { customer } = aggregate;
    const owner = aggregate.owners.find((candidate) => candidate.id === input.ownerId.toLowerCase());
    if (!owner) throw ownerNotFound(input.ownerId);
    assertOwnerEditable(customer, owner);
    const now = context.now();
    tx.remove(owner);
    aggregate.owners = aggregate.owners.filter((candidate) => candidate !== owner);
    customer.updatedAt = now;
    recordAudit(
      tx,
      actor,
      customer,
      'owner.removed',
      {
        action: {
          case: 'ownerRemoved',
          value: { ownerId: owner.id, owner: dataOfJson(OwnerDataSchema, owner.fields) },
        },
      },
      now,
    );
    return toCustomerMessage(aggregate);
  });
}
