import { CustomerInputSchema, type CustomerInput } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { calendarDateOf, type Today } from './calendar.js';
import { checkCustomerConsistency } from './customer-consistency.js';
import { OWNERS_ON_MINIMAL } from './customer-create.js';
import {
  CUSTOMER_FORMATS,
  fieldAppliesTo,
  notApplicableProblem,
  READ_ONLY_CUSTOMER_KEYS,
  REQUIRED_FIELDS,
  type CustomerFieldValues,
  type CustomerType,
} from './customer-fields.js';
import { effectiveKybScope, type KybScope } from './kyb-scope.js';
import { parseOwnerChanges, type OwnerChange } from './owner-changes.js';
import { OWNERS_PATH } from './owners.js';
import type { Nullable, Patch } from './patch.js';
import { parseFields, refuseNullForRequired } from './records.js';
import { sent, sentList } from './typed-body.js';
import { FieldProblems, type ValidationResult } from '@corridor/validation';

/** A stored customer as the rules see it: its type, scope and current field values. */
export type CurrentCustomer = Nullable<CustomerFieldValues> & {
  readonly type: CustomerType;
  /** null: a business created before scopes existed, treated as MINIMAL (seed 2.1). */
  readonly kyb_scope: KybScope | null;
};

/**
 * A valid `PUT /customer/{id}` body (seed 2.1 rule 2): `fields` holds only the properties sent
 * (null meaning "write null"), `owners` is undefined when the body had no `owners`.
 */
export interface CustomerUpdate {
  readonly fields: Patch<CustomerFieldValues>;
  readonly owners: readonly OwnerChange[] | undefined;
}

export interface UpdateCustomerContext {
  readonly today: Today;
  /** The customer being updated: its type decides which fields apply (seed 2.1 rule 1). */
  readonly current: Pick<CurrentCustomer, 'type' | 'kyb_scope'>;
}

export const KYB_SCOPE_NOT_UPDATABLE =
  'cannot be changed by an update: a MINIMAL business moves to FULL with POST /customer/{id}/upgrade-kyb-scope, and FULL never returns to MINIMAL';

/**
 * Validates a `PUT /customer/{id}` body against the customer's type: the same formats and
 * applicability as create, required fields may be omitted but not nulled. Rules between fields run
 * on the result, in applyCustomerUpdate.
 */
export function validateCustomerUpdate(
  body: CustomerInput,
  context: UpdateCustomerContext,
): ValidationResult<CustomerUpdate> {
  const problems = new FieldProblems();
  const sentOf = (name: string) => sent(CustomerInputSchema, body, name);
  const today = calendarDateOf(context.today);
  const { type } = context.current;

  const sentType = sentOf('type');
  if (sentType !== undefined && sentType !== type) {
    problems.add('type', `cannot be changed after the customer is created (this customer is ${type})`);
  }
  if (sentOf('kyb_scope') !== undefined) {
    problems.add('kyb_scope', type === 'business' ? KYB_SCOPE_NOT_UPDATABLE : notApplicableProblem('kyb_scope', type));
  }

  const fields = parseFields(CustomerInputSchema, body, CUSTOMER_FORMATS, {
    path: '',
    today,
    problems,
    handled: ['type', 'kyb_scope', 'owners'],
    refused: READ_ONLY_CUSTOMER_KEYS,
    notApplicable: (field) => (fieldAppliesTo(field, type) ? undefined : notApplicableProblem(field, type)), // seed 2.1 rule 1
  });
  refuseNullForRequired(fields, REQUIRED_FIELDS[type], '', problems); // seed 2.1 rule 2

  let owners: OwnerChange[] | undefined;
  const sentOwners = sentList(body, 'owners', body.owners);
  if (sentOwners !== undefined) {
    if (type === 'individual') problems.add(OWNERS_PATH, notApplicableProblem('owners', type));
    else if (effectiveKybScope(context.current.kyb_scope) === 'FULL')
      owners = parseOwnerChanges(sentOwners, today, problems);
    else if (sentOwners === null || sentOwners.length > 0) problems.add(OWNERS_PATH, OWNERS_ON_MINIMAL);
  }

  return problems.resultOf(() => ({ fields, owners }));
}

/**
 * The customer after the update, with the rules between fields checked on the result (seed 2.1:
 * `country` = `incorporation_country` "checked on create and on update; when changing jurisdiction
 * send both together"; `operating_country` with other operating_* fields; postal codes).
 */
export function applyCustomerUpdate<C extends CurrentCustomer>(
  current: C,
  fields: Patch<CustomerFieldValues>,
): ValidationResult<C> {
  const problems = new FieldProblems();
  const merged = fields.applyTo(current);
  checkCustomerConsistency(current.type, merged, problems, (field) => fields.has(field));
  return problems.resultOf(() => merged);
}
