import { ReviewInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { VerificationStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { failedPrecondition } from '@corridor/grpc';
import { AUDIT_ROWS, jsonOfInput } from '@corridor/testing';
import { CUSTOMER_INPUT_WORDS } from '@corridor/contracts/customer-words';
import { adminUnderTest } from '../../test/admin/admin-listener.fixture.js';
import { BUSINESS_ID, businessCustomer, CUSTOMER_ID, OWNER_ID } from '../../test/public/customers/customer.fixtures.js';
import { startFakeCustomerService } from '../../test/public/customers/fake-customer-service.js';

const ADMIN_TOKEN = 'admin-token-for-the-customer-review-spec';

/** The admin listener as bootstrap builds it, over a fake customer-kyb; identity is never called here. */
describe('admin customer review (decision 0008 "Review")', () => {
  const backOffice = adminUnderTest(
    startFakeCustomerService,
    (service) => ({ customer: service.client }),
    ADMIN_TOKEN,
    'req-admin-1',
  );

  const admin = (method: string, path: string, body?: unknown, token?: string) =>
    backOffice.admin(method, path, body, token);

  /** Admin calls are not scoped to a business: no business-id, but the request id for the logs. */
  const expectUnscopedCaller = () => {
    expect(backOffice.calls).toHaveLength(1);
    expect(backOffice.calls[0]?.caller.businessId).toBeUndefined();
    expect(backOffice.calls[0]?.caller).toMatchObject({ requestId: 'req-admin-1', environment: 'sandbox' });
  };

  it('GET /admin/customers: the queue, filtered and paged, each customer with its business', async () => {
    backOffice.answers.set('adminListCustomers', () => ({
      customers: [businessCustomer()],
      page: { currentPage: 2, perPage: 15, lastPage: 2, total: 16n },
    }));
    const response = await admin(
      'GET',
      `/admin/customers?verification_status=PROCESSING&business_id=${BUSINESS_ID}&page=2`,
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [expect.objectContaining({ id: CUSTOMER_ID, business_id: BUSINESS_ID, verification_status: 'REJECTED' })],
      meta: { current_page: 2, from: 16, to: 16, last_page: 2, per_page: 15, total: 16, total_capped: false },
    });
    expect(backOffice.calls[0]?.request).toMatchObject({
      verificationStatus: VerificationStatus.PROCESSING,
      businessId: BUSINESS_ID,
      page: 2,
    });
    expectUnscopedCaller();
  });

  it('GET /admin/customers without filters asks for page 1 of everything', async () => {
    expect((await admin('GET', '/admin/customers')).status).toBe(200);
    expect(backOffice.calls[0]?.request).toMatchObject({ page: 1 });
    expect(backOffice.calls[0]?.request.verificationStatus).toBeUndefined();
    expect(backOffice.calls[0]?.request.businessId).toBeUndefined();
  });

  it.each([
    ['status=PROCESSING', 'status'],
    ['page=0', 'page'],
    ['verification_status=PROCESSING&verification_status=REJECTED', 'verification_status'],
  ])('GET /admin/customers?%s is 422 naming %s', async (query, parameter) => {
    const response = await admin('GET', `/admin/customers?${query}`);
    expect(response).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED' } });
    expect(Object.keys(response.body.errors as object)).toEqual([parameter]);
    expect(backOffice.calls).toHaveLength(0);
  });

  it('GET /admin/customers/{id}: one customer of any business, with business_id', async () => {
    const response = await admin('GET', `/admin/customers/${CUSTOMER_ID}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: CUSTOMER_ID, business_id: BUSINESS_ID, owners: [{ id: OWNER_ID }] });
    expect(backOffice.calls[0]).toMatchObject({ method: 'adminGetCustomer', request: { customerId: CUSTOMER_ID } });
    expectUnscopedCaller();
  });

  it('POST /admin/customers/{id}/review passes the review as its typed message and answers the customer', async () => {
    const review = {
      owners: [{ id: OWNER_ID, status: 'REJECTED', admin_comments: ['blurred'] }],
      documents: [],
      verdict: 'REJECTED',
    };
    const response = await admin('POST', `/admin/customers/${CUSTOMER_ID}/review`, review);
    expect(response).toMatchObject({ status: 200, body: { id: CUSTOMER_ID, business_id: BUSINESS_ID } });
    expect(backOffice.calls[0]).toMatchObject({ method: 'adminReviewCustomer', request: { customerId: CUSTOMER_ID } });
    const typed = (backOffice.calls[0]?.request ?? {}) as { review?: Record<string, unknown> };
    // What customer-kyb reads back from the typed review is the review as sent (decision 0025).
    expect(jsonOfInput(ReviewInputSchema, typed.review ?? {}, CUSTOMER_INPUT_WORDS)).toEqual(review);
    expect(
      await admin('POST', `/admin/customers/${CUSTOMER_ID}/review`, { verdict: 'APPROVED', owners: [{ id: 1 }] }),
    ).toMatchObject({
      status: 422,
      body: {
        code: 'VALIDATION_FAILED',
        errors: {
          verdict: ['must be one of PENDING, PROCESSING, VERIFIED, REJECTED; got "APPROVED"'],
          'owners.0.id': ['must be a string, got a number'],
        },
      },
    });
    expect(backOffice.calls).toHaveLength(1);
    expectUnscopedCaller();
  });

  it("POST review: customer-kyb's refusal is answered in the error contract; a non-object body is 422", async () => {
    backOffice.answers.set('adminReviewCustomer', () => {
      throw failedPrecondition('NOT_UNDER_REVIEW', 'the customer is not PROCESSING');
    });
    expect(await admin('POST', `/admin/customers/${CUSTOMER_ID}/review`, { verdict: 'VERIFIED' })).toMatchObject({
      status: 400,
      body: { status: false, code: 'NOT_UNDER_REVIEW' },
    });
    expect(await admin('POST', `/admin/customers/${CUSTOMER_ID}/review`, [])).toMatchObject({
      status: 422,
      body: { errors: { '(body)': ['must be a JSON object'] } },
    });
  });

  it('GET /admin/customers/{id}/audit: the trail, oldest first', async () => {
    const upgrade = AUDIT_ROWS.find((row) => row.action === 'customer.upgraded');
    if (!upgrade) throw new Error('AUDIT_ROWS hold no upgrade');
    backOffice.answers.set('adminListAuditEntries', () => ({
      entries: [
        {
          id: 'a-1',
          customerId: CUSTOMER_ID,
          action: 'customer.upgraded',
          actor: 'credential:ci_test_1',
          requestId: 'req-9',
          whatChanged: upgrade.typed,
          occurredAt: { seconds: 1_800_000_000n, nanos: 0 },
        },
      ],
    }));
    const response = await admin('GET', `/admin/customers/${CUSTOMER_ID}/audit`);
    expect(response).toEqual({
      status: 200,
      body: {
        data: [
          {
            id: 'a-1',
            customer_id: CUSTOMER_ID,
            action: 'customer.upgraded',
            actor: 'credential:ci_test_1',
            request_id: 'req-9',
            changes: JSON.parse(upgrade.answered),
            occurred_at: '2027-01-15T08:00:00.000Z',
          },
        ],
      },
    });
    expectUnscopedCaller();
  });

  it('refuses a caller without the admin token before calling customer-kyb', async () => {
    expect(await admin('GET', '/admin/customers', undefined, 'wrong')).toMatchObject({
      status: 401,
      body: { code: 'ADMIN_TOKEN_INVALID' },
    });
    expect(backOffice.calls).toHaveLength(0);
  });
});
