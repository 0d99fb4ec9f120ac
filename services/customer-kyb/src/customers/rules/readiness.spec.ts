import { FORMATION_DOCUMENT_TYPES, isFormationDocumentType } from './kyb-documents.js';
import { checkReadiness, READINESS_CHECKS, type ReadinessOwner, type ReadinessSubject } from './readiness.js';

const TODAY = '2026-06-15';

const ownerAda: ReadinessOwner = {
  ownership_percentage: 60,
  email: 'ada@acme.example',
  date_of_birth: '1990-01-31',
  id_expiry_date: '2030-01-01',
  nationality: 'NG',
  country: 'NG',
  id_document_country: 'NG',
  id_document_type: 'passport',
  id_slots: ['id_document_front'],
};
const ownerObi: ReadinessOwner = {
  ...ownerAda,
  ownership_percentage: 40,
  email: 'obi@acme.example',
  id_document_type: 'drivers_license',
  id_slots: ['id_document_front', 'id_document_back'],
};
const ready: ReadinessSubject = {
  kyb_scope: 'FULL',
  business_name: 'Acme Ltd',
  registration_number: 'RC123456',
  incorporation_country: 'NG',
  country: 'NG',
  owners: [ownerAda, ownerObi],
  documents: [{ type: 'CERTIFICATE_OF_INCORPORATION' }],
};
const withOwners = (...owners: ReadinessOwner[]): ReadinessSubject => ({ ...ready, owners });
const submit = (subject: ReadinessSubject, today = TODAY) => checkReadiness(subject, today);

describe('readiness checks at submit (seed 3.2)', () => {
  it('seed 3.2: a complete FULL business passes every check', () => {
    expect(submit(ready)).toEqual({ ok: true, kybScope: 'FULL' });
  });

  it('seed 3.2: seven named checks, in the seed order', () => {
    expect(READINESS_CHECKS.map((check) => [check.rule, check.name, check.ownersOnly])).toEqual([
      [1, 'BusinessIdentityComplete', false],
      [2, 'AtLeastOneOwner', true],
      [3, 'OwnershipMustSumTo100', true],
      [4, 'OwnerEmailsUnique', true],
      [5, 'OwnerIdSlotsConsistent', true],
      [6, 'OwnerIdentityInvariants', true],
      [7, 'FormationDocumentPresent', false],
    ]);
  });

  it('seed 3.2 rule 1: business_name, registration_number and a valid incorporation_country must be set', () => {
    expect(submit({ ...ready, business_name: null, registration_number: ' ', incorporation_country: null })).toEqual({
      ok: false,
      check: 'BusinessIdentityComplete',
      rule: 1,
      message: 'business_name is required before submitting for verification',
      errors: {
        business_name: ['is required before submitting for verification'],
        registration_number: ['is required before submitting for verification'],
        incorporation_country: ['is required before submitting for verification'],
      },
    });
    expect(submit({ ...ready, incorporation_country: 'XK', country: 'XK' })).toMatchObject({
      check: 'BusinessIdentityComplete',
      message: 'incorporation_country must be an ISO 3166-1 alpha-2 country code (e.g. NG, GB, US); "XK" is not one',
    });
  });

  it('seed 3.2 rule 1: country must equal incorporation_country', () => {
    expect(submit({ ...ready, country: 'GH' })).toMatchObject({
      ok: false,
      rule: 1,
      message:
        'country must equal incorporation_country (NG) before submitting; when changing jurisdiction send both together',
    });
    expect(submit({ ...ready, country: null })).toMatchObject({
      rule: 1,
      message: 'country is required before submitting for verification',
    });
  });

  it('seed 3.2 rule 2: at least one owner', () => {
    expect(submit(withOwners())).toEqual({
      ok: false,
      check: 'AtLeastOneOwner',
      rule: 2,
      message: 'owners must include at least one owner for FULL KYB',
      errors: { owners: ['must include at least one owner for FULL KYB'] },
    });
  });

  it('seed 3.2 rule 3: ownership must sum to exactly 100', () => {
    expect(submit(withOwners(ownerAda, { ...ownerObi, ownership_percentage: 30 }))).toMatchObject({
      ok: false,
      check: 'OwnershipMustSumTo100',
      rule: 3,
      message: 'owners ownership_percentage values must sum to exactly 100 (they sum to 90)',
    });
    expect(
      submit(withOwners({ ...ownerAda, ownership_percentage: 66.67 }, { ...ownerObi, ownership_percentage: 33.33 })),
    ).toMatchObject({ ok: true });
  });

  it('seed 3.2 rule 4: owner emails must be unique (case-insensitive)', () => {
    expect(submit(withOwners(ownerAda, { ...ownerObi, email: 'ADA@acme.example' }))).toMatchObject({
      ok: false,
      check: 'OwnerEmailsUnique',
      rule: 4,
      message: 'owners.1.email must be unique within the customer (case-insensitive)',
    });
  });

  it('seed 3.2 rule 5: owner ID slots must be consistent (front always, back per type, none for a passport)', () => {
    expect(submit(withOwners({ ...ownerAda, id_slots: [] }, ownerObi))).toMatchObject({
      check: 'OwnerIdSlotsConsistent',
      rule: 5,
      message: 'owners.0.id_document_front is required: every owner needs the front of an ID document',
    });
    expect(submit(withOwners(ownerAda, { ...ownerObi, id_slots: ['id_document_front'] }))).toMatchObject({
      rule: 5,
      message: 'owners.1.id_document_back is required for a drivers_license',
    });
    expect(
      submit(withOwners({ ...ownerAda, id_slots: ['id_document_front', 'id_document_back'] }, ownerObi)),
    ).toMatchObject({
      rule: 5,
      message: 'owners.0.id_document_back must not be present for a passport (it has no back)',
    });
  });

  it('seed 3.2 rule 6: date_of_birth at least 18 years ago, checked again at submit (18 today passes, tomorrow fails)', () => {
    expect(submit(withOwners({ ...ownerAda, date_of_birth: '2008-06-15' }, ownerObi))).toMatchObject({ ok: true });
    expect(submit(withOwners({ ...ownerAda, date_of_birth: '2008-06-16' }, ownerObi))).toMatchObject({
      ok: false,
      check: 'OwnerIdentityInvariants',
      rule: 6,
      message: 'owners.0.date_of_birth must be at least 18 years before today (2026-06-15)',
    });
  });

  it('seed 3.2 rule 6: id_expiry_date strictly after today (valid when added, expired by submit)', () => {
    const expiresToday = withOwners(ownerAda, { ...ownerObi, id_expiry_date: '2026-06-15' });
    expect(submit(expiresToday, '2026-06-14')).toMatchObject({ ok: true });
    expect(submit(expiresToday, '2026-06-15')).toMatchObject({
      rule: 6,
      message: 'owners.1.id_expiry_date must be after today (2026-06-15): the ID document has expired',
    });
  });

  it('seed 3.2 rule 6: nationality, country and id_document_country valid alpha-2 where set', () => {
    expect(
      submit(withOwners({ ...ownerAda, nationality: null, country: null, id_document_country: null }, ownerObi)),
    ).toMatchObject({ ok: true });
    expect(
      submit(withOwners({ ...ownerAda, nationality: 'UK', country: 'ng', id_document_country: 'ZZ' }, ownerObi)),
    ).toEqual({
      ok: false,
      check: 'OwnerIdentityInvariants',
      rule: 6,
      message:
        'owners.0.nationality must be an assigned ISO 3166-1 alpha-2 country code; UK is reserved (United Kingdom), use GB',
      errors: {
        'owners.0.nationality': [
          'must be an assigned ISO 3166-1 alpha-2 country code; UK is reserved (United Kingdom), use GB',
        ],
        'owners.0.country': ['must be an ISO 3166-1 alpha-2 country code in upper case: NG, not ng'],
        'owners.0.id_document_country': [
          'must be an ISO 3166-1 alpha-2 country code (e.g. NG, GB, US); "ZZ" is not one',
        ],
      },
    });
  });

  it('seed 3.2 rule 7: at least one KYB document of a formation type (seed 2.3)', () => {
    const message =
      'documents must include at least one formation document (CERTIFICATE_OF_INCORPORATION, ARTICLES_OF_INCORPORATION, BENEFICIAL_OWNERSHIP_CERTIFICATE, INCORPORATION_DOCUMENTS, CAC_STATUS_REPORT)';
    expect(submit({ ...ready, documents: [] })).toMatchObject({
      ok: false,
      check: 'FormationDocumentPresent',
      rule: 7,
      message,
    });
    expect(
      submit({ ...ready, documents: [{ type: 'PROOF_OF_ADDRESS' }, { type: 'certificate_of_incorporation' }] }),
    ).toMatchObject({ rule: 7, message });
    for (const type of FORMATION_DOCUMENT_TYPES)
      expect(submit({ ...ready, documents: [{ type }] })).toMatchObject({ ok: true });
  });

  it('seed 2.3: the five formation document types, exactly', () => {
    expect(FORMATION_DOCUMENT_TYPES).toEqual([
      'CERTIFICATE_OF_INCORPORATION',
      'ARTICLES_OF_INCORPORATION',
      'BENEFICIAL_OWNERSHIP_CERTIFICATE',
      'INCORPORATION_DOCUMENTS',
      'CAC_STATUS_REPORT',
    ]);
    expect(isFormationDocumentType('CAC_STATUS_REPORT')).toBe(true);
    expect(isFormationDocumentType('BANK_STATEMENT')).toBe(false);
  });

  it('seed 3.2: checks run in order and the first failure is reported', () => {
    const failsThreeAndSeven = { ...withOwners({ ...ownerAda, ownership_percentage: 10 }), documents: [] };
    expect(submit(failsThreeAndSeven)).toMatchObject({ rule: 3 });
    expect(submit({ ...failsThreeAndSeven, business_name: null })).toMatchObject({ rule: 1 });
  });

  it('seed 3.2: the MINIMAL path skips the owner checks (2 to 6) but keeps 1 and 7', () => {
    const minimal: ReadinessSubject = { ...ready, kyb_scope: 'MINIMAL', owners: [] };
    expect(submit(minimal)).toEqual({ ok: true, kybScope: 'MINIMAL' });
    expect(submit({ ...minimal, owners: [{ ...ownerAda, ownership_percentage: 5, id_slots: [] }] })).toMatchObject({
      ok: true,
    });
    expect(submit({ ...minimal, business_name: null })).toMatchObject({ rule: 1 });
    expect(submit({ ...minimal, documents: [] })).toMatchObject({ rule: 7 });
  });

  it('seed 2.1: a business with no scope set is checked on the MINIMAL path', () => {
    expect(submit({ ...ready, kyb_scope: null, owners: [] })).toEqual({ ok: true, kybScope: 'MINIMAL' });
  });
});
