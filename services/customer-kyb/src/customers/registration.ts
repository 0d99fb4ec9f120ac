import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { validationFailed } from './aggregate.js';
import { Customer } from './customer.entity.js';

function duplicateRegistration(registrationNumber: string, incorporationCountry: string) {
  // Read after the field's name ("registration_number …"), as seed 7's messages are composed.
  const problem = `${JSON.stringify(registrationNumber)} in ${incorporationCountry} is already another of your business customers: read that customer (GET /customer?registration_number=…) instead of creating it again`;
  return validationFailed(
    {
      registration_number: [problem],
      incorporation_country: [problem],
    },
    'DUPLICATE_REGISTRATION',
  );
}

/**
 * seed 2.1 rule 3 and seed 7: (registration_number, incorporation_country) is unique among one
 * platform's business customers. Checked first for a precise 422; the unique index
 * customer_registration_unique holds it under races (see withRegistrationUniqueness).
 */
export async function assertRegistrationUnique(tx: EntityManager, customer: Customer): Promise<void> {
  const number = customer.fields.registration_number;
  const country = customer.fields.incorporation_country;
  if (customer.type !== 'business' || typeof number !== 'string' || typeof country !== 'string') return;
  const other = await tx.findOne(
    Customer,
    {
      businessId: customer.businessId,
      type: 'business',
      registrationNumber: number,
      incorporationCountry: country,
      id: { $ne: customer.id },
    },
    { fields: ['id'] },
  );
  if (other) throw duplicateRegistration(number, country);
}

/** Runs a write; a race lost to the unique index is the same 422 as the check's. */
export async function withRegistrationUniqueness<T>(write: () => Promise<T>, customer: () => Customer | undefined) {
  try {
    return await write();
  } catch (error) {
    const written = customer();
    if (error instanceof UniqueConstraintViolationException && written) {
      throw duplicateRegistration(
        String(written.fields.registration_number),
        String(written.fields.incorporation_country),
      );
    }
    throw error;
  }
}
