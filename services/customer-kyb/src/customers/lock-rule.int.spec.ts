import {
  CustomerInputSchema,
  DocumentInputSchema,
  DocumentUploadInputSchema,
  OwnerFileInputSchema,
  OwnerFileUploadInputSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { typedBody } from '../../test/typed-bodies.fixtures.js';
import {
  ReviewStatus,
  VerificationStatus,
  type Customer as CustomerMessage,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { Status } from '@corridor/grpc';
import { createDocumentUpload, registerDocument, replaceDocument } from '../documents/kyb-documents.js';
import { attachOwnerFile, createOwnerFileUpload } from '../files/owner-files.js';
import {
  customerSpecKit,
  expectRefused,
  fieldOf,
  nth,
  PDF,
  type PlatformActor,
} from '../../test/customers/customer-spec-kit.js';
import { removeOwner, updateCustomer } from './update-customer.js';

// seed 3.3's lock rule across every write of a customer and its children, against real PostgreSQL:
// an owner or document is locked when its own status is APPROVED or PROCESSING, or when the
// customer is PROCESSING or VERIFIED; the customer's own fields are locked then too (issue 4).
// A locked write is 400 (FAILED_PRECONDITION) and changes nothing; a REJECTED child that changes
// goes back to PENDING with its comments cleared.

describe('customer-kyb: the lock rule and REJECTED children (seed 3.3, real PostgreSQL)', () => {
  const kit = customerSpecKit('lock_rule');
  let actor: PlatformActor;

  beforeAll(async () => {
    await kit.start();
    actor = kit.platform();
  });
  afterAll(() => kit.stop());

  const ctx = () => kit.context();
  const update = async (customerId: string, body: Record<string, unknown>, kycDataOnly = false) =>
    updateCustomer(kit.em(), ctx(), actor, { customerId, body: typedBody(CustomerInputSchema, body), kycDataOnly });
  const png = { content_type: 'application/pdf', content_length: PDF.length };

  /** Every write of the customer, its owner and its document is refused with the given reasons, and nothing changes. */
  async function expectAllLocked(customer: CustomerMessage, status: string) {
    const owner = nth(customer.owners);
    const document = nth(customer.documents);
    const customerId = customer.id;
    const before = await kit.footprint(customerId);
    const customerLocked = (call: Promise<unknown>) =>
      expectRefused(
        call,
        Status.FAILED_PRECONDITION,
        'CUSTOMER_LOCKED',
        new RegExp(`is ${status} and cannot be edited`),
      );
    const ownerLocked = (call: Promise<unknown>) =>
      expectRefused(call, Status.FAILED_PRECONDITION, 'OWNER_LOCKED', /is locked and cannot be edited/);

    await customerLocked(update(customerId, { trading_name: 'Changed' }));
    await customerLocked(update(customerId, { trading_name: 'Changed' }, true));
    await customerLocked(update(customerId, { owners: [{ id: owner.id, title: 'CEO' }] }));
    await customerLocked(update(customerId, { owners: [kit.ownerBody({ ownership_percentage: 0 })] }));
    await ownerLocked(
      createOwnerFileUpload(kit.em(), ctx(), actor, {
        customerId,
        ownerId: owner.id,
        body: typedBody(OwnerFileUploadInputSchema, { slot: 'id_document_front', ...png }),
      }),
    );
    await ownerLocked(
      attachOwnerFile(kit.em(), ctx(), actor, {
        customerId,
        ownerId: owner.id,
        body: typedBody(OwnerFileInputSchema, { slot: 'id_document_front', file_id: nth(owner.idFiles).fileId }),
      }),
    );
    await ownerLocked(removeOwner(kit.em(), ctx(), actor, { customerId, ownerId: owner.id }));
    await expectRefused(
      replaceDocument(kit.em(), ctx(), actor, {
        customerId,
        documentId: document.id,
        body: typedBody(DocumentInputSchema, { file_id: document.file?.fileId }),
      }),
      Status.FAILED_PRECONDITION,
      'DOCUMENT_LOCKED',
      /is locked and cannot be changed/,
    );
    await customerLocked(
      createDocumentUpload(kit.em(), ctx(), actor, { customerId, body: typedBody(DocumentUploadInputSchema, png) }),
    );
    await customerLocked(
      registerDocument(kit.em(), ctx(), actor, {
        customerId,
        body: typedBody(DocumentInputSchema, { type: 'CAC_STATUS_REPORT', file_id: document.file?.fileId }),
      }),
    );
    expect(await kit.footprint(customerId)).toEqual(before);
  }

  it('while the customer is PROCESSING, it and every owner and document are locked (400)', async () => {
    await expectAllLocked(await kit.underReview(actor), 'PROCESSING');
  });

  it('while the customer is VERIFIED, it and every owner and document are locked (400); a MINIMAL one is pointed to the upgrade', async () => {
    const verified = await kit.verify(await kit.underReview(actor));
    expect(verified.verificationStatus).toBe(VerificationStatus.VERIFIED);
    await expectAllLocked(verified, 'VERIFIED');
    const listed = kit.platform({ minimalAllowed: true });
    const minimal = await kit.create(listed, {
      type: 'business',
      business_name: 'Min Ltd',
      registration_number: 'RCMIN1',
      incorporation_country: 'NG',
      country: 'NG',
    });
    await kit.addDocument(listed, minimal.id);
    await kit.verify(await kit.submit(listed, minimal.id));
    await expectRefused(
      updateCustomer(kit.em(), ctx(), listed, {
        customerId: minimal.id,
        body: typedBody(CustomerInputSchema, { trading_name: 'X' }),
        kycDataOnly: false,
      }),
      Status.FAILED_PRECONDITION,
      'CUSTOMER_LOCKED',
      /upgrade-kyb-scope/,
    );
  });

  describe('a REJECTED customer with one APPROVED and one REJECTED owner, and an APPROVED and a REJECTED document', () => {
    let mixed: Awaited<ReturnType<typeof kit.rejectedWithMixedChildren>>;
    beforeEach(async () => {
      mixed = await kit.rejectedWithMixedChildren(actor);
      expect(mixed.customer.verificationStatus).toBe(VerificationStatus.REJECTED);
    });

    it('an APPROVED owner or document stays locked (400) while the customer is REJECTED, and is not changed', async () => {
      const { customer, approvedOwner, rejectedOwner, approvedDocument } = mixed;
      const customerId = customer.id;
      const before = await kit.footprint(customerId);
      await expectRefused(
        update(customerId, { owners: [{ id: approvedOwner, title: 'CEO' }] }),
        Status.FAILED_PRECONDITION,
        'OWNER_LOCKED',
        new RegExp(`owner ${approvedOwner} is locked and cannot be edited: it is APPROVED`),
      );
      await expectRefused(
        createOwnerFileUpload(kit.em(), ctx(), actor, {
          customerId,
          ownerId: approvedOwner,
          body: typedBody(OwnerFileUploadInputSchema, { slot: 'id_document_front', ...png }),
        }),
        Status.FAILED_PRECONDITION,
        'OWNER_LOCKED',
      );
      const front = await kit.ownerFile(actor, customerId, rejectedOwner, 'id_document_front');
      await expectRefused(
        attachOwnerFile(kit.em(), ctx(), actor, {
          customerId,
          ownerId: approvedOwner,
          body: typedBody(OwnerFileInputSchema, { slot: 'id_document_front', file_id: front }),
        }),
        Status.FAILED_PRECONDITION,
        'OWNER_LOCKED',
      );
      await expectRefused(
        removeOwner(kit.em(), ctx(), actor, { customerId, ownerId: approvedOwner }),
        Status.FAILED_PRECONDITION,
        'OWNER_LOCKED',
      );
      const file = await kit.documentFile(actor, customerId);
      await expectRefused(
        replaceDocument(kit.em(), ctx(), actor, {
          customerId,
          documentId: approvedDocument,
          body: typedBody(DocumentInputSchema, { file_id: file }),
        }),
        Status.FAILED_PRECONDITION,
        'DOCUMENT_LOCKED',
        /it is APPROVED/,
      );
      const after = await kit.footprint(customerId);
      // Only the two issued (unattached) uploads are new; owners, documents, audit and outbox are as they were.
      expect(after).toEqual(before);
    });

    it('the customer itself is editable again once REJECTED', async () => {
      const updated = await update(mixed.customer.id, { trading_name: 'Acme Trading' });
      expect(fieldOf(updated, 'trading_name')).toBe('Acme Trading');
    });

    it('a REJECTED owner whose fields change goes back to PENDING with admin_comments cleared; the APPROVED one is untouched', async () => {
      const { customer, approvedOwner, rejectedOwner } = mixed;
      const before = customer.owners.find((owner) => owner.id === rejectedOwner);
      expect(before).toMatchObject({ status: ReviewStatus.REJECTED, adminComments: ['the ID is blurred'] });
      const updated = await update(customer.id, { owners: [{ id: rejectedOwner, title: 'Director' }] });
      expect(
        updated.owners.map((owner) => [owner.id, owner.status, owner.adminComments, fieldOf(owner, 'title')]),
      ).toEqual([
        [approvedOwner, ReviewStatus.APPROVED, [], null],
        [rejectedOwner, ReviewStatus.PENDING, [], 'Director'],
      ]);
    });

    it('a REJECTED owner whose ID file is replaced goes back to PENDING with admin_comments cleared', async () => {
      const owner = await kit.attachOwnerSlot(actor, mixed.customer.id, mixed.rejectedOwner, 'id_document_back');
      expect(owner).toMatchObject({ status: ReviewStatus.PENDING, adminComments: [] });
      expect(
        (await kit.current(actor, mixed.customer.id)).owners.find((o) => o.id === mixed.rejectedOwner),
      ).toMatchObject({
        status: ReviewStatus.PENDING,
        adminComments: [],
      });
    });

    it('a REJECTED document whose file is replaced goes back to PENDING with admin_comments cleared', async () => {
      const { customer, approvedDocument, rejectedDocument } = mixed;
      const file = await kit.documentFile(actor, customer.id);
      const document = await replaceDocument(kit.em(), ctx(), actor, {
        customerId: customer.id,
        documentId: rejectedDocument,
        body: typedBody(DocumentInputSchema, { file_id: file }),
      });
      expect(document).toMatchObject({ id: rejectedDocument, status: ReviewStatus.PENDING, adminComments: [] });
      expect((await kit.current(actor, customer.id)).documents.map((d) => [d.id, d.status])).toEqual(
        expect.arrayContaining([
          [rejectedDocument, ReviewStatus.PENDING],
          [approvedDocument, ReviewStatus.APPROVED],
        ]),
      );
    });

    it('an update that changes nothing on a REJECTED owner leaves it REJECTED with its comments', async () => {
      const { customer, rejectedOwner } = mixed;
      const before = customer.owners.find((owner) => owner.id === rejectedOwner);
      const updated = await update(customer.id, {
        owners: [{ id: rejectedOwner, first_name: before ? fieldOf(before, 'first_name') : null }],
      });
      expect(updated.owners.find((owner) => owner.id === rejectedOwner)).toMatchObject({
        status: ReviewStatus.REJECTED,
        adminComments: ['the ID is blurred'],
      });
    });

    it('a REJECTED owner can be removed; new owners and documents can be added', async () => {
      const { customer, approvedOwner, rejectedOwner } = mixed;
      const removed = await removeOwner(kit.em(), ctx(), actor, { customerId: customer.id, ownerId: rejectedOwner });
      expect(removed.owners.map((owner) => owner.id)).toEqual([approvedOwner]);
      const added = await update(customer.id, { owners: [kit.ownerBody({ ownership_percentage: 50 })] });
      expect(added.owners[1]).toMatchObject({ status: ReviewStatus.PENDING });
      expect((await kit.addDocument(actor, customer.id, 'CAC_STATUS_REPORT')).status).toBe(ReviewStatus.PENDING);
    });
  });
});
