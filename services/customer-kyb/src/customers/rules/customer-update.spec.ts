import { CustomerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { create } from '@bufbuild/protobuf';
import { typedBody, withNulls } from '../../../test/typed-bodies.fixtures.js';
import { applyCustomerUpdate, validateCustomerUpdate, type CurrentCustomer } from './customer-update.js';
import { firstProblemMessage } from '@corridor/validation';

const TODAY = '2026-06-15';
const OWNER_ID = '6f1c1d2e-8a0b-4c3d-9e4f-0a1b2c3d4e5f';

const currentBusiness: CurrentCustomer = {
  type: 'business',
  kyb_scope: 'FULL',
  business_name: 'Acme Ltd',
  registration_number: 'RC123456',
  incorporation_country: 'NG',
  country: 'NG',
  website: 'https://acme.example',
  trading_name: 'Acme',
  operating_country: 'GB',
  operating_city: 'London',
  operating_zip_code: 'EC1A 1BB',
};
const currentIndividual: CurrentCustomer = {
  type: 'individual',
  kyb_scope: null,
  first_name: 'Ada',
  last_name: 'Obi',
  country: 'NG',
};

function update(body: Record<string, unknown>, current: CurrentCustomer = currentBusiness) {
  return validateCustomerUpdate(typedBody(CustomerInputSchema, body), { today: TODAY, current });
}
function errorsOf(body: Record<string, unknown>, current: CurrentCustomer = currentBusiness): Record<string, string[]> {
  const result = update(body, current);
  return result.ok ? {} : result.errors;
}
/** Validates the body, then applies it to `current`: the whole update as the use case will run it. */
function updated(body: Record<string, unknown>, current: CurrentCustomer = currentBusiness) {
  const result = update(body, current);
  if (!result.ok) throw new Error(`update refused: ${firstProblemMessage(result.errors)}`);
  return applyCustomerUpdate(current, result.value.fields);
}

describe('customer update (seed 2.1 rule 2 and the create rules)', () => {
  it('seed 2.1 rule 2: a property sent as null writes null; an omitted property is left unchanged', () => {
    expect(updated({ website: null, trading_name: 'Acme Group' })).toEqual({
      ok: true,
      value: { ...currentBusiness, website: null, trading_name: 'Acme Group' },
    });
  });

  it('seed 2.1 rule 2: presence survives: the patch lists exactly the properties sent', () => {
    const result = update({ website: null, expected_monthly_payments: 10 });
    if (!result.ok) throw new Error('unexpected');
    // In the typed body's order: set fields, then those sent as null.
    expect(result.value.fields.fieldMask).toEqual(['expected_monthly_payments', 'website']);
    expect(result.value.fields.values).toEqual({ website: null, expected_monthly_payments: 10 });
    expect(result.value.fields.has('trading_name')).toBe(false);
    expect(result.value.owners).toBeUndefined();
    expect(updated({})).toEqual({ ok: true, value: currentBusiness });
  });

  it('seed 2.1 rule 2: required fields cannot be set to null', () => {
    expect(errorsOf({ business_name: null, country: null })).toEqual({
      business_name: ['is required and cannot be null; omit it to leave it unchanged'],
      country: ['is required and cannot be null; omit it to leave it unchanged'],
    });
    expect(errorsOf({ last_name: null }, currentIndividual)).toEqual({
      last_name: ['is required and cannot be null; omit it to leave it unchanged'],
    });
  });

  it('seed 2.1 rule 1: fields that do not apply to the customer type fail the update', () => {
    expect(errorsOf({ operating_city: 'Lagos', registration_number: 'RC1' }, currentIndividual)).toEqual({
      operating_city: ['applies only to business customers (operating address), not to an individual'],
      registration_number: ['applies only to business customers (KYB), not to an individual'],
    });
    expect(errorsOf({ id_number: 'A0123' })).toEqual({
      id_number: [
        'applies only to individual customers; a business is identified by registration_number and incorporation_country',
      ],
    });
  });

  it('seed 2.1: the same formats as create (description 2001, website, incorporation_date today)', () => {
    expect(
      errorsOf({ business_description: 'a'.repeat(2001), website: 'ftp://acme.example', incorporation_date: TODAY }),
    ).toEqual({
      business_description: ['must be at most 2000 characters (got 2001)'],
      website: ['must be an http or https URI like https://example.com; got "ftp://acme.example"'],
      incorporation_date: ['must be in the past (before 2026-06-15)'],
    });
  });

  it('seed 2.1: country must equal incorporation_country on the result of the update', () => {
    expect(updated({ country: 'GH' })).toEqual({
      ok: false,
      errors: {
        country: [
          'must equal incorporation_country (NG) for a business; when changing jurisdiction send country and incorporation_country together',
        ],
      },
    });
    expect(updated({ incorporation_country: 'GH' })).toEqual({
      ok: false,
      errors: {
        incorporation_country: [
          'must equal country (NG) for a business; when changing jurisdiction send country and incorporation_country together',
        ],
      },
    });
  });

  it('seed 2.1: when changing jurisdiction, both sent together pass', () => {
    expect(updated({ country: 'GH', incorporation_country: 'GH' })).toMatchObject({
      ok: true,
      value: { country: 'GH', incorporation_country: 'GH' },
    });
  });

  it('seed 2.1: a stored mismatch (a customer from before the rule) is refused on any update until fixed', () => {
    const legacy: CurrentCustomer = { ...currentBusiness, country: 'GB' };
    expect(updated({ trading_name: 'Acme 2' }, legacy)).toMatchObject({
      ok: false,
      errors: { country: [expect.stringContaining('must equal incorporation_country (NG)')] },
    });
    expect(updated({ country: 'NG' }, legacy)).toMatchObject({ ok: true });
  });

  it('seed 2.1: operating_country is required on the result whenever another operating_* field is set', () => {
    expect(updated({ operating_street: '1 Long Lane' })).toMatchObject({ ok: true });
    expect(updated({ operating_country: null })).toEqual({
      ok: false,
      errors: {
        operating_country: [
          'is required when any other operating_* field is sent (operating_city, operating_zip_code)',
        ],
      },
    });
    expect(updated({ operating_country: null, operating_city: null, operating_zip_code: null })).toMatchObject({
      ok: true,
    });
  });

  it('seed 2.1: operating_zip_code is checked against operating_country on the result', () => {
    expect(updated({ operating_country: 'US' })).toEqual({
      ok: false,
      errors: { operating_zip_code: ['is not a valid postal code for US (United States of America)'] },
    });
    expect(updated({ operating_country: 'US', operating_zip_code: '10001' })).toMatchObject({ ok: true });
  });

  it('seed 2.1: zip_code is checked against country on the result', () => {
    expect(updated({ zip_code: 'SW1A 1AA' }, currentIndividual)).toEqual({
      ok: false,
      errors: { zip_code: ['is not a valid postal code for NG (Nigeria)'] },
    });
    expect(updated({ zip_code: 'SW1A 1AA', country: 'GB' }, currentIndividual)).toMatchObject({ ok: true });
  });

  it('type cannot change; sending the current type is harmless', () => {
    expect(errorsOf({ type: 'individual' })).toEqual({
      type: ['cannot be changed after the customer is created (this customer is business)'],
    });
    expect(errorsOf({ type: null })).toEqual({
      type: ['cannot be changed after the customer is created (this customer is business)'],
    });
    expect(errorsOf({ type: 'business' })).toEqual({});
  });

  it('seed 3.1: kyb_scope is not changed by an update (upgrade-kyb-scope only, never back to MINIMAL)', () => {
    expect(errorsOf({ kyb_scope: 'MINIMAL' })).toEqual({
      kyb_scope: [
        'cannot be changed by an update: a MINIMAL business moves to FULL with POST /customer/{id}/upgrade-kyb-scope, and FULL never returns to MINIMAL',
      ],
    });
    expect(errorsOf({ kyb_scope: 'FULL' }, currentIndividual)).toEqual({
      kyb_scope: ['applies only to business customers (KYB), not to an individual'],
    });
  });

  it('seed 2.1 rule 2: owner entries: with id a change (null writes null), without id a new owner', () => {
    const result = update({
      owners: [
        { id: OWNER_ID, email: null },
        { first_name: 'Chi', last_name: 'Eze', ownership_percentage: 40 },
      ],
    });
    if (!result.ok) throw new Error(firstProblemMessage(result.errors));
    const [change, added] = result.value.owners ?? [];
    expect(change).toMatchObject({ kind: 'change', id: OWNER_ID });
    expect(change?.kind === 'change' && change.patch.values).toEqual({ email: null });
    expect(added).toEqual({ kind: 'add', owner: { first_name: 'Chi', last_name: 'Eze', ownership_percentage: 40 } });
  });

  it('owners do not apply to an individual nor to a MINIMAL business (or one with no scope)', () => {
    const owners = [{ first_name: 'Chi', last_name: 'Eze', ownership_percentage: 40 }];
    expect(errorsOf({ owners }, currentIndividual)).toEqual({
      owners: ['applies only to business customers (KYB), not to an individual'],
    });
    const minimal =
      'do not apply to a MINIMAL KYB customer; send kyb_scope FULL, or add owners later with POST /customer/{id}/upgrade-kyb-scope';
    expect(errorsOf({ owners }, { ...currentBusiness, kyb_scope: 'MINIMAL' })).toEqual({ owners: [minimal] });
    expect(errorsOf({ owners }, { ...currentBusiness, kyb_scope: null })).toEqual({ owners: [minimal] });
    expect(errorsOf({ owners: [] }, { ...currentBusiness, kyb_scope: null })).toEqual({});
  });

  it('names unknown and read-only fields sent as null (the gateway refuses any other value of them)', () => {
    const result = validateCustomerUpdate(withNulls(create(CustomerInputSchema), 'status', 'verification_status'), {
      today: TODAY,
      current: currentBusiness,
    });
    expect(result.ok ? {} : result.errors).toEqual({
      status: ['is not a recognised field'],
      verification_status: ['is set by Corridor and cannot be sent'],
    });
  });
});
