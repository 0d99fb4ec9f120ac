import {
  CustomerInputSchema,
  type CustomerInput,
  type OwnerInput,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { UPGRADE_KYB_SCOPE_FIELDS } from '@corridor/contracts/customer-words';
import { calendarDateOf, type CalendarDate, type Today } from './calendar.js';
import { CUSTOMER_FORMATS, type CustomerField, type CustomerFieldValues } from './customer-fields.js';
import { ownerSetFacts, parseNewOwner, type NewOwner } from './owner-fields.js';
import { checkOwnerEmailsUnique, checkOwnershipSumsTo100, checkUpgradeOwnerCount, OWNERS_PATH } from './owners.js';
import type { Patch } from './patch.js';
import { parseFields, refuseNullForRequired, SET_BY_CORRIDOR } from './records.js';
import { fieldPath } from './validation.js';
import { FieldProblems, type ValidationResult } from '@corridor/validation';

/** seed 4.2: the customer fields an upgrade request may override or add, besides `owners`. */
export const UPGRADE_FIELDS: readonly CustomerField[] = UPGRADE_KYB_SCOPE_FIELDS;

/** A valid upgrade-kyb-scope body: the new owners, and the fields sent with it (an update patch). */
export interface UpgradeRequest {
  readonly owners: readonly NewOwner[];
  readonly fields: Patch<CustomerFieldValues>;
}

const NOT_AN_UPGRADE_FIELD = 'cannot be sent to upgrade-kyb-scope; change it with PUT /customer/{id}';

function parseUpgradeOwners(
  value: readonly OwnerInput[] | undefined,
  today: CalendarDate,
  problems: FieldProblems,
): NewOwner[] {
  if (value === undefined) {
    problems.add(OWNERS_PATH, 'is required: 1 to 5 owners whose ownership_percentage values sum to exactly 100');
    return [];
  }
  const countProblem = checkUpgradeOwnerCount(value.length); // seed 4.2, seed 8
  if (countProblem) problems.add(OWNERS_PATH, countProblem);
  const owners: NewOwner[] = [];
  value.forEach((entry, index) => {
    const owner = parseNewOwner(entry, fieldPath(OWNERS_PATH, index), today, problems);
    if (owner) owners.push(owner);
  });
  const facts = ownerSetFacts(value, today);
  problems.addAll(checkOwnerEmailsUnique(facts) ?? {}); // seed 2.2, seed 7
  if (value.length > 0 && facts.every((owner) => owner.ownership_percentage !== null)) {
    problems.addAll(checkOwnershipSumsTo100(facts) ?? {}); // seed 4.2, seed 7
  }
  return owners;
}

/**
 * seed 4.2 and seed 7: validates a `POST /customer/{customer}/upgrade-kyb-scope` body. The
 * jurisdiction rule ("after changes must equal country") runs on the result: pass `fields` to
 * applyCustomerUpdate with the current customer. Eligibility (business, MINIMAL, not PROCESSING)
 * depends on the stored customer and is the use case's.
 */
export function validateUpgradeRequest(
  body: CustomerInput,
  context: { readonly today: Today },
): ValidationResult<UpgradeRequest> {
  const problems = new FieldProblems();
  const today = calendarDateOf(context.today);
  const owners = parseUpgradeOwners(body.owners?.entries, today, problems);
  const fields = parseFields(CustomerInputSchema, body, CUSTOMER_FORMATS, {
    path: '',
    today,
    problems,
    handled: ['owners'],
    refused: {
      id: SET_BY_CORRIDOR,
      verification_status: SET_BY_CORRIDOR,
      type: NOT_AN_UPGRADE_FIELD,
      kyb_scope: 'is not sent: an upgrade always sets kyb_scope to FULL',
      documents: 'cannot be sent here: register KYB documents with POST /customer/{id}/document',
    },
    notApplicable: (field) => (UPGRADE_FIELDS.includes(field) ? undefined : NOT_AN_UPGRADE_FIELD),
  });
  refuseNullForRequired(fields, ['registration_number', 'incorporation_country', 'country'], '', problems);
  return problems.resultOf(() => ({ owners, fields }));
}
