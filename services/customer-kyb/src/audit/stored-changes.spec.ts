import { storedChanges } from './stored-changes.js';

// Decision 0062: a stored row the typed changes could not say whole is a defect, never dropped.
describe('storedChanges', () => {
  const OWNER = '0b6f4a52-8f0e-4c61-9d1e-3f1b2c4d5e61';

  it('refuses a key its action never wrote', () => {
    expect(() => storedChanges('customer.created', { owners_added: [], note: 'x' }, 'business')).toThrow(
      'audit changes of customer.created hold unexpected keys note',
    );
  });

  it('refuses a data field its customer type does not have', () => {
    expect(() =>
      storedChanges('customer.updated', { fields: { first_name: { from: null, to: 'Ada' } } }, 'business'),
    ).toThrow('unexpected fields fields first_name');
  });

  it('refuses a from/to pair that changed nothing (null to null would not read back)', () => {
    expect(() =>
      storedChanges('customer.updated', { fields: { website: { from: null, to: null } } }, 'business'),
    ).toThrow(/fields\.website/);
  });

  it('refuses a word its enum lacks and an action it does not know', () => {
    expect(() =>
      storedChanges(
        'owner.file_attached',
        { owner_id: OWNER, slot: 'selfie', file_id: OWNER, replaced: null },
        'business',
      ),
    ).toThrow('selfie is not a corridor.customer.v1.OwnerFileSlot word');
    expect(() => storedChanges('customer.archived', {}, 'business')).toThrow(
      'audit action customer.archived has no typed changes',
    );
  });
});
