import type { MessageInitShape } from '@bufbuild/protobuf';
import { CustomerType, KybScope, VerificationStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import type { CustomerStatusChangedSchema } from '@corridor/contracts/corridor/customer/v1/events_pb';
import { newEvent, Environment } from '@corridor/contracts/events';
import { renderEvent } from './render-event.js';
import { destinationOf, urlOf, webhookBody, WEBHOOK_EVENTS } from './webhook-events.js';

const business = '0b6c3c9e-1d2f-4b8a-9c7e-5a4d3b2c1e0f';
const urls = { collectionUrl: 'https://c.example/h', payoutUrl: 'https://p.example/h', kycUrl: null };

describe('webhook bodies (seed 6, decision 0010)', () => {
  it('seed 6.1: customer.status_changed carries old_status and new_status, kyb_scope null for an individual', () => {
    const event = newEvent({
      businessId: business,
      environment: Environment.SANDBOX,
      occurredAt: new Date('2026-11-21T10:00:00.000Z'),
      payload: {
        case: 'customerStatusChanged',
        value: {
          customerId: 'c1',
          customerType: 'individual',
          kybScope: '',
          oldStatus: 'PENDING',
          newStatus: 'PROCESSING',
          trigger: 'submit',
        },
      },
    });
    const rendered = renderEvent(event);
    expect(rendered).toEqual({
      eventType: 'customer.status_changed',
      data: {
        customer_id: 'c1',
        business_id: business,
        customer_type: 'individual',
        kyb_scope: null,
        old_status: 'PENDING',
        new_status: 'PROCESSING',
        changed_at: '2026-11-21T10:00:00.000Z',
      },
    });
    expect(Object.keys(JSON.parse(webhookBody(rendered!.eventType, rendered!.data)))).toEqual(['event', 'data']);
  });

  it('decision 0061 step b: reads the enums, the deprecated words only where an enum is UNSPECIFIED', () => {
    const changed = (value: Omit<MessageInitShape<typeof CustomerStatusChangedSchema>, '$typeName'>) =>
      renderEvent(
        newEvent({
          businessId: business,
          environment: Environment.SANDBOX,
          occurredAt: new Date('2026-11-21T10:00:00.000Z'),
          payload: { case: 'customerStatusChanged', value: { customerId: 'c1', trigger: 'review', ...value } },
        }),
      )?.data;
    // As customer-kyb 0.2.0 writes it, the words beside; here they disagree, so the enums are seen read.
    expect(
      changed({
        type: CustomerType.BUSINESS,
        scope: KybScope.FULL,
        oldVerificationStatus: VerificationStatus.PROCESSING,
        newVerificationStatus: VerificationStatus.VERIFIED,
        customerType: 'individual',
        kybScope: 'MINIMAL',
        oldStatus: 'PENDING',
        newStatus: 'REJECTED',
      }),
    ).toMatchObject({ customer_type: 'business', kyb_scope: 'FULL', old_status: 'PROCESSING', new_status: 'VERIFIED' });
    // An individual's scope is UNSPECIFIED by meaning: its empty word is the webhook's null.
    expect(
      changed({
        type: CustomerType.INDIVIDUAL,
        oldVerificationStatus: VerificationStatus.PENDING,
        newVerificationStatus: VerificationStatus.PROCESSING,
      }),
    ).toMatchObject({ customer_type: 'individual', kyb_scope: null, old_status: 'PENDING', new_status: 'PROCESSING' });
    // One field from each side: each enum falls back alone.
    expect(
      changed({ type: CustomerType.BUSINESS, kybScope: 'MINIMAL', oldStatus: 'PENDING', newStatus: 'PROCESSING' }),
    ).toMatchObject({
      customer_type: 'business',
      kyb_scope: 'MINIMAL',
      old_status: 'PENDING',
      new_status: 'PROCESSING',
    });
    expect(() => changed({ type: 7 as CustomerType, newVerificationStatus: VerificationStatus.VERIFIED })).toThrow(
      'customer-kyb sent type 7',
    );
  });

  it('identity events are not webhooks', () => {
    const event = newEvent({
      businessId: business,
      environment: Environment.SANDBOX,
      payload: { case: 'businessCreated', value: { business: {} } },
    });
    expect(renderEvent(event)).toBeUndefined();
  });

  it('seed 6.2: the completed session example has exactly the eight listed fields', () => {
    expect(Object.keys(WEBHOOK_EVENTS['merchant.kyc.session.completed'].example).sort()).toEqual(
      [
        'business_id',
        'completed_at',
        'customer_reference',
        'rejection_reason',
        'rejection_type',
        'requirements',
        'result',
        'session_id',
      ].sort(),
    );
  });

  it('decision 0009: customer.status_changed goes to kyc_url when registered, else collection_url', () => {
    expect(destinationOf('customer.status_changed', urls)).toBe('collection_url');
    expect(destinationOf('customer.status_changed', { ...urls, kycUrl: 'https://k.example/h' })).toBe('kyc_url');
  });

  it('seed 6.2: KYC session events without a kyc_url are recorded, not delivered', () => {
    expect(destinationOf('merchant.kyc.session.completed', urls)).toBeUndefined();
    expect(destinationOf('merchant.kyc.session.expired', { ...urls, kycUrl: 'https://k.example/h' })).toBe('kyc_url');
  });

  it('seed 6.3: collection and refund events go to collection_url', () => {
    for (const type of [
      'collection.successful',
      'collection.failed',
      'collection.expired',
      'refund_initiated',
      'refund',
    ] as const) {
      expect(destinationOf(type, { ...urls, kycUrl: 'https://k.example/h' })).toBe('collection_url');
    }
  });

  it('an attempt reads the URL registered now; a removed kyc_url falls back to collection_url', () => {
    expect(urlOf('kyc_url', { ...urls, kycUrl: 'https://k.example/new' })).toBe('https://k.example/new');
    expect(urlOf('kyc_url', urls)).toBe('https://c.example/h');
    expect(urlOf('payout_url', urls)).toBe('https://p.example/h');
  });
});
