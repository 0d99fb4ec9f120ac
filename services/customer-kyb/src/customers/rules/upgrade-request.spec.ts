import { create } from '@bufbuild/protobuf';
import { CustomerInputSchema, OwnerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { typedBody, withNulls } from '../../../test/typed-bodies.fixtures.js';
import { applyCustomerUpdate, type CurrentCustomer } from './customer-update.js';
import { validateUpgradeRequest } from './upgrade-request.js';
import { firstProblemMessage } from '@corridor/validation';

const TODAY = '2026-06-15';
const minimalBusiness: CurrentCustomer = {
  type: 'business',
  kyb_scope: 'MINIMAL',
  business_name: 'Acme Ltd',
  registration_number: 'RC123456',
  incorporation_country: 'NG',
  country: 'NG',
};
const owner = (ownership_percentage: number, extra: Record<string, unknown> = {}) => ({
  first_name: 'Ada',
  last_name: 'Obi',
  ownership_percentage,
  ...extra,
});

const upgrade = (body: Record<string, unknown>) =>
  validateUpgradeRequest(typedBody(CustomerInputSchema, body), { today: TODAY });
function errorsOf(body: Record<string, unknown>): Record<string, string[]> {
  const result = upgrade(body);
  return result.ok ? {} : result.errors;
}
/** The upgrade's fields applied to the current customer (the jurisdiction rule runs on the result). */
function upgraded(body: Record<string, unknown>, current: CurrentCustomer = minimalBusiness) {
  const result = upgrade(body);
  if (!result.ok) throw new Error(`upgrade refused: ${firstProblemMessage(result.errors)}`);
  return applyCustomerUpdate(current, result.value.fields);
}

describe('upgrade-kyb-scope request (seed 4.2, seed 7, seed 8)', () => {
  it('seed 4.2: returns the new owners and the fields sent with them', () => {
    const result = upgrade({ owners: [owner(60), owner(40, { email: 'obi@acme.example' })], trading_name: 'Acme' });
    if (!result.ok) throw new Error(firstProblemMessage(result.errors));
    expect(result.value.owners).toEqual([owner(60), owner(40, { email: 'obi@acme.example' })]);
    expect(result.value.fields.values).toEqual({ trading_name: 'Acme' });
  });

  it('seed 7: owners missing or empty is a 422', () => {
    const required = { owners: ['is required: 1 to 5 owners whose ownership_percentage values sum to exactly 100'] };
    expect(errorsOf({})).toEqual(required);
    expect(errorsOf({ owners: null })).toEqual(required);
    expect(errorsOf({ owners: [] })).toEqual({
      owners: ['must list at least one owner (an upgrade to FULL KYB needs owners)'],
    });
  });

  it('seed 4.2, seed 8: 1 to 5 owners (1 and 5 pass, 6 fails)', () => {
    expect(errorsOf({ owners: [owner(100)] })).toEqual({});
    expect(errorsOf({ owners: Array.from({ length: 5 }, () => owner(20)) })).toEqual({});
    expect(errorsOf({ owners: [...Array.from({ length: 5 }, () => owner(20)), owner(0)] })).toEqual({
      owners: ['must list at most 5 owners (got 6)'],
    });
  });

  it('seed 4.2, seed 7: ownership percentages must sum to exactly 100', () => {
    const errors = errorsOf({ owners: [owner(60), owner(30)] });
    expect(firstProblemMessage(errors)).toBe(
      'owners ownership_percentage values must sum to exactly 100 (they sum to 90)',
    );
    expect(errorsOf({ owners: [owner(33.33), owner(33.33), owner(33.34)] })).toEqual({});
  });

  it('seed 7: owner emails not unique (case-insensitive) is a 422 naming the owner', () => {
    const errors = errorsOf({
      owners: [owner(50, { email: 'ada@acme.example' }), owner(50, { email: 'Ada@Acme.Example' })],
    });
    expect(firstProblemMessage(errors)).toBe('owners.1.email must be unique within the customer (case-insensitive)');
  });

  it('seed 7: per-owner invariants: under 18, past expiry date, invalid ISO code', () => {
    expect(
      errorsOf({
        owners: [
          owner(50, { date_of_birth: '2008-06-16', id_expiry_date: '2026-06-15' }),
          owner(50, { nationality: 'Nigerian' }),
        ],
      }),
    ).toEqual({
      'owners.0.date_of_birth': ['must be at least 18 years before today (2026-06-15)'],
      'owners.0.id_expiry_date': ['must be after today (2026-06-15): the ID document has expired'],
      'owners.1.nationality': ['must be an ISO 3166-1 alpha-2 country code (e.g. NG, GB, US); "Nigerian" is not one'],
    });
  });

  it('seed 4.2: owner ID files are not part of this payload', () => {
    const entry = withNulls(typedBody(OwnerInputSchema, owner(100)), 'id_document_front');
    const result = validateUpgradeRequest(create(CustomerInputSchema, { owners: { entries: [entry] } }), {
      today: TODAY,
    });
    expect(result.ok ? {} : result.errors).toEqual({
      'owners.0.id_document_front': [
        'is not part of this request: upload owner ID files per slot with POST /customer/{id}/owner/{owner}/files',
      ],
    });
  });

  it('seed 4.2, seed 7: invalid override values are a 422 (the create rules apply)', () => {
    expect(
      errorsOf({
        owners: [owner(100)],
        registration_number: 'R'.repeat(256),
        incorporation_country: 'Nigeria',
        incorporation_date: TODAY,
      }),
    ).toEqual({
      registration_number: ['must be at most 255 characters (got 256)'],
      incorporation_country: ['must be an ISO 3166-1 alpha-2 country code (e.g. NG, GB, US); "Nigeria" is not one'],
      incorporation_date: ['must be in the past (before 2026-06-15)'],
    });
    expect(errorsOf({ owners: [owner(100)], country: null })).toEqual({
      country: ['is required and cannot be null; omit it to leave it unchanged'],
    });
  });

  it('seed 4.2, seed 7: after the overrides, country must equal incorporation_country', () => {
    expect(upgraded({ owners: [owner(100)], incorporation_country: 'GH' })).toEqual({
      ok: false,
      errors: {
        incorporation_country: [
          'must equal country (NG) for a business; when changing jurisdiction send country and incorporation_country together',
        ],
      },
    });
    expect(upgraded({ owners: [owner(100)], incorporation_country: 'GH', country: 'GH' })).toMatchObject({ ok: true });
    // a MINIMAL customer stored with a mismatch cannot be upgraded without fixing it
    expect(upgraded({ owners: [owner(100)] }, { ...minimalBusiness, country: 'GB' })).toMatchObject({ ok: false });
  });

  it('seed 4.2: operating_country is required when any other operating_* field is sent', () => {
    expect(upgraded({ owners: [owner(100)], operating_state: 'Lagos' })).toEqual({
      ok: false,
      errors: { operating_country: ['is required when any other operating_* field is sent (operating_state)'] },
    });
    expect(upgraded({ owners: [owner(100)], operating_state: 'Lagos', operating_country: 'NG' })).toMatchObject({
      ok: true,
    });
  });

  it('seed 4.2: only the fields of the upgrade table may be sent', () => {
    const body = typedBody(CustomerInputSchema, {
      owners: [owner(100)],
      business_name: 'New',
      kyb_scope: 'FULL',
      type: 'business',
    });
    const result = validateUpgradeRequest(withNulls(body, 'website_url'), { today: TODAY });
    expect(result.ok ? {} : result.errors).toEqual({
      business_name: ['cannot be sent to upgrade-kyb-scope; change it with PUT /customer/{id}'],
      kyb_scope: ['is not sent: an upgrade always sets kyb_scope to FULL'],
      type: ['cannot be sent to upgrade-kyb-scope; change it with PUT /customer/{id}'],
      website_url: ['is not a recognised field'],
    });
  });
});
