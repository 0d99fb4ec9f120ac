import { OwnerInputSchema, type OwnerInput } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import type { CalendarDate } from './calendar.js';
import {
  applyOwnerPatch,
  ownerSetFacts,
  parseNewOwner,
  parseOwnerPatch,
  type NewOwner,
  type OwnerFieldValues,
} from './owner-fields.js';
import { checkOwnerEmailsUnique, OWNERS_PATH } from './owners.js';
import type { Nullable, Patch } from './patch.js';
import { isSent } from './typed-body.js';
import { fieldPath } from './validation.js';
import { FieldProblems, type ValidationResult } from '@corridor/validation';

/**
 * One entry of `owners` on update: an entry with `id` changes that owner (seed 2.1 rule 2 applies
 * to it), an entry without `id` adds a new owner. Owners not listed are left unchanged.
 */
export type OwnerChange =
  | { readonly kind: 'add'; readonly owner: NewOwner }
  | { readonly kind: 'change'; readonly id: string; readonly patch: Patch<OwnerFieldValues> };

/** A stored owner as the update sees it. */
export type CurrentOwner = Nullable<OwnerFieldValues> & { readonly id: string };

/** The `owners` array of an update body, entry by entry, problems at `owners.N.field`. */
export function parseOwnerChanges(
  value: readonly OwnerInput[] | null,
  today: CalendarDate,
  problems: FieldProblems,
): OwnerChange[] {
  if (value === null) {
    problems.add(
      OWNERS_PATH,
      'cannot be null: list the owners to add or change, or omit owners to leave them unchanged',
    );
    return [];
  }
  const changes: OwnerChange[] = [];
  const ids = new Map<string, number>();
  value.forEach((entry, index) => {
    const path = fieldPath(OWNERS_PATH, index);
    if (isSent(OwnerInputSchema, entry, 'id')) {
      const change = parseOwnerPatch(entry, path, today, problems);
      if (!change) return;
      const earlier = ids.get(change.id);
      if (earlier !== undefined) {
        problems.add(fieldPath(path, 'id'), `appears twice: owners.${earlier} already changes this owner`);
        return;
      }
      ids.set(change.id, index);
      changes.push({ kind: 'change', id: change.id, patch: change.patch });
    } else {
      const owner = parseNewOwner(entry, path, today, problems);
      if (owner) changes.push({ kind: 'add', owner });
    }
  });
  // seed 2.2: emails unique among what this request sends; applyOwnerChanges checks the result.
  problems.addAll(checkOwnerEmailsUnique(ownerSetFacts(value, today)) ?? {});
  return changes;
}

/**
 * The customer's owners after the changes (changed in place, added at the end), with the rules that
 * need the whole set: each changed owner's address, and emails unique within the customer (seed
 * 2.2). A change naming an owner the customer does not have is a problem at its `id`.
 */
export function applyOwnerChanges(
  current: readonly CurrentOwner[],
  changes: readonly OwnerChange[],
): ValidationResult<(CurrentOwner | NewOwner)[]> {
  const problems = new FieldProblems();
  const result: (CurrentOwner | NewOwner)[] = [...current];
  // The request entry that set each resulting owner's email (undefined: its email is unchanged).
  const emailSetBy: (string | undefined)[] = current.map(() => undefined);
  changes.forEach((change, index) => {
    const path = fieldPath(OWNERS_PATH, index);
    if (change.kind === 'add') {
      result.push(change.owner);
      emailSetBy.push(path);
      return;
    }
    const at = current.findIndex((owner) => owner.id.toLowerCase() === change.id);
    const existing = current[at];
    if (existing === undefined) {
      problems.add(fieldPath(path, 'id'), 'is not an owner of this customer');
      return;
    }
    const merged = applyOwnerPatch(existing, change, path);
    if (merged.ok) result[at] = merged.value;
    else problems.addAll(merged.errors);
    if (change.patch.has('email')) emailSetBy[at] = path;
  });
  reportRepeatedEmails(result, emailSetBy, problems);
  return problems.resultOf(() => result);
}

/**
 * seed 2.2 over the resulting set: a repeated address is reported at the request entries that set
 * it: all of them when it repeats an email the request did not touch, all but the first otherwise.
 */
function reportRepeatedEmails(
  owners: readonly Nullable<OwnerFieldValues>[],
  emailSetBy: readonly (string | undefined)[],
  problems: FieldProblems,
): void {
  const byAddress = new Map<string, number[]>();
  owners.forEach((owner, index) => {
    if (owner.email == null) return;
    const address = owner.email.toLowerCase();
    byAddress.set(address, [...(byAddress.get(address) ?? []), index]);
  });
  for (const indexes of byAddress.values()) {
    if (indexes.length < 2) continue;
    const sent = indexes
      .map((index) => emailSetBy[index])
      .filter((path) => path !== undefined)
      .sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
    const blamed = sent.length === indexes.length ? sent.slice(1) : sent;
    for (const path of blamed)
      problems.add(fieldPath(path, 'email'), 'must be unique within the customer (case-insensitive)');
  }
}
