import { validateCustomerCreate } from './customer-create.js';

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

export function create(body: unknown, kybMinimalAllowed = false) {
  return validateCustomerCreate(body, { today: TODAY, kybMinimalAllowed });
}

/** The errors map of a create that must fail ({} when it passed: the assertion then shows why). */
export function errorsOf(body: unknown, kybMinimalAllowed = false): Record<string, string[]> {
  const result = create(body, kybMinimalAllowed);
  return result.ok ? {} : result.errors;
}
