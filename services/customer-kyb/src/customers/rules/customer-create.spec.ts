import { CustomerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { typedBody, withNulls } from '../../../test/typed-bodies.fixtures.js';
import {
  business,
  create,
  errorsOf,
  individual,
  owner,
  validate,
} from '../../../test/customers/rules/customer-create.fixtures.js';
import { firstProblemMessage } from '@corridor/validation';

describe('customer create (seed 2.1, 4.4)', () => {
  it('seed 2.1: type is required and is individual or business', () => {
    expect(errorsOf({ country: 'NG' })).toEqual({ type: ['is required: individual or business'] });
    expect(errorsOf({ country: 'NG', type: null })).toEqual({ type: ['is required: individual or business'] });
  });

  it('seed 4.4: a business requires business_name, registration_number, incorporation_country and country', () => {
    expect(errorsOf({ type: 'business' })).toEqual({
      business_name: ['is required'],
      registration_number: ['is required'],
      incorporation_country: ['is required'],
      country: ['is required'],
    });
    expect(errorsOf({ ...business, business_name: null })).toEqual({ business_name: ['is required'] });
  });

  it('seed 2.1: country is required for both types', () => {
    expect(errorsOf({ ...individual, country: undefined })).toEqual({ country: ['is required'] });
    expect(errorsOf({ ...business, country: undefined })).toEqual({ country: ['is required'] });
  });

  it('seed 2.1: for a business, country must equal incorporation_country', () => {
    const result = create({ ...business, country: 'GB' });
    expect(result).toEqual({
      ok: false,
      errors: {
        country: [
          'must equal incorporation_country (NG) for a business; when changing jurisdiction send country and incorporation_country together',
        ],
      },
    });
    expect(errorsOf({ ...business, country: 'GB', incorporation_country: 'GB' })).toEqual({});
  });

  it('seed 2.1: every country field is an ISO 3166-1 alpha-2 code', () => {
    expect(errorsOf({ ...business, incorporation_country: 'NGA', country: 'ng', operating_country: 'XX' })).toEqual({
      incorporation_country: ['must be an ISO 3166-1 alpha-2 country code (e.g. NG, GB, US); "NGA" is not one'],
      country: ['must be an ISO 3166-1 alpha-2 country code in upper case: NG, not ng'],
      operating_country: ['must be an ISO 3166-1 alpha-2 country code (e.g. NG, GB, US); "XX" is not one'],
    });
  });

  it('seed 2.1 rule 1: KYB and operating_* fields on an individual make the whole request fail', () => {
    const result = create({
      ...individual,
      business_name: 'Acme',
      website: 'https://acme.example',
      operating_city: 'Lagos',
      incorporation_date: '2020-01-01',
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        business_name: ['applies only to business customers (KYB), not to an individual'],
        website: ['applies only to business customers (KYB), not to an individual'],
        operating_city: ['applies only to business customers (operating address), not to an individual'],
        incorporation_date: ['applies only to business customers (KYB), not to an individual'],
      },
    });
  });

  it('seed 2.1 rule 1: kyb_scope and owners do not apply to an individual', () => {
    expect(errorsOf({ ...individual, kyb_scope: 'FULL', owners: [owner] })).toEqual({
      kyb_scope: ['applies only to business customers (KYB), not to an individual'],
      owners: ['applies only to business customers (KYB), not to an individual'],
    });
  });

  it('seed 7: id_type or id_number on a business customer is a 422', () => {
    const errors = errorsOf({ ...business, id_type: 'passport', id_number: 'A0123' });
    expect(errors).toEqual({
      id_type: [
        'applies only to individual customers; a business is identified by registration_number and incorporation_country',
      ],
      id_number: [
        'applies only to individual customers; a business is identified by registration_number and incorporation_country',
      ],
    });
    expect(firstProblemMessage(errors)).toBe(
      'id_type applies only to individual customers; a business is identified by registration_number and incorporation_country',
    );
    expect(errorsOf({ ...business, first_name: 'Ada' })).toEqual({
      first_name: ['applies only to individual customers, not to a business'],
    });
  });

  it('seed 2.1: operating_country is required whenever any other operating_* field is sent', () => {
    expect(errorsOf({ ...business, operating_city: 'Accra', operating_street: '1 Ring Road' })).toEqual({
      operating_country: ['is required when any other operating_* field is sent (operating_street, operating_city)'],
    });
    expect(errorsOf({ ...business, operating_city: 'Accra', operating_country: 'GH' })).toEqual({});
    expect(errorsOf({ ...business, operating_country: 'GH' })).toEqual({});
  });

  it('seed 2.1: operating_country may differ from country and incorporation_country', () => {
    expect(create({ ...business, operating_country: 'GB', operating_zip_code: 'EC1A 1BB' })).toMatchObject({
      ok: true,
      value: { country: 'NG', incorporation_country: 'NG', operating_country: 'GB', operating_zip_code: 'EC1A 1BB' },
    });
  });

  it('seed 2.1: operating_zip_code is validated against operating_country', () => {
    expect(errorsOf({ ...business, operating_country: 'US', operating_zip_code: 'EC1A 1BB' })).toEqual({
      operating_zip_code: ['is not a valid postal code for US (United States of America)'],
    });
    expect(errorsOf({ ...business, operating_country: 'US', operating_zip_code: '10001' })).toEqual({});
  });

  it('seed 2.1: zip_code is validated against country', () => {
    expect(errorsOf({ ...business, zip_code: '10001' })).toEqual({
      zip_code: ['is not a valid postal code for NG (Nigeria)'],
    });
    expect(errorsOf({ ...individual, country: 'GB', zip_code: 'SW1A 1AA' })).toEqual({});
    expect(errorsOf({ ...individual, country: 'AE', zip_code: '00000' })).toEqual({});
  });

  it('names every unknown and read-only field sent as null (the gateway refuses any other value of them)', () => {
    const errorsWithNulls = (...names: string[]) => {
      const result = validate(withNulls(typedBody(CustomerInputSchema, business), ...names));
      return result.ok ? {} : result.errors;
    };
    expect(errorsWithNulls('businessName', 'id', 'verification_status', 'documents')).toEqual({
      businessName: ['is not a recognised field'],
      id: ['is set by Corridor and cannot be sent'],
      verification_status: ['is set by Corridor and cannot be sent'],
      documents: ['cannot be sent here: register KYB documents with POST /customer/{id}/document'],
    });
    const errors = errorsWithNulls('__proto__', 'constructor', 'hasOwnProperty');
    expect(Object.keys(errors)).toEqual(['__proto__', 'constructor', 'hasOwnProperty']);
    expect(Object.values(errors)).toEqual([
      ['is not a recognised field'],
      ['is not a recognised field'],
      ['is not a recognised field'],
    ]);
    expect(JSON.parse(JSON.stringify(errors))).toHaveProperty(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports every problem at once, and still checks formats when the type is missing', () => {
    const errors = errorsOf({ country: 'Nigeria', website: 'x' });
    expect(Object.keys(errors)).toEqual(['type', 'country', 'website']);
  });

  it('an optional field sent as null on create is simply not set', () => {
    expect(create({ ...business, website: null, trading_name: null })).toEqual({
      ok: true,
      value: { ...business, kyb_scope: 'FULL', owners: [] },
    });
  });

  it('returns the typed business customer: its fields, resolved kyb_scope and owners', () => {
    const body = {
      ...business,
      trading_name: 'Acme',
      business_type: 'llc',
      incorporation_date: '2019-03-01',
      website: 'https://acme.example',
      expected_monthly_payments: 250,
      operating_country: 'GH',
      operating_city: 'Accra',
      kyb_scope: 'FULL',
      owners: [
        { ...owner, email: 'ada@acme.example' },
        { ...owner, last_name: 'Eze' },
      ],
    };
    expect(create(body)).toEqual({ ok: true, value: body });
  });
});

describe('individual customer create (seed 2.1 rule 4: fields decided in the README)', () => {
  it('requires first_name, last_name and country', () => {
    expect(errorsOf({ type: 'individual' })).toEqual({
      country: ['is required'],
      first_name: ['is required'],
      last_name: ['is required'],
    });
  });

  it('accepts the individual KYC fields: names, contact, date_of_birth, address, id_type, id_number', () => {
    const body = {
      ...individual,
      email: 'ada@example.com',
      phone: '+2348012345678',
      date_of_birth: '2008-06-15',
      street: '12 Marina Road',
      city: 'Lagos',
      state: 'Lagos',
      zip_code: '100001',
      id_type: 'passport',
      id_number: 'A01234567',
    };
    expect(create(body)).toEqual({ ok: true, value: body });
  });

  it('date_of_birth at least 18 years ago (18 today passes, 18 tomorrow fails)', () => {
    expect(errorsOf({ ...individual, date_of_birth: '2008-06-16' })).toEqual({
      date_of_birth: ['must be at least 18 years before today (2026-06-15)'],
    });
  });

  it('email is an address', () => {
    expect(errorsOf({ ...individual, email: 'ada' })).toEqual({
      email: ['must be an email address like name@example.com; got "ada"'],
    });
  });
});
