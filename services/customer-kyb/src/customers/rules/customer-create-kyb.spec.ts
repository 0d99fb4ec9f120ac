import { business, create, errorsOf, owner } from '../../../test/customers/rules/customer-create.fixtures.js';
import { ACCOUNT_PURPOSES, ANNUAL_REVENUE_BANDS, BUSINESS_TYPES, SOURCES_OF_FUNDS } from './customer-fields.js';
import { firstProblemMessage } from '@corridor/validation';

describe('business customer create: KYB fields, kyb_scope and owners (seed 2.1, 2.2, 4.4, 5)', () => {
  it('seed 2.1: business_type, source_of_funds, estimated_annual_revenue and account_purpose take exactly the seed values', () => {
    const enums = {
      business_type: BUSINESS_TYPES,
      source_of_funds: SOURCES_OF_FUNDS,
      estimated_annual_revenue: ANNUAL_REVENUE_BANDS,
      account_purpose: ACCOUNT_PURPOSES,
    };
    expect(BUSINESS_TYPES).toHaveLength(7);
    expect(SOURCES_OF_FUNDS).toHaveLength(5);
    expect(ANNUAL_REVENUE_BANDS).toEqual([
      '0_99999',
      '100000_499999',
      '500000_999999',
      '1000000_4999999',
      '5000000_24999999',
      '25000000_99999999',
      '100000000_249999999',
      '250000000_plus',
    ]);
    expect(ACCOUNT_PURPOSES).toHaveLength(4);
    for (const [field, values] of Object.entries(enums)) {
      // Another word never arrives: the gateway reads words against the same proto enum.
      for (const value of values) expect(errorsOf({ ...business, [field]: value })).toEqual({});
    }
  });

  it('seed 2.1: incorporation_date must be a real date in the past (yesterday passes, today fails)', () => {
    expect(errorsOf({ ...business, incorporation_date: '2026-06-14' })).toEqual({});
    expect(errorsOf({ ...business, incorporation_date: '2026-06-15' })).toEqual({
      incorporation_date: ['must be in the past (before 2026-06-15)'],
    });
    expect(errorsOf({ ...business, incorporation_date: '2021-02-29' })).toEqual({
      incorporation_date: ['must be a real calendar date as YYYY-MM-DD; got "2021-02-29"'],
    });
  });

  it('seed 2.1, seed 8: business_description at most 2000 characters (2000 passes, 2001 fails)', () => {
    expect(errorsOf({ ...business, business_description: 'a'.repeat(2000) })).toEqual({});
    expect(errorsOf({ ...business, business_description: 'a'.repeat(2001) })).toEqual({
      business_description: ['must be at most 2000 characters (got 2001)'],
    });
  });

  it('seed 2.1: website is an http or https URI', () => {
    expect(errorsOf({ ...business, website: 'https://acme.example' })).toEqual({});
    expect(errorsOf({ ...business, website: 'acme.example' })).toEqual({
      website: ['must be an http or https URI like https://example.com; got "acme.example"'],
    });
  });

  it('seed 2.1: expected_monthly_payments is a non-negative integer', () => {
    expect(errorsOf({ ...business, expected_monthly_payments: 0 })).toEqual({});
    expect(errorsOf({ ...business, expected_monthly_payments: -1 })).toEqual({
      expected_monthly_payments: ['must be at least 0 (got -1)'],
    });
  });

  it('seed 2.1, seed 8: business text fields at most 255 characters (255 passes, 256 fails)', () => {
    const long = (n: number) => 'a'.repeat(n);
    expect(
      errorsOf({ ...business, business_name: long(255), trading_name: long(255), industry_type: long(255) }),
    ).toEqual({});
    expect(errorsOf({ ...business, business_name: long(256), registration_number: long(256) })).toEqual({
      business_name: ['must be at most 255 characters (got 256)'],
      registration_number: ['must be at most 255 characters (got 256)'],
    });
  });

  it('seed 5: a platform not allow-listed gets FULL by default, and MINIMAL is a 422 naming kyb_scope', () => {
    expect(create(business, false)).toMatchObject({ ok: true, value: { kyb_scope: 'FULL' } });
    const errors = errorsOf({ ...business, kyb_scope: 'MINIMAL' }, false);
    expect(firstProblemMessage(errors)).toBe(
      'kyb_scope MINIMAL is not available to this platform (it is not allow-listed for MINIMAL KYB); send FULL or omit kyb_scope',
    );
  });

  it('seed 5: an allow-listed platform gets MINIMAL by default and may send FULL', () => {
    expect(create(business, true)).toMatchObject({ ok: true, value: { kyb_scope: 'MINIMAL' } });
    expect(create({ ...business, kyb_scope: 'FULL' }, true)).toMatchObject({ ok: true, value: { kyb_scope: 'FULL' } });
  });

  it('seed 4.4: owners are optional on create and validated like seed 2.2 at owners.N.field', () => {
    expect(create({ ...business, owners: [] })).toMatchObject({ ok: true, value: { owners: [] } });
    expect(errorsOf({ ...business, owners: [owner, { ...owner, tin: '1234' }] })).toEqual({
      'owners.1.tin': ['must be 5 to 50 characters (got 4)'],
    });
  });

  it('seed 2.2: owner emails must be unique within the customer (case-insensitive), even on create', () => {
    const errors = errorsOf({
      ...business,
      owners: [
        { ...owner, email: 'ada@acme.example' },
        { ...owner, email: 'ADA@acme.example', street: 'short' },
      ],
    });
    expect(errors).toEqual({
      'owners.1.street': ['must be 9 to 255 characters (got 5)'],
      'owners.1.email': ['must be unique within the customer (case-insensitive)'],
    });
  });

  it('seed 3.2 rule 3 is a submit rule: owners summing to less than 100 may be created and completed later', () => {
    expect(create({ ...business, owners: [{ ...owner, ownership_percentage: 30 }] })).toMatchObject({ ok: true });
  });

  it('seed 1: a MINIMAL business has no owners', () => {
    expect(errorsOf({ ...business, owners: [owner] }, true)).toEqual({
      owners: [
        'do not apply to a MINIMAL KYB customer; send kyb_scope FULL, or add owners later with POST /customer/{id}/upgrade-kyb-scope',
      ],
    });
    expect(create({ ...business, owners: [] }, true)).toMatchObject({
      ok: true,
      value: { kyb_scope: 'MINIMAL', owners: [] },
    });
  });
});
