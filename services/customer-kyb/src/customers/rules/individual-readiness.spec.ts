import { checkIndividualReadiness, type IndividualReadinessSubject } from './individual-readiness.js';

const TODAY = '2026-11-21';
const ready: IndividualReadinessSubject = {
  first_name: 'Ada',
  last_name: 'Obi',
  country: 'NG',
  date_of_birth: '1990-01-01',
  id_type: 'id_card',
  id_number: 'A123',
  has_id_file: true,
  has_id_file_back: true,
};

describe('submit for an individual (decision 0008)', () => {
  it('passes with identity fields, an adult and both sides of an id_card', () => {
    expect(checkIndividualReadiness(ready, TODAY)).toEqual({ ok: true });
  });

  it('names every missing identity field', () => {
    const outcome = checkIndividualReadiness({ has_id_file: true, has_id_file_back: false }, TODAY);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(Object.keys(outcome.errors)).toEqual([
      'first_name',
      'last_name',
      'country',
      'date_of_birth',
      'id_type',
      'id_number',
    ]);
    expect(outcome.message).toBe('first_name is required before submitting for verification');
  });

  it('refuses someone under 18 on the day of submit', () => {
    const outcome = checkIndividualReadiness({ ...ready, date_of_birth: '2008-11-22' }, TODAY);
    expect(outcome.ok ? {} : outcome.errors).toHaveProperty('date_of_birth');
  });

  it('needs the ID front, and a back unless a passport', () => {
    const noFiles = checkIndividualReadiness({ ...ready, has_id_file: false, has_id_file_back: false }, TODAY);
    expect(noFiles.ok ? [] : Object.keys(noFiles.errors)).toEqual(['id_file', 'id_file_back']);
    const passport = checkIndividualReadiness({ ...ready, id_type: 'passport', has_id_file_back: false }, TODAY);
    expect(passport).toEqual({ ok: true });
    const passportWithBack = checkIndividualReadiness({ ...ready, id_type: 'passport' }, TODAY);
    expect(passportWithBack.ok ? {} : passportWithBack.errors).toEqual({
      id_file_back: ['must not be present for a passport (it has no back)'],
    });
  });
});
