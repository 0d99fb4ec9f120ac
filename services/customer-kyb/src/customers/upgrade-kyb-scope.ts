import {
  BusinessDataSchema,
  KybScope as KybScopeValue,
  KybScopeSchema,
  type AuditChanges_CustomerUpgradedSchema,
  type Customer as CustomerMessage,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { failedPrecondition } from '@corridor/grpc';
import type { CustomerInput } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { dataChange, recordAudit, statusChange } from '../audit/record-audit.js';
import { changeStatus, type Actor, type CustomerContext } from '../context.js';
import { enumOf } from '../customer-input.js';
import { loadAggregate, storedFields, validationFailed } from './aggregate.js';
import { Owner, type Customer } from './customer.entity.js';
import { toCustomerMessage } from './customer-message.js';
import { assertRegistrationUnique, withRegistrationUniqueness } from './registration.js';
import {
  applyCustomerUpdate,
  customerFieldsOf,
  effectiveKybScope,
  OWNER_FIELDS,
  validateUpgradeRequest,
  type CurrentCustomer,
  type KybScope,
} from './rules/index.js';

/**
 * POST /customer/{customer}/upgrade-kyb-scope (seed 4.2, 3.1, 7). Answers, in order: 404 (unknown
 * or another business's), 400 while PROCESSING, 422 not a business, 422 already FULL, then 422 for
 * the body, the jurisdiction rule and uniqueness. Readiness checks do not run here (seed 3.2); they
 * run at the next submit. Virtual accounts live in payments and are not touched.
 */
export async function upgradeKybScope(
  em: EntityManager,
  context: CustomerContext,
  actor: Actor,
  input: { customerId: string; body: CustomerInput },
): Promise<CustomerMessage> {
  let customer: Customer | undefined;
  return withRegistrationUniqueness(
    () =>
      em.transactional(async (tx) => {
        const aggregate = await loadAggregate(tx, actor, input.customerId, true);
        const locked = aggregate.customer;
        customer = locked;
        // seed 3.1: while PROCESSING the upgrade is refused whatever the customer (condition "any").
        if (locked.verificationStatus === 'PROCESSING') {
          throw failedPrecondition(
            'UPGRADE_WHILE_PROCESSING',
            `customer ${locked.id} is PROCESSING: it cannot be upgraded while under review; retry once the review ends`,
          );
        }

        if (customer.type !== 'business') {
          throw validationFailed(
            { customer: ['is an individual: only business customers have a KYB scope to upgrade'] },
            'NOT_A_BUSINESS',
          );
        }
        const scope = effectiveKybScope(customer.kybScope as KybScope | null);
        if (scope === 'FULL') {
          throw validationFailed(
            { kyb_scope: ['is already FULL: there is nothing to upgrade (and FULL never returns to MINIMAL)'] },
            'ALREADY_FULL',
          );
        }
        const now = context.now();
        const request = validateUpgradeRequest(input.body, { today: now });
        if (!request.ok) throw validationFailed(request.errors);
        const current = { ...customer.fields, type: customer.type, kyb_scope: customer.kybScope } as CurrentCustomer;
        const applied = applyCustomerUpdate(current, request.value.fields); // country = incorporation_country
        if (!applied.ok) throw validationFailed(applied.errors);

        const after = storedFields(applied.value, customerFieldsOf('business'));
        const changes: MessageInitShape<typeof AuditChanges_CustomerUpgradedSchema> = {
          kybScope: {
            from: customer.kybScope ? enumOf(KybScopeSchema, customer.kybScope) : undefined, // null: stored without a scope
            to: KybScopeValue.FULL,
          },
          fields: dataChange(BusinessDataSchema, customer.fields, after),
        };
        customer.fields = after;
        customer.kybScope = 'FULL';
        customer.updatedAt = now;
        await assertRegistrationUnique(tx, customer);

        let position = Math.max(-1, ...aggregate.owners.map((owner) => owner.position)) + 1;
        const added = request.value.owners.map((owner) =>
          tx.create(Owner, {
            id: randomUUID(),
            customerId: locked.id,
            businessId: locked.businessId,
            status: 'PENDING', // seed 4.2: new owners start as PENDING
            adminComments: [],
            fields: storedFields(owner, OWNER_FIELDS),
            idDocumentFrontId: null,
            idDocumentBackId: null,
            position: position++,
            createdAt: now,
            updatedAt: now,
          }),
        );
        aggregate.owners.push(...added);
        changes.ownersAdded = added.map((owner) => owner.id);

        // seed 3.1: VERIFIED → PENDING (editable again, event); PENDING and REJECTED stay as they are.
        if (customer.verificationStatus === 'VERIFIED') {
          changes.verificationStatus = statusChange('VERIFIED', 'PENDING');
          changeStatus(tx, context, customer, 'PENDING', 'upgrade', now);
        }
        recordAudit(
          tx,
          actor,
          customer,
          'customer.upgraded',
          { action: { case: 'customerUpgraded', value: changes } },
          now,
        );
        return toCustomerMessage(aggregate);
      }),
    () => customer,
  );
}
