import { OwnerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { typedBody } from '../../../test/typed-bodies.fixtures.js';
import { calendarDateOf } from './calendar.js';
import { applyOwnerChanges, parseOwnerChanges, type CurrentOwner, type OwnerChange } from './owner-changes.js';
import { FieldProblems } from '@corridor/validation';

const today = calendarDateOf('2026-06-15');
const ADA = '6f1c1d2e-8a0b-4c3d-9e4f-0a1b2c3d4e5f';
const OBI = '0b7c8d9e-1f2a-4b3c-8d4e-5f6a7b8c9d0e';
const current: CurrentOwner[] = [
  { id: ADA, first_name: 'Ada', last_name: 'Obi', ownership_percentage: 60, email: 'ada@acme.example' },
  { id: OBI, first_name: 'Obi', last_name: 'Eze', ownership_percentage: 40, email: 'obi@acme.example' },
];

function parse(value: Record<string, unknown>[] | null): { changes: OwnerChange[]; errors: Record<string, string[]> } {
  const problems = new FieldProblems();
  const entries = value === null ? null : value.map((entry) => typedBody(OwnerInputSchema, entry));
  const changes = parseOwnerChanges(entries, today, problems);
  return { changes, errors: problems.errors };
}
function changesOf(value: Record<string, unknown>[]): OwnerChange[] {
  const { changes, errors } = parse(value);
  expect(errors).toEqual({});
  return changes;
}

describe('owners on update (seed 2.1 rule 2, seed 2.2)', () => {
  it('seed 2.1 rule 2: a changed owner keeps what was omitted and clears what was sent as null', () => {
    const changes = changesOf([{ id: ADA, email: null, ownership_percentage: 50 }]);
    expect(applyOwnerChanges(current, changes)).toEqual({
      ok: true,
      value: [{ ...current[0], email: null, ownership_percentage: 50 }, current[1]],
    });
  });

  it('adds new owners (entries without id) after the current ones', () => {
    const changes = changesOf([{ first_name: 'Chi', last_name: 'Eze', ownership_percentage: 0 }]);
    expect(applyOwnerChanges(current, changes)).toEqual({
      ok: true,
      value: [...current, { first_name: 'Chi', last_name: 'Eze', ownership_percentage: 0 }],
    });
  });

  it('seed 2.2: emails must be unique among the entries sent (case-insensitive)', () => {
    expect(
      parse([
        { id: ADA, email: 'x@acme.example' },
        { first_name: 'C', last_name: 'E', ownership_percentage: 1, email: 'X@acme.example' },
      ]).errors,
    ).toEqual({
      'owners.1.email': ['must be unique within the customer (case-insensitive)'],
    });
  });

  it('seed 2.2: emails must be unique within the customer after the update, blamed on the entry sent', () => {
    const added = changesOf([{ first_name: 'C', last_name: 'E', ownership_percentage: 1, email: 'OBI@acme.example' }]);
    expect(applyOwnerChanges(current, added)).toEqual({
      ok: false,
      errors: { 'owners.0.email': ['must be unique within the customer (case-insensitive)'] },
    });
    const changed = changesOf([
      { id: OBI, city: 'Abuja' },
      { id: ADA, email: 'Obi@Acme.example' },
    ]);
    expect(applyOwnerChanges(current, changed)).toEqual({
      ok: false,
      errors: { 'owners.1.email': ['must be unique within the customer (case-insensitive)'] },
    });
    // blamed on the entry that sent the address, not on one that changed something else
    const cityFirst = changesOf([
      { first_name: 'C', last_name: 'E', ownership_percentage: 1, email: 'ada@acme.example' },
      { id: ADA, city: 'Abuja' },
    ]);
    expect(applyOwnerChanges(current, cityFirst)).toEqual({
      ok: false,
      errors: { 'owners.0.email': ['must be unique within the customer (case-insensitive)'] },
    });
    const swapped = changesOf([
      { id: ADA, email: 'obi@acme.example' },
      { id: OBI, email: 'ada@acme.example' },
    ]);
    expect(applyOwnerChanges(current, swapped)).toMatchObject({ ok: true });
  });

  it('a change must name an owner of this customer, once', () => {
    const stranger = '11111111-2222-4333-8444-555555555555';
    expect(applyOwnerChanges(current, changesOf([{ id: stranger, city: 'Abuja' }]))).toEqual({
      ok: false,
      errors: { 'owners.0.id': ['is not an owner of this customer'] },
    });
    expect(
      parse([
        { id: ADA, city: 'Abuja' },
        { id: ADA.toUpperCase(), city: 'Kano' },
      ]).errors,
    ).toEqual({
      'owners.1.id': ['appears twice: owners.0 already changes this owner'],
    });
  });

  it('owners null is refused (omit owners to leave them unchanged)', () => {
    expect(parse(null).errors).toEqual({
      owners: ['cannot be null: list the owners to add or change, or omit owners to leave them unchanged'],
    });
  });

  it('reports problems of changes and additions at the request paths', () => {
    expect(
      parse([
        { id: ADA, last_name: null },
        { first_name: 'C', ownership_percentage: 101 },
      ]).errors,
    ).toEqual({
      'owners.0.last_name': ['is required and cannot be null; omit it to leave it unchanged'],
      'owners.1.ownership_percentage': ['must be from 0 to 100 (got 101)'],
      'owners.1.last_name': ['is required'],
    });
  });
});
