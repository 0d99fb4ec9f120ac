import { CustomerType, KybScope, VerificationStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { Environment, newEvent, type NewEvent } from '@corridor/contracts/events';
import { customerFactsOf } from './customer-projection.js';

const BUSINESS = '4b8f3c2e-0000-4000-8000-00000000b001';
const AT = new Date('2026-11-29T10:00:00.000Z');

const factsOf = (payload: NewEvent['payload']) =>
  customerFactsOf(newEvent({ businessId: BUSINESS, environment: Environment.SANDBOX, occurredAt: AT, payload }));

/**
 * Decision 0061 step b: payments reads a customer event's enums, and the deprecated words beside
 * them only where an enum is UNSPECIFIED (customer-kyb 0.1.0's events, an individual's scope).
 */
describe('what a customer event says of a customer', () => {
  it('customer.created: the enums, not the words (here made to disagree)', () => {
    expect(
      factsOf({
        case: 'customerCreated',
        value: {
          customerId: 'c1',
          type: CustomerType.BUSINESS,
          scope: KybScope.FULL,
          status: VerificationStatus.VERIFIED,
          customerType: 'individual',
          kybScope: 'MINIMAL',
          verificationStatus: 'PENDING',
          displayName: 'Acme Ltd',
        },
      }),
    ).toEqual({
      customerId: 'c1',
      businessId: BUSINESS,
      customerType: 'business',
      kybScope: 'FULL',
      verificationStatus: 'VERIFIED',
      displayName: 'Acme Ltd',
      at: AT,
    });
  });

  it('customer.status_changed: the new status; an individual’s UNSPECIFIED scope is its empty word', () => {
    expect(
      factsOf({
        case: 'customerStatusChanged',
        value: {
          customerId: 'c2',
          type: CustomerType.INDIVIDUAL,
          oldVerificationStatus: VerificationStatus.PENDING,
          newVerificationStatus: VerificationStatus.PROCESSING,
          customerType: 'individual',
          oldStatus: 'PENDING',
          newStatus: 'PROCESSING',
          trigger: 'submit',
        },
      }),
    ).toMatchObject({ customerType: 'individual', kybScope: '', verificationStatus: 'PROCESSING' });
  });

  it('an event of customer-kyb 0.1.0 (words only) reads as before', () => {
    expect(
      factsOf({
        case: 'customerStatusChanged',
        value: {
          customerId: 'c3',
          customerType: 'business',
          kybScope: 'MINIMAL',
          oldStatus: 'PENDING',
          newStatus: 'REJECTED',
        },
      }),
    ).toMatchObject({ customerType: 'business', kybScope: 'MINIMAL', verificationStatus: 'REJECTED' });
  });

  it('a number this release does not know is a defect (the event goes to the dead letters), not a word', () => {
    expect(() =>
      factsOf({
        case: 'customerCreated',
        value: { customerId: 'c4', type: 9 as CustomerType, customerType: 'business' },
      }),
    ).toThrow('customer-kyb sent type 9');
  });

  it('other events are not customers', () => {
    expect(factsOf({ case: 'businessCreated', value: {} })).toBeUndefined();
  });
});
