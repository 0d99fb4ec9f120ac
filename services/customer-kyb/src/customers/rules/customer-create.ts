import {
  CustomerInputSchema,
  type CustomerInput,
  type OwnerInput,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { calendarDateOf, type CalendarDate, type Today } from './calendar.js';
import { checkCustomerConsistency } from './customer-consistency.js';
import {
  CUSTOMER_FORMATS,
  CUSTOMER_TYPES,
  fieldAppliesTo,
  notApplicableProblem,
  READ_ONLY_CUSTOMER_KEYS,
  REQUIRED_FIELDS,
  type CustomerFieldValues,
  type CustomerType,
} from './customer-fields.js';
import { oneOf } from './field-formats.js';
import { resolveKybScope, type KybScope } from './kyb-scope.js';
import { ownerSetFacts, parseNewOwner, type NewOwner } from './owner-fields.js';
import { checkOwnerEmailsUnique, OWNERS_PATH } from './owners.js';
import { parseFields, requirePresent, withoutNulls } from './records.js';
import { isSent, sent } from './typed-body.js';
import { fieldPath } from './validation.js';
import { FieldProblems, type ValidationResult } from '@corridor/validation';

type CFV = CustomerFieldValues;
type IndividualOnlyField = 'first_name' | 'last_name' | 'date_of_birth' | 'id_type' | 'id_number';
type IndividualField = IndividualOnlyField | 'country' | 'street' | 'city' | 'state' | 'zip_code' | 'email' | 'phone';

export type NewIndividualCustomer = { type: 'individual' } & Pick<CFV, 'country' | 'first_name' | 'last_name'> &
  Partial<Pick<CFV, IndividualField>>;

export type NewBusinessCustomer = { type: 'business'; kyb_scope: KybScope; owners: NewOwner[] } & Pick<
  CFV,
  'business_name' | 'registration_number' | 'incorporation_country' | 'country'
> &
  Partial<Omit<CFV, IndividualOnlyField>>;

/** A valid `POST /customer` body, typed by customer type. */
export type NewCustomer = NewIndividualCustomer | NewBusinessCustomer;

export interface CreateCustomerContext {
  /** Injected clock: rules never read it themselves. */
  readonly today: Today;
  /** The calling platform's `kyb_minimal_allowed` (identity's allow-list, seed part 5). */
  readonly kybMinimalAllowed: boolean;
}

const parseCustomerType = oneOf(CUSTOMER_TYPES);

/** seed 2.1 and seed 1: a MINIMAL business has no owners; FULL is reached by upgrade-kyb-scope. */
export const OWNERS_ON_MINIMAL =
  'do not apply to a MINIMAL KYB customer; send kyb_scope FULL, or add owners later with POST /customer/{id}/upgrade-kyb-scope';

const sentOf = (body: CustomerInput, name: string) => sent(CustomerInputSchema, body, name);

function parseType(body: CustomerInput, today: CalendarDate, problems: FieldProblems): CustomerType | undefined {
  const sentType = sentOf(body, 'type');
  if (sentType === undefined || sentType === null) {
    problems.add('type', 'is required: individual or business');
    return undefined;
  }
  const type = parseCustomerType(sentType, today);
  if (!type.ok) problems.add('type', type.problem);
  return type.ok ? type.value : undefined;
}

function parseOwners(
  value: readonly OwnerInput[] | undefined,
  today: CalendarDate,
  problems: FieldProblems,
): NewOwner[] {
  if (value === undefined) return [];
  const owners: NewOwner[] = [];
  value.forEach((entry, index) => {
    const owner = parseNewOwner(entry, fieldPath(OWNERS_PATH, index), today, problems);
    if (owner) owners.push(owner);
  });
  // seed 2.2: unique within the customer. The sum to 100 is a submit rule (3.2 rule 3), not a create one.
  problems.addAll(checkOwnerEmailsUnique(ownerSetFacts(value, today)) ?? {});
  return owners;
}

/**
 * seed 2.1, 2.2, 4.4 and the end of part 5: validates a `POST /customer` body. Every problem is
 * reported at its field path; fields that do not apply to the type fail the whole request.
 */
export function validateCustomerCreate(
  body: CustomerInput,
  context: CreateCustomerContext,
): ValidationResult<NewCustomer> {
  const problems = new FieldProblems();
  const today = calendarDateOf(context.today);
  const type = parseType(body, today, problems);

  const patch = parseFields(CustomerInputSchema, body, CUSTOMER_FORMATS, {
    path: '',
    today,
    problems,
    handled: ['type', 'kyb_scope', 'owners'],
    refused: READ_ONLY_CUSTOMER_KEYS,
    // seed 2.1 rule 1; seed 7 (id_type / id_number on a business)
    notApplicable: (field) => (type && !fieldAppliesTo(field, type) ? notApplicableProblem(field, type) : undefined),
  });
  if (type) requirePresent(patch, REQUIRED_FIELDS[type], '', problems);

  let kybScope: KybScope | undefined;
  if (type === 'individual') {
    for (const key of ['kyb_scope', 'owners'] as const) {
      if (isSent(CustomerInputSchema, body, key)) problems.add(key, notApplicableProblem(key, type));
    }
  } else if (type === 'business') {
    const scope = resolveKybScope(sentOf(body, 'kyb_scope'), context.kybMinimalAllowed); // seed part 5
    if (scope.ok) kybScope = scope.value;
    else problems.add('kyb_scope', scope.problem);
  }

  const owners = type === 'individual' ? [] : parseOwners(body.owners?.entries, today, problems);
  if (kybScope === 'MINIMAL' && body.owners && body.owners.entries.length > 0) {
    problems.add(OWNERS_PATH, OWNERS_ON_MINIMAL);
  }

  const values = withoutNulls(patch.values);
  if (type) checkCustomerConsistency(type, values, problems);

  return problems.resultOf((): NewCustomer => {
    if (type === 'business' && kybScope) {
      const { business_name, registration_number, incorporation_country, country } = values;
      if (business_name && registration_number && incorporation_country && country) {
        return {
          ...values,
          type,
          kyb_scope: kybScope,
          owners,
          business_name,
          registration_number,
          incorporation_country,
          country,
        };
      }
    }
    const { country, first_name, last_name } = values;
    if (type === 'individual' && country && first_name && last_name) {
      return { ...values, type, country, first_name, last_name };
    }
    throw new Error('unreachable: a customer without its required fields passed validation');
  });
}
