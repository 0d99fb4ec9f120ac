import { ReviewStatus, VerificationStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { Status } from '@corridor/grpc';
import { randomUUID } from 'node:crypto';
import { adminListCustomers, listAuditEntries } from './list-customers.js';
import {
  customerSpecKit,
  expectInvalid,
  expectRefused,
  nth,
  type PlatformActor,
} from '../../test/customers/customer-spec-kit.js';

// POST /admin/customers/{id}/review and the review queue as customer-kyb serves them (seed 3.1, 3.3,
// 6.1; decision 0008; DESIGN.md admin API), against real PostgreSQL: the back office's judgements,
// its verdicts with their customer.status_changed, and the audit entry of every review.

describe('customer-kyb: the back office’s review (real PostgreSQL)', () => {
  const kit = customerSpecKit('review_customer');
  let actor: PlatformActor;

  beforeAll(async () => {
    await kit.start();
    actor = kit.platform();
  });
  afterAll(() => kit.stop());

  /** A FULL business under review with two owners and one document. */
  const underReview = () =>
    kit.underReview(actor, [kit.ownerBody({ ownership_percentage: 50 }), kit.ownerBody({ ownership_percentage: 50 })]);

  /** A refusal after which the customer, its children, audit and outbox are as they were. */
  async function expectUnchanged(customerId: string, refuse: () => Promise<void>) {
    const before = await kit.footprint(customerId);
    await refuse();
    expect(await kit.footprint(customerId)).toEqual(before);
  }

  it('seed 3.1: VERIFIED with every owner and document APPROVED verifies the customer, records customer.status_changed and the audit entry', async () => {
    const customer = await underReview();
    const reviewed = await kit.verify(customer);
    expect(reviewed).toMatchObject({
      id: customer.id,
      businessId: actor.businessId,
      verificationStatus: VerificationStatus.VERIFIED,
    });
    expect(reviewed.owners.map((owner) => owner.status)).toEqual([ReviewStatus.APPROVED, ReviewStatus.APPROVED]);
    expect(reviewed.documents.map((document) => document.status)).toEqual([ReviewStatus.APPROVED]);
    expect((await kit.current(actor, customer.id)).verificationStatus).toBe(VerificationStatus.VERIFIED);
    expect(await kit.statusChanges(customer.id)).toEqual([
      ['PENDING', 'PROCESSING', 'submit'],
      ['PROCESSING', 'VERIFIED', 'review'],
    ]);
    expect((await kit.auditOf(customer.id)).at(-1)).toEqual({
      action: 'customer.reviewed',
      actor: 'admin',
      request_id: null,
      changes: {
        owners: Object.fromEntries(customer.owners.map((owner) => [owner.id, 'APPROVED'])),
        documents: { [nth(customer.documents).id]: 'APPROVED' },
        verification_status: { from: 'PROCESSING', to: 'VERIFIED' },
      },
    });
  });

  it('seed 3.1, 6.1: REJECTED moves PROCESSING → REJECTED with its event; comments are on the customer; unjudged children go back to PENDING', async () => {
    const customer = await underReview();
    const [first, second] = customer.owners;
    await kit.review(customer.id, {
      owners: [{ id: first?.id, status: 'REJECTED', admin_comments: ['Passport expired', 'Name does not match'] }],
      documents: [{ id: nth(customer.documents).id, status: 'REJECTED', admin_comments: ['Not legible'] }],
      verdict: 'REJECTED',
    });
    const read = await kit.current(actor, customer.id);
    expect(read.verificationStatus).toBe(VerificationStatus.REJECTED);
    expect(read.owners.map((owner) => [owner.id, owner.status, owner.adminComments])).toEqual([
      [first?.id, ReviewStatus.REJECTED, ['Passport expired', 'Name does not match']],
      [second?.id, ReviewStatus.PENDING, []],
    ]);
    expect(read.documents.map((document) => [document.status, document.adminComments])).toEqual([
      [ReviewStatus.REJECTED, ['Not legible']],
    ]);
    expect((await kit.statusChanges(customer.id)).at(-1)).toEqual(['PROCESSING', 'REJECTED', 'review']);
  });

  it('a review without a verdict records judgements, leaves the customer PROCESSING, fires nothing, and is audited; a judged child is not judged again', async () => {
    const customer = await underReview();
    const [first] = customer.owners;
    const reviewed = await kit.review(customer.id, { owners: [{ id: first?.id, status: 'APPROVED' }] });
    expect(reviewed.verificationStatus).toBe(VerificationStatus.PROCESSING);
    expect(reviewed.owners.map((owner) => owner.status)).toEqual([ReviewStatus.APPROVED, ReviewStatus.PROCESSING]);
    expect(await kit.statusChanges(customer.id)).toEqual([['PENDING', 'PROCESSING', 'submit']]);
    expect((await kit.auditOf(customer.id)).at(-1)).toMatchObject({
      action: 'customer.reviewed',
      actor: 'admin',
      changes: { owners: { [first?.id ?? '']: 'APPROVED' }, documents: {} },
    });
    await expectUnchanged(customer.id, () =>
      expectRefused(
        kit.review(customer.id, { owners: [{ id: first?.id, status: 'REJECTED', admin_comments: ['x'] }] }),
        Status.FAILED_PRECONDITION,
        'NOT_UNDER_REVIEW',
        /is APPROVED; only owners in PROCESSING are reviewed/,
      ),
    );
    // The back office reads the same trail (entries of one instant in no particular order).
    const trail = await listAuditEntries(kit.em(), kit.admin, customer.id);
    expect(trail.map((entry) => entry.action).sort()).toEqual(
      (await kit.auditOf(customer.id)).map((entry) => entry.action).sort(),
    );
    expect(trail.filter((entry) => entry.action === 'customer.reviewed')).toHaveLength(1);
  });

  it('only a PROCESSING customer is reviewed (400 NOT_UNDER_REVIEW); an unknown one is CUSTOMER_NOT_FOUND', async () => {
    const pending = await kit.readyToSubmit(actor);
    await expectUnchanged(pending.id, () =>
      expectRefused(
        kit.review(pending.id, { verdict: 'REJECTED' }),
        Status.FAILED_PRECONDITION,
        'NOT_UNDER_REVIEW',
        /is PENDING; only a PROCESSING customer is reviewed/,
      ),
    );
    await expectRefused(kit.review(randomUUID(), { verdict: 'VERIFIED' }), Status.NOT_FOUND, 'CUSTOMER_NOT_FOUND');
  });

  it.each<[string, (owners: string[], documents: string[]) => Record<string, unknown>, Record<string, RegExp>]>([
    [
      'REJECTED needs an admin comment',
      (owners) => ({ owners: [{ id: owners[0], status: 'REJECTED' }] }),
      {
        'owners.0.admin_comments': /is required when rejecting/,
      },
    ],
    [
      'a status other than APPROVED or REJECTED, a malformed id, a blank comment and a verdict other than VERIFIED or REJECTED',
      (owners) => ({
        owners: [
          { id: 'x', status: 'PROCESSING' },
          { id: owners[1], status: 'APPROVED', admin_comments: [''] },
        ],
        verdict: 'PENDING',
      }),
      {
        'owners.0.id': /must be a uuid/,
        'owners.0.status': /must be APPROVED or REJECTED/,
        'owners.1.admin_comments': /non-empty strings of at most 2000 characters/,
        verdict: /must be VERIFIED or REJECTED/,
      },
    ],
    ['owners that are not a list', () => ({ owners: {} }), { owners: /must be an array/ }],
  ])('decision 0008: %s is 422, and nothing is judged', async (_rule, body, expected) => {
    const customer = await underReview();
    const ids = customer.owners.map((owner) => owner.id);
    await expectUnchanged(customer.id, () =>
      expectInvalid(
        kit.review(
          customer.id,
          body(
            ids,
            customer.documents.map((d) => d.id),
          ),
        ),
        expected,
      ),
    );
  });

  it('VERIFIED needs every owner and document APPROVED and an approved formation document (422 REVIEW_INCOMPLETE)', async () => {
    const customer = await underReview();
    const [first, second] = customer.owners;
    const document = nth(customer.documents);
    await expectUnchanged(customer.id, () =>
      expectInvalid(
        kit.review(customer.id, { owners: [{ id: first?.id, status: 'APPROVED' }], verdict: 'VERIFIED' }),
        {
          [`owners.${second?.id ?? ''}`]: /is PROCESSING, not APPROVED/,
          [`documents.${document.id}`]: /is PROCESSING, not APPROVED/,
          documents: /at least one formation document must be APPROVED/,
        },
        'REVIEW_INCOMPLETE',
      ),
    );
  });

  it('REJECTED needs at least one REJECTED owner or document (422 REVIEW_INCOMPLETE)', async () => {
    const customer = await underReview();
    await expectUnchanged(customer.id, () =>
      expectInvalid(
        kit.review(customer.id, { verdict: 'REJECTED' }),
        { verdict: /REJECTED needs at least one REJECTED owner or document/ },
        'REVIEW_INCOMPLETE',
      ),
    );
  });

  it('a review naming another customer’s owner or document is 422 at its id, and the other customer is not judged', async () => {
    const customer = await underReview();
    const other = await underReview();
    await expectInvalid(
      kit.review(customer.id, {
        owners: [{ id: nth(other.owners).id, status: 'APPROVED' }],
        documents: [{ id: nth(other.documents).id, status: 'APPROVED' }],
      }),
      { 'owners.0.id': /is not an? owner of this customer/, 'documents.0.id': /is not a document of this customer/ },
    );
    expect(nth((await kit.current(actor, other.id)).owners).status).toBe(ReviewStatus.PROCESSING);
  });

  it('DESIGN.md: the review queue (verification_status=PROCESSING) spans businesses, oldest submission first, and leaves out the rest', async () => {
    const queued = await underReview();
    const otherActor = kit.platform();
    kit.clock.advance(1_000);
    const other = await kit.underReview(otherActor);
    const pending = await kit.readyToSubmit(actor);
    const queue = await adminListCustomers(kit.em(), { verificationStatus: 'PROCESSING' }, 1);
    expect(queue.page).toMatchObject({ currentPage: 1, perPage: 15 });
    const ids = queue.customers.map((customer) => customer.id);
    expect(ids).toEqual(expect.arrayContaining([queued.id, other.id]));
    expect(ids.indexOf(queued.id)).toBeLessThan(ids.indexOf(other.id));
    expect(ids).not.toContain(pending.id);
    const ofOne = await adminListCustomers(
      kit.em(),
      { verificationStatus: 'PROCESSING', businessId: otherActor.businessId },
      1,
    );
    expect(ofOne.customers.map((customer) => customer.id)).toEqual([other.id]);
    await expectInvalid(adminListCustomers(kit.em(), { verificationStatus: 'DONE' }, 1), {
      verification_status: /must be one of/,
    });
  });
});
