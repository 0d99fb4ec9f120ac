import { ReviewStatus, VerificationStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { Status, type CallerContext } from '@corridor/grpc';
import { randomUUID } from 'node:crypto';
import {
  customerSpecKit,
  expectInvalid,
  expectRefused,
  nth,
  type PlatformActor,
} from '../../test/customers/customer-spec-kit.js';
import { SANDBOX_REJECTION_COMMENT, sandboxReviewCustomer } from './sandbox-review.js';

// SandboxReviewCustomer (issue 30): the back office's review, given by a platform to its own customer
// in the sandbox, against real PostgreSQL: the same rules, events and audit entry as
// AdminReviewCustomer, another business's customer NOT_FOUND, production SANDBOX_ONLY.

describe('customer-kyb: the sandbox’s review of one’s own customer (real PostgreSQL)', () => {
  const kit = customerSpecKit('sandbox_review');
  let actor: PlatformActor;
  const MEMBER = 'member:00000000-0000-4000-8000-000000000001';

  beforeAll(async () => {
    await kit.start();
    actor = kit.platform();
  });
  afterAll(() => kit.stop());

  const callerOf = (businessId: string, changes: Partial<CallerContext> = {}): CallerContext => ({
    businessId,
    credentialId: MEMBER,
    environment: 'sandbox',
    requestId: 'req-sandbox-1',
    ...changes,
  });
  const sandboxReview = (
    customerId: string,
    verdict: VerificationStatus,
    options: { caller?: CallerContext; comment?: string; environment?: 'sandbox' | 'production' } = {},
  ) =>
    sandboxReviewCustomer(
      kit.em(),
      kit.contextIn(options.environment ?? 'sandbox'),
      options.caller ?? callerOf(actor.businessId),
      { customerId, verdict, ...(options.comment === undefined ? {} : { comment: options.comment }) },
    );

  /** A refusal after which the customer, its children, audit and outbox are as they were. */
  async function expectUnchanged(customerId: string, refuse: () => Promise<void>) {
    const before = await kit.footprint(customerId);
    await refuse();
    expect(await kit.footprint(customerId)).toEqual(before);
  }

  it('VERIFIED approves every owner and document under review and verifies the customer, with customer.status_changed and an audit entry naming the member', async () => {
    const customer = await kit.underReview(actor, [
      kit.ownerBody({ ownership_percentage: 50 }),
      kit.ownerBody({ ownership_percentage: 50 }),
    ]);
    const reviewed = await sandboxReview(customer.id, VerificationStatus.VERIFIED);
    expect(reviewed).toMatchObject({ id: customer.id, verificationStatus: VerificationStatus.VERIFIED });
    expect(reviewed.owners.map((owner) => owner.status)).toEqual([ReviewStatus.APPROVED, ReviewStatus.APPROVED]);
    expect(reviewed.documents.map((document) => document.status)).toEqual([ReviewStatus.APPROVED]);
    expect(await kit.statusChanges(customer.id)).toEqual([
      ['PENDING', 'PROCESSING', 'submit'],
      ['PROCESSING', 'VERIFIED', 'review'],
    ]);
    expect((await kit.auditOf(customer.id)).at(-1)).toEqual({
      action: 'customer.reviewed',
      actor: `sandbox:${MEMBER}`,
      request_id: 'req-sandbox-1',
      changes: {
        owners: Object.fromEntries(customer.owners.map((owner) => [owner.id, 'APPROVED'])),
        documents: { [nth(customer.documents).id]: 'APPROVED' },
        verification_status: { from: 'PROCESSING', to: 'VERIFIED' },
      },
    });
  });

  it('REJECTED rejects every owner and document under review with the comment; an API key is named as its credential', async () => {
    const customer = await kit.underReview(actor);
    const caller = callerOf(actor.businessId, { credentialId: 'ci_test_0123' });
    await sandboxReview(customer.id, VerificationStatus.REJECTED, { caller, comment: '  Passport expired  ' });
    const read = await kit.current(actor, customer.id);
    expect(read.verificationStatus).toBe(VerificationStatus.REJECTED);
    expect(read.owners.map((owner) => [owner.status, owner.adminComments])).toEqual([
      [ReviewStatus.REJECTED, ['Passport expired']],
    ]);
    expect((await kit.statusChanges(customer.id)).at(-1)).toEqual(['PROCESSING', 'REJECTED', 'review']);
    expect((await kit.auditOf(customer.id)).at(-1)).toMatchObject({ actor: 'sandbox:credential:ci_test_0123' });
  });

  it('REJECTED without a comment gives the children the sandbox’s comment, as production needs one', async () => {
    const customer = await kit.underReview(actor);
    const reviewed = await sandboxReview(customer.id, VerificationStatus.REJECTED);
    expect(reviewed.verificationStatus).toBe(VerificationStatus.REJECTED);
    expect(nth(reviewed.documents).adminComments).toEqual([SANDBOX_REJECTION_COMMENT]);
  });

  it('keeps the review’s preconditions: a customer not under review is 400 NOT_UNDER_REVIEW; a verdict other than VERIFIED or REJECTED, or a blank comment, is 422', async () => {
    const pending = await kit.readyToSubmit(actor);
    await expectUnchanged(pending.id, () =>
      expectRefused(
        sandboxReview(pending.id, VerificationStatus.VERIFIED),
        Status.FAILED_PRECONDITION,
        'NOT_UNDER_REVIEW',
        /is PENDING; only a PROCESSING customer is reviewed/,
      ),
    );
    const customer = await kit.underReview(actor);
    await expectUnchanged(customer.id, async () => {
      await expectInvalid(sandboxReview(customer.id, VerificationStatus.PROCESSING), {
        verdict: /must be VERIFIED or REJECTED/,
      });
      await expectInvalid(sandboxReview(customer.id, VerificationStatus.REJECTED, { comment: '  ' }), {
        comment: /non-empty text/,
      });
    });
  });

  it('another business’s customer is NOT_FOUND, and nothing of it changes', async () => {
    const other = kit.platform();
    const customer = await kit.underReview(other);
    await expectUnchanged(customer.id, () =>
      expectRefused(sandboxReview(customer.id, VerificationStatus.VERIFIED), Status.NOT_FOUND, 'CUSTOMER_NOT_FOUND'),
    );
    await expectRefused(
      sandboxReview(randomUUID(), VerificationStatus.VERIFIED),
      Status.NOT_FOUND,
      'CUSTOMER_NOT_FOUND',
    );
  });

  it('production is SANDBOX_ONLY (PERMISSION_DENIED), whether the caller or this process is production', async () => {
    const customer = await kit.underReview(actor);
    await expectUnchanged(customer.id, async () => {
      await expectRefused(
        sandboxReview(customer.id, VerificationStatus.VERIFIED, {
          caller: callerOf(actor.businessId, { environment: 'production' }),
        }),
        Status.PERMISSION_DENIED,
        'SANDBOX_ONLY',
      );
      await expectRefused(
        sandboxReview(customer.id, VerificationStatus.VERIFIED, { environment: 'production' }),
        Status.PERMISSION_DENIED,
        'SANDBOX_ONLY',
      );
    });
  });
});
