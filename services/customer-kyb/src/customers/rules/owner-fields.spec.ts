import { OwnerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { typedBody, withNulls } from '../../../test/typed-bodies.fixtures.js';
import { calendarDateOf } from './calendar.js';
import { applyOwnerPatch, parseNewOwner, parseOwnerPatch, type NewOwner, type OwnerPatch } from './owner-fields.js';
import { FieldProblems } from '@corridor/validation';

const today = calendarDateOf('2026-06-15');
const OWNER_ID = '6f1c1d2e-8a0b-4c3d-9e4f-0a1b2c3d4e5f';

const fullOwner = {
  first_name: 'Ada',
  last_name: 'Obi',
  ownership_percentage: 60.5,
  email: 'ada@acme.example',
  phone: '+2348012345678',
  date_of_birth: '1990-01-31',
  nationality: 'NG',
  title: 'Director',
  has_control: true,
  is_signer: true,
  is_beneficial_owner: true,
  street: '12 Marina Road',
  city: 'Lagos',
  state: 'Lagos',
  zip_code: '100001',
  country: 'NG',
  id_document_type: 'passport',
  id_document_number: 'A01234567',
  id_document_country: 'NG',
  id_expiry_date: '2030-01-01',
  tin: '12345678-0001',
  is_pep: false,
  usa_tax_residency: false,
};

/** The problems of one new owner at `owners.0`, or its value. */
function newOwner(entry: Record<string, unknown>): { owner: NewOwner | undefined; errors: Record<string, string[]> } {
  const problems = new FieldProblems();
  const owner = parseNewOwner(typedBody(OwnerInputSchema, entry), 'owners.0', today, problems);
  return { owner, errors: problems.errors };
}
const problemsOf = (fields: Record<string, unknown>) => newOwner({ ...fullOwner, ...fields }).errors;

describe('owner fields (seed 2.2)', () => {
  it('seed 2.2: accepts an owner with every input field of the table', () => {
    expect(newOwner(fullOwner)).toEqual({ owner: fullOwner, errors: {} });
  });

  it('seed 2.2: first_name, last_name and ownership_percentage are required', () => {
    expect(newOwner({ email: 'ada@acme.example' }).errors).toEqual({
      'owners.0.first_name': ['is required'],
      'owners.0.last_name': ['is required'],
      'owners.0.ownership_percentage': ['is required'],
    });
    expect(problemsOf({ first_name: null })).toEqual({ 'owners.0.first_name': ['is required'] });
  });

  it('seed 2.2, seed 8: first_name and last_name at most 255 characters (255 passes, 256 fails)', () => {
    expect(problemsOf({ first_name: 'a'.repeat(255), last_name: 'b'.repeat(255) })).toEqual({});
    expect(problemsOf({ first_name: 'a'.repeat(256), last_name: 'b'.repeat(256) })).toEqual({
      'owners.0.first_name': ['must be at most 255 characters (got 256)'],
      'owners.0.last_name': ['must be at most 255 characters (got 256)'],
    });
  });

  it('seed 2.2: ownership_percentage is a number from 0 to 100', () => {
    expect(problemsOf({ ownership_percentage: 0 })).toEqual({});
    expect(problemsOf({ ownership_percentage: 100 })).toEqual({});
    expect(problemsOf({ ownership_percentage: 100.01 })).toEqual({
      'owners.0.ownership_percentage': ['must be from 0 to 100 (got 100.01)'],
    });
    expect(problemsOf({ ownership_percentage: -1 })).toEqual({
      'owners.0.ownership_percentage': ['must be from 0 to 100 (got -1)'],
    });
  });

  it('seed 2.2: email is an email address', () => {
    expect(problemsOf({ email: 'ada-at-acme' })).toEqual({
      'owners.0.email': ['must be an email address like name@example.com; got "ada-at-acme"'],
    });
  });

  it('seed 2.2, seed 8: date_of_birth at least 18 years ago: 18 today passes, 18 tomorrow fails', () => {
    expect(problemsOf({ date_of_birth: '2008-06-15' })).toEqual({});
    expect(problemsOf({ date_of_birth: '2008-06-16' })).toEqual({
      'owners.0.date_of_birth': ['must be at least 18 years before today (2026-06-15)'],
    });
  });

  it('seed 2.2: nationality, country and id_document_country are ISO alpha-2', () => {
    expect(problemsOf({ nationality: 'NGA', country: 'UK', id_document_country: 'ng' })).toEqual({
      'owners.0.nationality': ['must be an ISO 3166-1 alpha-2 country code (e.g. NG, GB, US); "NGA" is not one'],
      'owners.0.country': [
        'must be an assigned ISO 3166-1 alpha-2 country code; UK is reserved (United Kingdom), use GB',
      ],
      'owners.0.id_document_country': ['must be an ISO 3166-1 alpha-2 country code in upper case: NG, not ng'],
    });
  });

  it('seed 2.2, seed 8: street is 9 to 255 characters (8 fails, 9 and 255 pass, 256 fails)', () => {
    expect(problemsOf({ street: 'a'.repeat(8) })).toEqual({
      'owners.0.street': ['must be 9 to 255 characters (got 8)'],
    });
    expect(problemsOf({ street: 'a'.repeat(9) })).toEqual({});
    expect(problemsOf({ street: 'a'.repeat(255) })).toEqual({});
    expect(problemsOf({ street: 'a'.repeat(256) })).toEqual({
      'owners.0.street': ['must be 9 to 255 characters (got 256)'],
    });
  });

  it('seed 2.2, seed 8: tin is 5 to 50 characters (4 fails, 5 and 50 pass, 51 fails)', () => {
    expect(problemsOf({ tin: '1234' })).toEqual({ 'owners.0.tin': ['must be 5 to 50 characters (got 4)'] });
    expect(problemsOf({ tin: '12345' })).toEqual({});
    expect(problemsOf({ tin: '1'.repeat(50) })).toEqual({});
    expect(problemsOf({ tin: '1'.repeat(51) })).toEqual({ 'owners.0.tin': ['must be 5 to 50 characters (got 51)'] });
  });

  it('seed 2.2: id_document_type is passport, drivers_license, id_card or resident_permit', () => {
    for (const type of ['passport', 'drivers_license', 'id_card', 'resident_permit'])
      expect(problemsOf({ id_document_type: type })).toEqual({});
  });

  it('seed 2.2: id_expiry_date strictly in the future: today fails, tomorrow passes', () => {
    expect(problemsOf({ id_expiry_date: '2026-06-15' })).toEqual({
      'owners.0.id_expiry_date': ['must be after today (2026-06-15): the ID document has expired'],
    });
    expect(problemsOf({ id_expiry_date: '2026-06-16' })).toEqual({});
  });

  it('seed 2.2: the free-text fields are not blank', () => {
    expect(problemsOf({ phone: ' ', city: '' })).toEqual({
      'owners.0.phone': ['must not be blank'],
      'owners.0.city': ['must not be blank'],
    });
  });

  it('seed 2.1: the owner zip_code is validated against the owner country', () => {
    expect(problemsOf({ zip_code: 'SW1A 1AA' })).toEqual({
      'owners.0.zip_code': ['is not a valid postal code for NG (Nigeria)'],
    });
    expect(problemsOf({ zip_code: 'SW1A 1AA', country: 'GB' })).toEqual({});
    expect(problemsOf({ zip_code: 'SW1A 1AA', country: null })).toEqual({});
  });

  it('names unknown fields, read-only fields and ID files sent as null, each at its own path', () => {
    const entry = withNulls(
      typedBody(OwnerInputSchema, { ...fullOwner, id: OWNER_ID }),
      'middle_name',
      'status',
      'admin_comments',
      'id_document_front',
    );
    const problems = new FieldProblems();
    parseNewOwner(entry, 'owners.0', today, problems);
    expect(problems.errors).toEqual({
      'owners.0.middle_name': ['is not a recognised field'],
      'owners.0.id': ['is set by Corridor and cannot be sent'],
      'owners.0.status': ['is set by Corridor and cannot be sent'],
      'owners.0.admin_comments': ['is set by Corridor and cannot be sent'],
      'owners.0.id_document_front': [
        'is not part of this request: upload owner ID files per slot with POST /customer/{id}/owner/{owner}/files',
      ],
    });
  });
});

describe('owner changes on update (seed 2.1 rule 2 for entries of owners)', () => {
  function ownerPatch(entry: Record<string, unknown>): {
    change: OwnerPatch | undefined;
    errors: Record<string, string[]>;
  } {
    const problems = new FieldProblems();
    const change = parseOwnerPatch(typedBody(OwnerInputSchema, entry), 'owners.0', today, problems);
    return { change, errors: problems.errors };
  }

  it('seed 2.1 rule 2: on an owner entry, null writes null and an omitted property is left unchanged', () => {
    const { change, errors } = ownerPatch({ id: OWNER_ID, email: null, tin: '98765' });
    expect(errors).toEqual({});
    expect(change?.id).toBe(OWNER_ID);
    // In the typed body's order: set fields, then those sent as null.
    expect(change?.patch.fieldMask).toEqual(['tin', 'email']);
    const current = {
      first_name: 'Ada',
      last_name: 'Obi',
      ownership_percentage: 60,
      email: 'ada@acme.example',
      tin: '11111',
      city: 'Lagos',
    };
    expect(applyOwnerPatch(current, change!, 'owners.0')).toEqual({
      ok: true,
      value: {
        first_name: 'Ada',
        last_name: 'Obi',
        ownership_percentage: 60,
        email: null,
        tin: '98765',
        city: 'Lagos',
      },
    });
  });

  it('seed 2.1 rule 2: required owner fields may be omitted but not set to null', () => {
    expect(ownerPatch({ id: OWNER_ID, city: 'Abuja' }).errors).toEqual({});
    expect(ownerPatch({ id: OWNER_ID, first_name: null, ownership_percentage: null }).errors).toEqual({
      'owners.0.first_name': ['is required and cannot be null; omit it to leave it unchanged'],
      'owners.0.ownership_percentage': ['is required and cannot be null; omit it to leave it unchanged'],
    });
  });

  it('seed 2.2: a change is held to the same formats as a new owner', () => {
    expect(ownerPatch({ id: OWNER_ID, street: 'short', id_expiry_date: '2026-06-15' }).errors).toEqual({
      'owners.0.street': ['must be 9 to 255 characters (got 5)'],
      'owners.0.id_expiry_date': ['must be after today (2026-06-15): the ID document has expired'],
    });
  });

  it('a change names its owner by uuid', () => {
    expect(ownerPatch({ id: 'owner-1', city: 'Abuja' }).errors).toEqual({
      'owners.0.id': ['must be the owner\'s id (a uuid), got "owner-1"'],
    });
  });

  it('seed 2.1: the postal code is checked on the owner after the change (country changed, zip kept)', () => {
    const { change } = ownerPatch({ id: OWNER_ID, country: 'US' });
    const current = {
      first_name: 'Ada',
      last_name: 'Obi',
      ownership_percentage: 60,
      zip_code: '100001',
      country: 'NG',
    };
    expect(applyOwnerPatch(current, change!, 'owners.2')).toEqual({
      ok: false,
      errors: { 'owners.2.zip_code': ['is not a valid postal code for US (United States of America)'] },
    });
  });
});
