import { CustomerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { typedBody } from '../../test/typed-bodies.fixtures.js';
import {
  CustomerType,
  KybScope,
  ReviewStatus,
  VerificationStatus,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { Status } from '@corridor/grpc';
import { query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { dateOf } from '../../test/customer-kyb-spec-kit.js';
import { updateCustomer, removeOwner } from './update-customer.js';
import {
  businessBody,
  customerSpecKit,
  expectInvalid,
  expectRefused,
  nth,
  type PlatformActor,
} from '../../test/customers/customer-spec-kit.js';

// POST /customer/{customer}/submit as customer-kyb serves it (seed 3.1, 3.2, 3.3, 6.1), against real
// PostgreSQL and S3Proxy: each readiness check its own 422 at the use case, what a submit moves,
// and the customer.status_changed it records in the same transaction.

describe('customer-kyb: submitting a customer for verification (real PostgreSQL)', () => {
  const kit = customerSpecKit('submit_customer');
  let actor: PlatformActor;
  let minimalActor: PlatformActor;

  beforeAll(async () => {
    await kit.start();
    actor = kit.platform();
    minimalActor = kit.platform({ minimalAllowed: true });
  });
  afterAll(() => kit.stop());

  const submit = (customerId: string, who: PlatformActor = actor) => kit.submit(who, customerId);
  const sql = (text: string, values: unknown[]) => query(kit.databaseUrl(), text, values);
  const update = async (customerId: string, body: Record<string, unknown>) =>
    updateCustomer(kit.em(), kit.context(), actor, {
      customerId,
      body: typedBody(CustomerInputSchema, body),
      kycDataOnly: false,
    });

  /** A readiness failure: 422 READINESS_CHECK_FAILED, the customer, its children, audit and outbox unchanged. */
  async function expectNotReady(customerId: string, expected: Record<string, RegExp>, who: PlatformActor = actor) {
    const before = await kit.footprint(customerId);
    await expectInvalid(submit(customerId, who), expected, 'READINESS_CHECK_FAILED');
    expect(await kit.footprint(customerId)).toEqual(before);
  }

  describe('seed 3.2: each readiness check is its own 422', () => {
    it('rule 1: business_name, registration_number and a valid incorporation_country must be set', async () => {
      const customer = await kit.readyToSubmit(actor);
      await sql(`update customer set fields = fields - 'business_name' - 'registration_number' where id = $1`, [
        customer.id,
      ]);
      await expectNotReady(customer.id, {
        business_name: /^is required before submitting for verification$/,
        registration_number: /is required before submitting for verification/,
      });
      await sql(
        `update customer set fields = fields || '{"business_name":"Acme","registration_number":"RC1","incorporation_country":"XX"}' where id = $1`,
        [customer.id],
      );
      await expectNotReady(customer.id, { incorporation_country: /ISO 3166-1 alpha-2/ });
    });

    it('rule 1: country must equal incorporation_country', async () => {
      const customer = await kit.readyToSubmit(actor);
      await sql(`update customer set fields = fields || '{"country":"GH"}' where id = $1`, [customer.id]);
      await expectNotReady(customer.id, { country: /must equal incorporation_country \(NG\) before submitting/ });
    });

    it('rule 2: a FULL business needs at least one owner', async () => {
      const customer = await kit.create(actor, businessBody({ kyb_scope: 'FULL' }));
      await kit.addDocument(actor, customer.id);
      await expectNotReady(customer.id, { owners: /must include at least one owner for FULL KYB/ });
    });

    it('rule 3: ownership sums to exactly 100 (90 and 100.01 fail; 33.33 + 33.33 + 33.34 passes without floating-point drift)', async () => {
      const under = await kit.readyToSubmit(actor, [
        kit.ownerBody({ ownership_percentage: 60 }),
        kit.ownerBody({ ownership_percentage: 30 }),
      ]);
      await expectNotReady(under.id, {
        owners: /ownership_percentage values must sum to exactly 100 \(they sum to 90\)/,
      });
      const over = await kit.readyToSubmit(actor, [
        kit.ownerBody({ ownership_percentage: 60 }),
        kit.ownerBody({ ownership_percentage: 40.01 }),
      ]);
      await expectNotReady(over.id, { owners: /must sum to exactly 100 \(they sum to 100.01\)/ });
      const thirds = await kit.readyToSubmit(actor, [
        kit.ownerBody({ ownership_percentage: 33.33 }),
        kit.ownerBody({ ownership_percentage: 33.33 }),
        kit.ownerBody({ ownership_percentage: 33.34 }),
      ]);
      expect((await submit(thirds.id)).verificationStatus).toBe(VerificationStatus.PROCESSING);
    });

    it('rule 4: owner emails unique, case-insensitive (stored before the write rule existed)', async () => {
      const customer = await kit.readyToSubmit(actor, [
        kit.ownerBody({ ownership_percentage: 50, email: 'ada@example.com' }),
        kit.ownerBody({ ownership_percentage: 50, email: 'bola@example.com' }),
      ]);
      await sql(`update owner set fields = fields || '{"email":"ADA@example.com"}' where id = $1`, [
        customer.owners[1]?.id,
      ]);
      await expectNotReady(customer.id, {
        'owners.1.email': /must be unique within the customer \(case-insensitive\)/,
      });
    });

    it('rule 5: every owner needs a front; drivers_license, id_card and resident_permit a back; a passport no back; no type, no judgement', async () => {
      const noFront = await kit.create(actor, businessBody({ owners: [kit.ownerBody()] }));
      await kit.addDocument(actor, noFront.id);
      await expectNotReady(noFront.id, {
        'owners.0.id_document_front': /is required: every owner needs the front of an ID document/,
      });

      const noBack = await kit.create(
        actor,
        businessBody({ owners: [kit.ownerBody({ id_document_type: 'resident_permit' })] }),
      );
      await kit.attachOwnerSlot(actor, noBack.id, noBack.owners[0]?.id ?? '', 'id_document_front');
      await kit.addDocument(actor, noBack.id);
      await expectNotReady(noBack.id, { 'owners.0.id_document_back': /is required for a resident_permit/ });

      // The type changed to passport after both sides were attached: the back no longer belongs.
      const passport = await kit.readyToSubmit(actor, [kit.ownerBody({ id_document_type: 'id_card' })]);
      await update(passport.id, { owners: [{ id: passport.owners[0]?.id, id_document_type: 'passport' }] });
      await expectNotReady(passport.id, { 'owners.0.id_document_back': /must not be present for a passport/ });

      const untyped = await kit.readyToSubmit(actor);
      await update(untyped.id, { owners: [{ id: untyped.owners[0]?.id, id_document_type: null }] });
      await expectNotReady(untyped.id, { 'owners.0.id_document_type': /is required to check the owner ID files/ });
    });

    it('rule 6: an ID expired since it was written, an owner under 18 by now, and invalid alpha-2 codes fail at submit', async () => {
      const expired = await kit.readyToSubmit(actor);
      kit.clock.advance(5 * 366 * 86_400_000); // the passport written as valid for 5 years
      await expectNotReady(expired.id, { 'owners.0.id_expiry_date': /expired|must be after today/ });
      kit.clock.advance(-5 * 366 * 86_400_000);

      const customer = await kit.readyToSubmit(actor);
      await sql(
        `update owner set fields = fields || jsonb_build_object('date_of_birth', $2::text, 'nationality', 'XX', 'country', 'UK', 'id_document_country', 'ng') where id = $1`,
        [customer.owners[0]?.id, kit.isoDay(1, -18)],
      );
      await expectNotReady(customer.id, {
        'owners.0.date_of_birth': /at least 18 years before today/,
        'owners.0.nationality': /ISO 3166-1 alpha-2/,
        'owners.0.country': /reserved.*use GB/,
        'owners.0.id_document_country': /upper case: NG/,
      });
    });

    it('rule 7: at least one KYB document of a formation type; another type does not count', async () => {
      const customer = await kit.create(actor, businessBody({ owners: [kit.ownerBody()] }));
      await kit.attachOwnerIdFiles(actor, customer.id, nth(customer.owners));
      await expectNotReady(customer.id, { documents: /must include at least one formation document/ });
      await kit.addDocument(actor, customer.id, 'PROOF_OF_ADDRESS');
      await expectNotReady(customer.id, { documents: /must include at least one formation document/ });
      for (const type of [
        'ARTICLES_OF_INCORPORATION',
        'BENEFICIAL_OWNERSHIP_CERTIFICATE',
        'INCORPORATION_DOCUMENTS',
        'CAC_STATUS_REPORT',
      ]) {
        const another = await kit.create(
          kit.platform(),
          businessBody({ kyb_scope: 'FULL', owners: [kit.ownerBody()] }),
        );
        const who = { ...actor, businessId: another.businessId };
        await kit.attachOwnerIdFiles(who, another.id, nth(another.owners));
        await kit.addDocument(who, another.id, type);
        expect({ type, status: (await kit.submit(who, another.id)).verificationStatus }).toEqual({
          type,
          status: VerificationStatus.PROCESSING,
        });
      }
    });

    it('the checks run in the seed’s order and the first failure is the message', async () => {
      const customer = await kit.create(actor, businessBody());
      const failedCheck = async (expected: RegExp) => {
        const refusal = await submit(customer.id).catch((error: unknown) => error);
        expect(refusal).toMatchObject({
          status: Status.INVALID_ARGUMENT,
          reason: 'READINESS_CHECK_FAILED',
          message: expect.stringMatching(expected),
        });
      };
      await failedCheck(/^owners must include at least one owner/); // 2 (and 5, 7 pending)
      const withOwners = await update(customer.id, {
        owners: [
          kit.ownerBody({ ownership_percentage: 50, id_document_type: 'id_card' }),
          kit.ownerBody({ ownership_percentage: 40 }),
        ],
      });
      await failedCheck(/^owners ownership_percentage values must sum to exactly 100/); // 3
      await update(customer.id, { owners: [{ id: withOwners.owners[1]?.id, ownership_percentage: 50 }] });
      await failedCheck(/^owners\.0\.id_document_front is required/); // 5
      for (const owner of withOwners.owners)
        await kit.attachOwnerSlot(actor, customer.id, owner.id, 'id_document_front');
      await failedCheck(/^owners\.0\.id_document_back is required for an? id_card/); // 5, the back
      await kit.attachOwnerSlot(actor, customer.id, withOwners.owners[0]?.id ?? '', 'id_document_back');
      await failedCheck(/^documents must include at least one formation document/); // 7
      await kit.addDocument(actor, customer.id, 'ARTICLES_OF_INCORPORATION');
      expect((await submit(customer.id)).verificationStatus).toBe(VerificationStatus.PROCESSING);
    });
  });

  describe('seed 3.2: the MINIMAL path', () => {
    it('needs no owners or owner ID files: identity fields and a formation document suffice; a business stored with no scope takes it too', async () => {
      const customer = await kit.create(minimalActor, businessBody());
      await kit.addDocument(minimalActor, customer.id);
      const submitted = await submit(customer.id, minimalActor);
      expect(submitted).toMatchObject({
        kybScope: KybScope.MINIMAL,
        verificationStatus: VerificationStatus.PROCESSING,
        owners: [],
      });
      expect(submitted.documents.map((document) => document.status)).toEqual([ReviewStatus.PROCESSING]);

      const unscoped = await kit.create(actor, businessBody());
      await sql('update customer set kyb_scope = null where id = $1', [unscoped.id]);
      await kit.addDocument(actor, unscoped.id);
      expect(await submit(unscoped.id)).toMatchObject({
        kybScope: KybScope.MINIMAL,
        verificationStatus: VerificationStatus.PROCESSING,
        owners: [],
      });
    });

    it('still requires a formation document (check 7, not check 2) and the identity fields (check 1)', async () => {
      const customer = await kit.create(minimalActor, businessBody());
      await expectNotReady(customer.id, { documents: /formation document/ }, minimalActor);
      await kit.addDocument(minimalActor, customer.id);
      await sql(`update customer set fields = fields - 'registration_number' where id = $1`, [customer.id]);
      await expectNotReady(customer.id, { registration_number: /is required before submitting/ }, minimalActor);
    });
  });

  describe('individuals (decision 0008)', () => {
    it('an individual needs its identity fields and ID front; submitting moves it to PROCESSING with customer.status_changed', async () => {
      const bare = await kit.create(actor, { type: 'individual', first_name: 'Ada', last_name: 'Obi', country: 'NG' });
      await expectNotReady(bare.id, {
        date_of_birth: /is required before submitting/,
        id_type: /is required before submitting/,
        id_number: /is required before submitting/,
        id_file: /is required before submitting/,
      });
      const ready = await kit.individualReadyToSubmit(actor);
      expect((await submit(ready.id)).verificationStatus).toBe(VerificationStatus.PROCESSING);
      const [, changed] = await kit.outboxEvents(ready.id);
      expect(changed?.event.payload).toMatchObject({
        case: 'customerStatusChanged',
        value: {
          type: CustomerType.INDIVIDUAL,
          scope: KybScope.UNSPECIFIED,
          // Decision 0061 step (c): the deprecated words are no longer written.
          customerType: '',
          kybScope: '',
          oldStatus: '',
          newStatus: '',
          oldVerificationStatus: VerificationStatus.PENDING,
          newVerificationStatus: VerificationStatus.PROCESSING,
          trigger: 'submit',
        },
      });
    });
  });

  describe('seed 3.1: what submit moves', () => {
    it('the customer and its PENDING owners and documents to PROCESSING, submitted_at set, audited, and customer.status_changed recorded with them', async () => {
      const customer = await kit.readyToSubmit(actor, [
        kit.ownerBody({ ownership_percentage: 70 }),
        kit.ownerBody({ ownership_percentage: 30, id_document_type: 'drivers_license' }),
      ]);
      expect(customer.submittedAt).toBeUndefined();
      kit.clock.advance(60_000);
      const submitted = await submit(customer.id);
      expect(submitted).toMatchObject({ id: customer.id, verificationStatus: VerificationStatus.PROCESSING });
      expect(dateOf(submitted.submittedAt)).toEqual(kit.clock.now());
      expect(submitted.owners.map((owner) => owner.status)).toEqual([ReviewStatus.PROCESSING, ReviewStatus.PROCESSING]);
      expect(submitted.documents.map((document) => document.status)).toEqual([ReviewStatus.PROCESSING]);
      expect(await kit.current(actor, customer.id)).toEqual(submitted);
      expect((await kit.auditOf(customer.id)).at(-1)).toEqual({
        action: 'customer.submitted',
        actor: actor.name,
        request_id: actor.requestId,
        changes: {
          verification_status: { from: 'PENDING', to: 'PROCESSING' },
          to_review: { owners: customer.owners.map((o) => o.id), documents: customer.documents.map((d) => d.id) },
        },
      });
      // seed 6.1: keyed by the customer, the business in the envelope, on customer-kyb's topic.
      const events = await kit.outboxEvents(customer.id);
      expect(events.map(({ event }) => event.payload.case)).toEqual(['customerCreated', 'customerStatusChanged']);
      expect(events[1]).toMatchObject({
        topic: kit.context().topic,
        event: {
          type: 'customer.status_changed',
          businessId: actor.businessId,
          payload: {
            value: {
              customerId: customer.id,
              type: CustomerType.BUSINESS,
              scope: KybScope.FULL,
              oldVerificationStatus: VerificationStatus.PENDING,
              newVerificationStatus: VerificationStatus.PROCESSING,
              trigger: 'submit',
            },
          },
        },
      });
    });

    it('while PROCESSING is 400 ALREADY_PROCESSING; while VERIFIED 400 ALREADY_VERIFIED; neither records anything', async () => {
      const submitted = await kit.underReview(actor);
      const before = await kit.footprint(submitted.id);
      await expectRefused(submit(submitted.id), Status.FAILED_PRECONDITION, 'ALREADY_PROCESSING', /already PROCESSING/);
      expect(await kit.footprint(submitted.id)).toEqual(before);
      await kit.verify(submitted);
      await expectRefused(submit(submitted.id), Status.FAILED_PRECONDITION, 'ALREADY_VERIFIED', /already VERIFIED$/);
      const minimal = await kit.create(minimalActor, businessBody());
      await kit.addDocument(minimalActor, minimal.id);
      await kit.verify(await submit(minimal.id, minimalActor));
      await expectRefused(
        submit(minimal.id, minimalActor),
        Status.FAILED_PRECONDITION,
        'ALREADY_VERIFIED',
        /upgrade-kyb-scope first/,
      );
    });

    it('seed 3.3: re-submit after REJECTED re-reviews changed owners and leaves APPROVED ones and documents as they are', async () => {
      const submitted = await kit.underReview(actor, [
        kit.ownerBody({ ownership_percentage: 50 }),
        kit.ownerBody({ ownership_percentage: 50 }),
      ]);
      const [approved, rejected] = submitted.owners.map((owner) => owner.id);
      await kit.review(submitted.id, {
        owners: [
          { id: approved, status: 'APPROVED' },
          { id: rejected, status: 'REJECTED', admin_comments: ['The passport photo is unreadable'] },
        ],
        documents: [{ id: submitted.documents[0]?.id, status: 'APPROVED' }],
        verdict: 'REJECTED',
      });
      const fixed = await kit.attachOwnerSlot(actor, submitted.id, rejected ?? '', 'id_document_front');
      expect(fixed).toMatchObject({ status: ReviewStatus.PENDING, adminComments: [] });
      const resubmitted = await submit(submitted.id);
      expect(resubmitted.verificationStatus).toBe(VerificationStatus.PROCESSING);
      expect(resubmitted.owners.map((owner) => [owner.id, owner.status])).toEqual([
        [approved, ReviewStatus.APPROVED],
        [rejected, ReviewStatus.PROCESSING],
      ]);
      expect(resubmitted.documents.map((document) => document.status)).toEqual([ReviewStatus.APPROVED]);
      expect((await kit.auditOf(submitted.id)).at(-1)?.changes).toMatchObject({
        verification_status: { from: 'REJECTED', to: 'PROCESSING' },
        to_review: { owners: [rejected], documents: [] },
      });
      expect(await kit.statusChanges(submitted.id)).toEqual([
        ['PENDING', 'PROCESSING', 'submit'],
        ['PROCESSING', 'REJECTED', 'review'],
        ['REJECTED', 'PROCESSING', 'submit'],
      ]);
    });

    it('a REJECTED customer that fails a readiness check stays REJECTED', async () => {
      const submitted = await kit.underReview(actor);
      const rejected = await kit.review(submitted.id, {
        owners: [{ id: submitted.owners[0]?.id, status: 'REJECTED', admin_comments: ['Expired passport'] }],
        documents: [{ id: submitted.documents[0]?.id, status: 'APPROVED' }],
        verdict: 'REJECTED',
      });
      await removeOwner(kit.em(), kit.context(), actor, {
        customerId: submitted.id,
        ownerId: rejected.owners[0]?.id ?? '',
      });
      await expectNotReady(submitted.id, { owners: /at least one owner/ });
      expect((await kit.current(actor, submitted.id)).verificationStatus).toBe(VerificationStatus.REJECTED);
    });

    it('another business’s customer is CUSTOMER_NOT_FOUND, like an unknown id, and is not submitted', async () => {
      const customer = await kit.readyToSubmit(actor);
      const stranger = kit.platform();
      for (const id of [customer.id, randomUUID()]) {
        await expectRefused(submit(id, stranger), Status.NOT_FOUND, 'CUSTOMER_NOT_FOUND');
      }
      expect((await kit.current(actor, customer.id)).verificationStatus).toBe(VerificationStatus.PENDING);
      expect(await kit.statusChanges(customer.id)).toEqual([]);
    });
  });
});
