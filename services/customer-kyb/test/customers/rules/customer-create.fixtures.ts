import { CustomerInputSchema, type CustomerInput } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { typedBody } from '../../typed-bodies.fixtures.js';
import { validateCustomerCreate } from '../../../src/customers/rules/customer-create.js';

/** Shared by the customer-create specs: one clock, minimal valid bodies, and the create call. */
const TODAY = '2026-06-15';
export const business = {
  type: 'business',
  business_name: 'Acme Ltd',
  registration_number: 'RC123456',
  incorporation_country: 'NG',
  country: 'NG',
};
export const individual = { type: 'individual', first_name: 'Ada', last_name: 'Obi', country: 'NG' };
export const owner = { first_name: 'Ada', last_name: 'Obi', ownership_percentage: 50 };

/** The create rules on a typed body. */
export function validate(input: CustomerInput, kybMinimalAllowed = false) {
  return validateCustomerCreate(input, { today: TODAY, kybMinimalAllowed });
}

/** The create rules on a JSON body, as the gateway sends it. */
export const create = (body: Record<string, unknown>, kybMinimalAllowed = false) =>
  validate(typedBody(CustomerInputSchema, body), kybMinimalAllowed);

/** The errors map of a create that must fail ({} when it passed: the assertion then shows why). */
export function errorsOf(body: Record<string, unknown>, kybMinimalAllowed = false): Record<string, string[]> {
  const result = create(body, kybMinimalAllowed);
  return result.ok ? {} : result.errors;
}
