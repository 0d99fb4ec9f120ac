import { expectInvalid, jsonOf, ownerBody, type CustomerCaller, type CustomerJson } from '../support/customers.js';
import { expectError, Platform } from '../support/platform.js';

/**
 * The back office's review (DESIGN.md admin API, decision 0008): owner and document statuses with
 * comments, and a verdict that moves the customer (seed 3.1: PROCESSING → REJECTED; into VERIFIED
 * is "not shown" by the seed and decided in 0008).
 */
describe('customers: review by the back office (seed 3.1, 6.1; decision 0008)', () => {
  const platform = new Platform();
  const api = platform.customers;
  let caller: CustomerCaller;

  beforeAll(async () => {
    await platform.start();
    caller = await api.caller();
  });
  afterAll(() => platform.stop());

  /** A FULL business under review with two owners and one document. */
  const underReview = async (): Promise<CustomerJson> => {
    const ready = await api.fullReadyToSubmit(caller, [
      ownerBody({ ownership_percentage: 50 }),
      ownerBody({ ownership_percentage: 50 }),
    ]);
    return api.submit(caller.token, ready.id);
  };

  it('seed 3.1: verdict VERIFIED with every owner and document APPROVED verifies the customer', async () => {
    const customer = await underReview();
    const response = await api.reviewCall(customer.id, {
      owners: customer.owners.map((owner) => ({ id: owner.id, status: 'APPROVED' as const })),
      documents: [{ id: customer.documents[0]!.id, status: 'APPROVED' }],
      verdict: 'VERIFIED',
    });
    // The admin API answers the customer itself, with its business (DESIGN.md: JSON in, JSON out).
    const reviewed = await jsonOf<CustomerJson>(response, 200, 'review');
    expect(reviewed).toMatchObject({
      id: customer.id,
      business_id: caller.businessId,
      verification_status: 'VERIFIED',
      owners: [expect.objectContaining({ status: 'APPROVED' }), expect.objectContaining({ status: 'APPROVED' })],
      documents: [expect.objectContaining({ status: 'APPROVED' })],
    });
    expect((await api.getCustomer(caller.token, customer.id)).verification_status).toBe('VERIFIED');
  });

  it('seed 3.1, seed 6.1: verdict REJECTED moves PROCESSING → REJECTED; the platform reads the admin_comments from the customer', async () => {
    const customer = await underReview();
    const [first, second] = customer.owners;
    await api.review(customer.id, {
      owners: [{ id: first!.id, status: 'REJECTED', admin_comments: ['Passport expired', 'Name does not match'] }],
      documents: [{ id: customer.documents[0]!.id, status: 'REJECTED', admin_comments: ['Not legible'] }],
      verdict: 'REJECTED',
    });
    const read = await api.getCustomer(caller.token, customer.id);
    expect(read.verification_status).toBe('REJECTED');
    expect(read.owners).toEqual([
      expect.objectContaining({
        id: first!.id,
        status: 'REJECTED',
        admin_comments: ['Passport expired', 'Name does not match'],
      }),
      // Not judged in this review: back to PENDING so the platform may edit it before re-submitting.
      expect.objectContaining({ id: second!.id, status: 'PENDING', admin_comments: [] }),
    ]);
    expect(read.documents).toEqual([expect.objectContaining({ status: 'REJECTED', admin_comments: ['Not legible'] })]);
  });

  it('decision 0008: a review without a verdict records statuses and leaves the customer PROCESSING', async () => {
    const customer = await underReview();
    const reviewed = await api.review(customer.id, { owners: [{ id: customer.owners[0]!.id, status: 'APPROVED' }] });
    expect(reviewed.verification_status).toBe('PROCESSING');
    expect(reviewed.owners.map((owner) => owner.status)).toEqual(['APPROVED', 'PROCESSING']);
    // A child already judged is not judged again.
    await expectError(
      await api.reviewCall(customer.id, {
        owners: [{ id: customer.owners[0]!.id, status: 'REJECTED', admin_comments: ['x'] }],
      }),
      400,
      { code: 'NOT_UNDER_REVIEW', message: /is APPROVED; only owners in PROCESSING are reviewed/ },
    );
  });

  it('decision 0008: a review is only possible while the customer is PROCESSING (400 NOT_UNDER_REVIEW)', async () => {
    const pending = await api.fullReadyToSubmit(caller);
    await expectError(await api.reviewCall(pending.id, { verdict: 'REJECTED' }), 400, {
      code: 'NOT_UNDER_REVIEW',
      message: /is PENDING; only a PROCESSING customer is reviewed/,
    });
  });

  it('decision 0008: REJECTED needs at least one admin comment (422)', async () => {
    const customer = await underReview();
    await expectInvalid(
      await api.reviewCall(customer.id, { owners: [{ id: customer.owners[0]!.id, status: 'REJECTED' }] }),
      { 'owners.0.admin_comments': /is required when rejecting/ },
    );
    expect((await api.getCustomer(caller.token, customer.id)).owners[0]!.status).toBe('PROCESSING');
  });

  it('decision 0008: verdict VERIFIED needs every owner and document APPROVED (422 REVIEW_INCOMPLETE)', async () => {
    const customer = await underReview();
    await expectInvalid(
      await api.reviewCall(customer.id, {
        owners: [{ id: customer.owners[0]!.id, status: 'APPROVED' }],
        verdict: 'VERIFIED',
      }),
      {
        [`owners.${customer.owners[1]!.id}`]: /is PROCESSING, not APPROVED/,
        [`documents.${customer.documents[0]!.id}`]: /is PROCESSING, not APPROVED/,
        documents: /at least one formation document must be APPROVED/,
      },
      { code: 'REVIEW_INCOMPLETE' },
    );
    expect((await api.getCustomer(caller.token, customer.id)).verification_status).toBe('PROCESSING');
  });

  it('decision 0008: verdict REJECTED needs at least one REJECTED owner or document (422)', async () => {
    const customer = await underReview();
    await expectInvalid(
      await api.reviewCall(customer.id, { verdict: 'REJECTED' }),
      { verdict: /REJECTED needs at least one REJECTED owner or document/ },
      { code: 'REVIEW_INCOMPLETE' },
    );
    expect((await api.getCustomer(caller.token, customer.id)).verification_status).toBe('PROCESSING');
  });

  it('decision 0008: a review naming an owner or document the customer does not have is refused', async () => {
    const customer = await underReview();
    const other = await underReview();
    await expectInvalid(
      await api.reviewCall(customer.id, {
        owners: [{ id: other.owners[0]!.id, status: 'APPROVED' }],
        documents: [{ id: other.documents[0]!.id, status: 'APPROVED' }],
      }),
      { 'owners.0.id': /is not an? owner of this customer/, 'documents.0.id': /is not a document of this customer/ },
    );
    expect((await api.getCustomer(caller.token, other.id)).owners[0]!.status).toBe('PROCESSING');
  });

  it('decision 0008: an unknown customer is 404 on the admin review', async () => {
    await expectError(await api.reviewCall('00000000-0000-4000-8000-000000000000', { verdict: 'VERIFIED' }), 404, {
      code: 'CUSTOMER_NOT_FOUND',
    });
  });

  it('DESIGN.md: GET /admin/customers?verification_status=PROCESSING is the review queue across businesses', async () => {
    const customer = await underReview();
    const otherCaller = await api.caller();
    const other = await api.submit(otherCaller.token, (await api.fullReadyToSubmit(otherCaller)).id);
    const pending = await api.fullReadyToSubmit(caller);
    const body = await jsonOf<{ data: CustomerJson[]; meta: Record<string, unknown> }>(
      await platform.admin('/admin/customers?verification_status=PROCESSING'),
      200,
      'review queue',
    );
    expect(body.meta).toMatchObject({ current_page: 1, per_page: 15 });
    const ids = body.data.map((entry) => entry.id);
    expect(ids).toEqual(expect.arrayContaining([customer.id, other.id]));
    expect(ids).not.toContain(pending.id);
  });

  it('decision 0008: every review, with or without a verdict, is an audit entry', async () => {
    const customer = await underReview();
    await api.review(customer.id, { owners: [{ id: customer.owners[0]!.id, status: 'APPROVED' }] });
    await api.verify(await api.getCustomer(caller.token, customer.id));
    const reviews = (await api.audit(customer.id)).filter((entry) => entry.action === 'customer.reviewed');
    expect(reviews).toHaveLength(2);
    expect(reviews[0]).toMatchObject({ actor: 'admin', changes: { owners: { [customer.owners[0]!.id]: 'APPROVED' } } });
    expect(reviews[1]).toMatchObject({ changes: { verification_status: { from: 'PROCESSING', to: 'VERIFIED' } } });
  });
});
