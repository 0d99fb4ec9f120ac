import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Environment, newEvent, type Event } from '@corridor/contracts/events';
import {
  KycRejectionType,
  KycRequirement,
  KycSessionStatus,
  type KycSession,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import {
  exampleKycSession,
  renderKycSessionCompleted,
  renderKycSessionExpired,
  type KycSessionExample,
} from './kyc-session-webhooks.js';
import { renderEvent } from './render-event.js';
import { destinationOf, mockWebhookData, webhookBody, WEBHOOK_EVENTS } from './webhook-events.js';
import { business, created, later } from '../../test/events/transaction-events.fixtures.js';

const COMPLETED_FIELDS = [
  'session_id',
  'business_id',
  'customer_reference',
  'requirements',
  'result',
  'rejection_reason',
  'rejection_type',
  'completed_at',
];
const EXPIRED_FIELDS = ['session_id', 'business_id', 'customer_reference', 'expired_at'];

const sessionId = '2f8b6c1e-4a9d-4e37-b5c0-9d1e3f7a2b64';

/** The business's session for user-77, asking for a selfie and a document, ended 30 s after creation. */
function userSession(outcome: KycSessionExample): KycSession {
  const session = exampleKycSession(outcome);
  session.id = sessionId;
  session.businessId = business;
  session.customerReference = 'user-77';
  session.requirements = [KycRequirement.SELFIE, KycRequirement.DOCUMENTS];
  session.createdAt = timestampFromDate(created);
  if (outcome === 'expired') session.expiredAt = later(30);
  else session.completedAt = later(30);
  return session;
}

/** As customer-kyb records it, an hour after the change: the body's time must be the session's own. */
function eventOf(session: KycSession, businessId = business): Event {
  const occurredAt = new Date(created.getTime() + 3_600_000);
  return newEvent(
    session.status === KycSessionStatus.EXPIRED
      ? {
          businessId,
          environment: Environment.SANDBOX,
          occurredAt,
          payload: { case: 'kycSessionExpired', value: { session } },
        }
      : {
          businessId,
          environment: Environment.SANDBOX,
          occurredAt,
          payload: { case: 'kycSessionCompleted', value: { session } },
        },
  );
}

describe('merchant KYC session webhooks (seed 6.2, decision 0016)', () => {
  it('an approved session is sent as merchant.kyc.session.completed with exactly the seed’s eight fields, rejection_* null', () => {
    const rendered = renderEvent(eventOf(userSession('approved')));
    expect(rendered).toEqual({
      eventType: 'merchant.kyc.session.completed',
      data: {
        session_id: sessionId,
        business_id: business,
        customer_reference: 'user-77',
        requirements: ['SELFIE', 'DOCUMENTS'],
        result: 'APPROVED',
        rejection_reason: null,
        rejection_type: null,
        completed_at: '2026-11-24T08:00:30.000Z',
      },
    });
    if (!rendered) throw new Error('no webhook rendered');
    const body = JSON.parse(webhookBody(rendered.eventType, rendered.data)) as { data: object };
    expect(Object.keys(body)).toEqual(['event', 'data']);
    expect(Object.keys(body.data)).toEqual(COMPLETED_FIELDS);
  });

  it.each([
    ['FINAL', KycRejectionType.FINAL, 'We could not verify your identity with the documents provided.'],
    [
      'RETRYABLE',
      KycRejectionType.RETRYABLE,
      'The photo of your document was blurred. Please take it again in good light.',
    ],
  ] as const)('a %s rejection carries its reason and rejection_type', (word, type, reason) => {
    const session = userSession('rejected');
    session.rejectionType = type;
    session.rejectionReason = reason;
    const data = renderEvent(eventOf(session))?.data;
    expect(data).toMatchObject({ result: 'REJECTED', rejection_reason: reason, rejection_type: word });
    expect(Object.keys(data ?? {})).toEqual(COMPLETED_FIELDS);
  });

  it('every requirement is named as the API names it, in the session’s order', () => {
    const session = userSession('approved');
    session.requirements = [KycRequirement.FACE_MATCH, KycRequirement.DOCUMENTS, KycRequirement.SELFIE];
    expect(renderEvent(eventOf(session))?.data.requirements).toEqual(['FACE_MATCH', 'DOCUMENTS', 'SELFIE']);
  });

  it('an expired session is sent as merchant.kyc.session.expired with exactly the seed’s four fields', () => {
    const rendered = renderEvent(eventOf(userSession('expired')));
    expect(rendered).toEqual({
      eventType: 'merchant.kyc.session.expired',
      data: {
        session_id: sessionId,
        business_id: business,
        customer_reference: 'user-77',
        expired_at: '2026-11-24T08:00:30.000Z',
      },
    });
    expect(Object.keys(rendered?.data ?? {})).toEqual(EXPIRED_FIELDS);
  });

  const broken: [string, () => Event][] = [
    [
      'a completed session without completed_at',
      () => eventOf(Object.assign(userSession('approved'), { completedAt: undefined })),
    ],
    [
      'an expired session without expired_at',
      () => eventOf(Object.assign(userSession('expired'), { expiredAt: undefined })),
    ],
    [
      'a completed session without a result',
      () => eventOf(Object.assign(userSession('approved'), { result: undefined })),
    ],
    [
      'a rejection without its type',
      () => eventOf(Object.assign(userSession('rejected'), { rejectionType: undefined })),
    ],
    [
      'a rejection without its reason',
      () => eventOf(Object.assign(userSession('rejected'), { rejectionReason: undefined })),
    ],
    [
      'an approval carrying a rejection reason',
      () => eventOf(Object.assign(userSession('approved'), { rejectionReason: 'no' })),
    ],
    [
      'an unnamed requirement',
      () => eventOf(Object.assign(userSession('approved'), { requirements: [KycRequirement.UNSPECIFIED] })),
    ],
    [
      'a completed event whose session is still processing',
      () => eventOf(Object.assign(userSession('approved'), { status: KycSessionStatus.PROCESSING })),
    ],
    [
      'an expired event whose session completed',
      () =>
        newEvent({
          businessId: business,
          environment: Environment.SANDBOX,
          // expired_at set too: only the status contradicts the event.
          payload: {
            case: 'kycSessionExpired',
            value: { session: Object.assign(userSession('approved'), { expiredAt: later(30) }) },
          },
        }),
    ],
    [
      'an event without its session',
      () =>
        newEvent({
          businessId: business,
          environment: Environment.SANDBOX,
          payload: { case: 'kycSessionCompleted', value: {} },
        }),
    ],
    ['another business’s session', () => eventOf(userSession('approved'), '9d3e1f0a-5b6c-4d7e-8f90-a1b2c3d4e5f6')],
  ];

  it.each(broken)('%s is refused rather than sent half-rendered', (_case, event) => {
    expect(() => renderEvent(event())).toThrow(RangeError);
  });

  it('only the session events become merchant.kyc.session.* webhooks', () => {
    const customerEvents = [
      newEvent({
        businessId: business,
        environment: Environment.SANDBOX,
        payload: {
          case: 'customerCreated',
          value: { customerId: 'c1', customerType: 'individual', verificationStatus: 'PENDING' },
        },
      }),
      newEvent({
        businessId: business,
        environment: Environment.SANDBOX,
        payload: {
          case: 'customerStatusChanged',
          value: { customerId: 'c1', customerType: 'individual', oldStatus: 'PENDING', newStatus: 'VERIFIED' },
        },
      }),
    ];
    expect(customerEvents.map((event) => renderEvent(event)?.eventType)).toEqual([
      undefined,
      'customer.status_changed',
    ]);
    expect([userSession('approved'), userSession('expired')].map((s) => renderEvent(eventOf(s))?.eventType)).toEqual([
      'merchant.kyc.session.completed',
      'merchant.kyc.session.expired',
    ]);
  });

  it('both go to kyc_url only: without one they are recorded, not sent to collection_url', () => {
    const urls = { collectionUrl: 'https://c.example/h', payoutUrl: 'https://p.example/h' };
    for (const type of ['merchant.kyc.session.completed', 'merchant.kyc.session.expired'] as const) {
      expect(destinationOf(type, { ...urls, kycUrl: 'https://k.example/h' })).toBe('kyc_url');
      expect(destinationOf(type, { ...urls, kycUrl: null })).toBeUndefined();
    }
  });
});

describe('POST /webhook/mock of merchant KYC session events', () => {
  it('the examples are the renderer’s output for the fixture session, so a mock and a real event cannot differ', () => {
    const completed = exampleKycSession('approved');
    const expired = exampleKycSession('expired');
    expect(WEBHOOK_EVENTS['merchant.kyc.session.completed'].example).toEqual(renderKycSessionCompleted(completed).data);
    expect(WEBHOOK_EVENTS['merchant.kyc.session.expired'].example).toEqual(renderKycSessionExpired(expired).data);
    // Through the bus path too: the fixture as customer-kyb would publish it.
    expect(renderEvent(eventOf(completed, completed.businessId))?.data).toEqual(
      WEBHOOK_EVENTS['merchant.kyc.session.completed'].example,
    );
    expect(Object.keys(WEBHOOK_EVENTS['merchant.kyc.session.expired'].example)).toEqual(EXPIRED_FIELDS);
  });

  it('the completed example is an approval with the seed’s values', () => {
    expect(WEBHOOK_EVENTS['merchant.kyc.session.completed'].example).toMatchObject({
      customer_reference: 'merchant-1042',
      requirements: ['DOCUMENTS', 'SELFIE', 'FACE_MATCH'],
      result: 'APPROVED',
      rejection_reason: null,
      rejection_type: null,
      completed_at: '2026-11-21T09:30:00.000Z',
    });
  });

  it('a mock names the calling business and takes replacements of the example’s members', () => {
    const mock = mockWebhookData('merchant.kyc.session.completed', business, { customer_reference: 'user-9' });
    expect(mock).toMatchObject({ business_id: business, customer_reference: 'user-9', result: 'APPROVED' });
    expect(Object.keys(mock)).toEqual(COMPLETED_FIELDS);
  });
});
