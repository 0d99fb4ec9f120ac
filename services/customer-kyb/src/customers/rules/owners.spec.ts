import {
  backIsRequired,
  checkIdSlots,
  checkIdSlotUpload,
  checkOwnerEmailsUnique,
  checkOwnershipSumsTo100,
  checkUpgradeOwnerCount,
} from './owners.js';

const shares = (...values: (number | null)[]) => values.map((ownership_percentage) => ({ ownership_percentage }));

describe('owners as a set', () => {
  it('seed 3.2 rule 3: ownership must sum to exactly 100', () => {
    expect(checkOwnershipSumsTo100(shares(100))).toBeUndefined();
    expect(checkOwnershipSumsTo100(shares(50, 50))).toBeUndefined();
    expect(checkOwnershipSumsTo100(shares(60, 30))).toEqual({
      owners: ['ownership_percentage values must sum to exactly 100 (they sum to 90)'],
    });
    expect(checkOwnershipSumsTo100(shares(60, 50))).toEqual({
      owners: ['ownership_percentage values must sum to exactly 100 (they sum to 110)'],
    });
    expect(checkOwnershipSumsTo100(shares(50, 49.99))).toEqual({
      owners: ['ownership_percentage values must sum to exactly 100 (they sum to 99.99)'],
    });
    expect(checkOwnershipSumsTo100(shares(50, 50.01))).toEqual({
      owners: ['ownership_percentage values must sum to exactly 100 (they sum to 100.01)'],
    });
    expect(checkOwnershipSumsTo100([])).toEqual({
      owners: ['ownership_percentage values must sum to exactly 100 (they sum to 0)'],
    });
  });

  it('seed 3.2 rule 3: the sum is exact where floating point is not (33.33 + 33.33 + 33.34, 0.01 + 65.4 + 34.59)', () => {
    expect(0.01 + 65.4 + 34.59).not.toBe(100); // the trap: 100.00000000000001 in binary floating point
    expect(checkOwnershipSumsTo100(shares(0.01, 65.4, 34.59))).toBeUndefined();
    expect(checkOwnershipSumsTo100(shares(33.33, 33.33, 33.34))).toBeUndefined();
    expect(checkOwnershipSumsTo100(shares(0.1, 0.2, 99.7))).toBeUndefined();
    expect(checkOwnershipSumsTo100(shares(10.1, 20.2, 69.7))).toBeUndefined();
    expect(checkOwnershipSumsTo100(shares(33.33, 33.33, 33.33))).toEqual({
      owners: ['ownership_percentage values must sum to exactly 100 (they sum to 99.99)'],
    });
    expect(checkOwnershipSumsTo100(shares(0, 0, 100))).toBeUndefined();
    // issue 18: seed 2.2 sets no precision, so a third each is written to six places
    expect(checkOwnershipSumsTo100(shares(33.333, 33.333, 33.334))).toBeUndefined();
    expect(checkOwnershipSumsTo100(shares(33.333333, 33.333333, 33.333333))).toEqual({
      owners: ['ownership_percentage values must sum to exactly 100 (they sum to 99.999999)'],
    });
  });

  it('seed 3.2 rule 3: a missing or unrepresentable percentage is named at its own path', () => {
    expect(checkOwnershipSumsTo100(shares(50, null, 33.3333333))).toEqual({
      'owners.1.ownership_percentage': ['must be a number from 0 to 100 with at most 6 decimal places'],
      'owners.2.ownership_percentage': ['must be a number from 0 to 100 with at most 6 decimal places'],
    });
  });

  it('seed 3.2 rule 4: owner emails must be unique within the customer (case-insensitive)', () => {
    const emails = (...values: (string | null)[]) => values.map((email) => ({ email }));
    expect(checkOwnerEmailsUnique(emails('ada@acme.example', 'obi@acme.example', null, null))).toBeUndefined();
    expect(checkOwnerEmailsUnique(emails('ada@acme.example', 'Ada@ACME.example'))).toEqual({
      'owners.1.email': ['must be unique within the customer (case-insensitive)'],
    });
    expect(checkOwnerEmailsUnique(emails('a@x.example', 'b@x.example', 'A@x.example', 'a@X.EXAMPLE'))).toEqual({
      'owners.2.email': ['must be unique within the customer (case-insensitive)'],
      'owners.3.email': ['must be unique within the customer (case-insensitive)'],
    });
  });

  it('seed 4.2, seed 8: an upgrade carries 1 to 5 owners (0 and 6 fail, 1 and 5 pass)', () => {
    expect(checkUpgradeOwnerCount(0)).toBe('must list at least one owner (an upgrade to FULL KYB needs owners)');
    expect(checkUpgradeOwnerCount(1)).toBeUndefined();
    expect(checkUpgradeOwnerCount(5)).toBeUndefined();
    expect(checkUpgradeOwnerCount(6)).toBe('must list at most 5 owners (got 6)');
  });
});

describe('owner ID slots (seed 2.2, seed 3.2 rule 5)', () => {
  it('seed 2.2: every owner needs a front', () => {
    expect(checkIdSlots('passport', [], 'owners.0')).toEqual({
      'owners.0.id_document_front': ['is required: every owner needs the front of an ID document'],
    });
    expect(checkIdSlots('passport', ['id_document_front'], 'owners.0')).toBeUndefined();
  });

  it('seed 2.2: drivers_license, id_card and resident_permit need a back', () => {
    for (const [type, named] of [
      ['drivers_license', 'a drivers_license'],
      ['id_card', 'an id_card'],
      ['resident_permit', 'a resident_permit'],
    ] as const) {
      expect(backIsRequired(type)).toBe(true);
      expect(checkIdSlots(type, ['id_document_front'], 'owners.1')).toEqual({
        'owners.1.id_document_back': [`is required for ${named}`],
      });
      expect(checkIdSlots(type, ['id_document_front', 'id_document_back'], 'owners.1')).toBeUndefined();
    }
    expect(checkIdSlots('id_card', [], 'owners.1')).toEqual({
      'owners.1.id_document_front': ['is required: every owner needs the front of an ID document'],
      'owners.1.id_document_back': ['is required for an id_card'],
    });
  });

  it('seed 2.2: a passport must not have a back', () => {
    expect(backIsRequired('passport')).toBe(false);
    expect(checkIdSlots('passport', ['id_document_front', 'id_document_back'], 'owners.0')).toEqual({
      'owners.0.id_document_back': ['must not be present for a passport (it has no back)'],
    });
    expect(checkIdSlotUpload('passport', 'id_document_back')).toBe(
      'must not be uploaded for a passport (it has no back)',
    );
    expect(checkIdSlotUpload('passport', 'id_document_front')).toBeUndefined();
    expect(checkIdSlotUpload('id_card', 'id_document_back')).toBeUndefined();
    expect(checkIdSlotUpload(null, 'id_document_back')).toBeUndefined();
  });

  it('the slots cannot be judged without an id_document_type', () => {
    expect(checkIdSlots(null, ['id_document_front'], 'owners.0')).toEqual({
      'owners.0.id_document_type': ['is required to check the owner ID files (front, and back unless a passport)'],
    });
  });
});
