import { CustomerType, type Customer as CustomerMessage } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import type { CustomerInput } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { recordAudit } from '../audit/record-audit.js';
import { recordCustomerCreated, type Actor, type CustomerContext } from '../context.js';
import { validationFailed, storedFields } from './aggregate.js';
import { Customer, Owner } from './customer.entity.js';
import { toCustomerMessage } from './customer-message.js';
import { assertRegistrationUnique, withRegistrationUniqueness } from './registration.js';
import { customerFieldsOf, OWNER_FIELDS, validateCustomerCreate } from './rules/index.js';

/** The platform's allow-list flag (seed 5), from identity: the only owner of businesses. */
async function kybMinimalAllowed(context: CustomerContext, businessId: string): Promise<boolean> {
  const { business } = await context.identity.getBusiness({ id: businessId });
  return business?.kybMinimalAllowed ?? false;
}

/** POST /customer (seed 2.1, 4.4, 5): a new customer, PENDING, with its owners PENDING. */
export async function createCustomer(
  em: EntityManager,
  context: CustomerContext,
  actor: Actor & { businessId: string },
  body: CustomerInput,
): Promise<CustomerMessage> {
  const now = context.now();
  const isBusiness = body.type === CustomerType.BUSINESS;
  const result = validateCustomerCreate(body, {
    today: now,
    kybMinimalAllowed: isBusiness ? await kybMinimalAllowed(context, actor.businessId) : false,
  });
  if (!result.ok) throw validationFailed(result.errors);
  const input = result.value;

  let customer: Customer | undefined;
  return withRegistrationUniqueness(
    () =>
      em.transactional(async (tx) => {
        const created = tx.create(Customer, {
          id: randomUUID(),
          businessId: actor.businessId,
          type: input.type,
          kybScope: input.type === 'business' ? input.kyb_scope : null,
          verificationStatus: 'PENDING',
          fields: storedFields(input, customerFieldsOf(input.type)),
          idFileId: null,
          idFileBackId: null,
          createdAt: now,
          updatedAt: now,
          submittedAt: null,
        });
        customer = created;
        // Written first: its owners and audit entry reference it, and MikroORM knows no order between them.
        await tx.flush();
        await assertRegistrationUnique(tx, created);
        const owners = (input.type === 'business' ? input.owners : []).map((owner, position) =>
          tx.create(Owner, {
            id: randomUUID(),
            customerId: created.id,
            businessId: actor.businessId,
            status: 'PENDING',
            adminComments: [],
            fields: storedFields(owner, OWNER_FIELDS),
            idDocumentFrontId: null,
            idDocumentBackId: null,
            position,
            createdAt: now,
            updatedAt: now,
          }),
        );
        recordAudit(
          tx,
          actor,
          created,
          'customer.created',
          { action: { case: 'customerCreated', value: { ownersAdded: owners.map((o) => o.id) } } },
          now,
        );
        recordCustomerCreated(tx, context, created);
        return toCustomerMessage({ customer: created, owners, documents: [], files: new Map() });
      }),
    () => customer,
  );
}
