import { ownerBody, PNG_BYTES, type CustomerCaller, type CustomerJson } from '../support/customers.js';
import { expectError, Platform } from '../support/platform.js';

/**
 * seed 3.3's lock rule: a child record (owner, document) is locked when its own status is APPROVED
 * or PROCESSING, or when the customer is PROCESSING or VERIFIED; edits to a locked record are 400.
 * The customer's own fields are not editable while PROCESSING or VERIFIED either (issue 4).
 */
describe('customers: the lock rule and REJECTED children (seed 3.3)', () => {
  const platform = Platform.shared();
  const api = platform.customers;
  let caller: CustomerCaller;

  beforeAll(async () => {
    await platform.start();
    caller = await api.caller();
  });
  afterAll(() => platform.stop());

  const call = (method: string, path: string, body?: unknown) => api.call(caller.token, method, path, body);

  /** Every edit of the customer and of its owner and document is 400 with the given codes. */
  const expectAllLocked = async (customer: CustomerJson, status: string) => {
    const owner = customer.owners[0]!;
    const document = customer.documents[0]!;
    const base = `/customer/${customer.id}`;
    const customerLocked = { code: 'CUSTOMER_LOCKED', message: new RegExp(`is ${status} and cannot be edited`) };
    const ownerLocked = { code: 'OWNER_LOCKED', message: /is locked and cannot be edited/ };
    const documentLocked = { code: 'DOCUMENT_LOCKED', message: /is locked and cannot be changed/ };

    await expectError(await call('PUT', base, { trading_name: 'Changed' }), 400, customerLocked);
    await expectError(await call('POST', `${base}/kyc-data`, { trading_name: 'Changed' }), 400, customerLocked);
    await expectError(await call('PUT', base, { owners: [{ id: owner.id, title: 'CEO' }] }), 400, customerLocked);
    await expectError(
      await call('PUT', base, { owners: [ownerBody({ ownership_percentage: 0 })] }),
      400,
      customerLocked,
    );
    await expectError(
      await call('POST', `${base}/owner/${owner.id}/file/presigned-url`, {
        slot: 'id_document_front',
        content_type: 'image/png',
        content_length: PNG_BYTES.length,
      }),
      400,
      ownerLocked,
    );
    await expectError(
      await call('POST', `${base}/owner/${owner.id}/files`, {
        slot: 'id_document_front',
        file_id: owner.id_document_front?.file_id,
      }),
      400,
      ownerLocked,
    );
    await expectError(await call('DELETE', `${base}/owner/${owner.id}`), 400, ownerLocked);
    await expectError(
      await call('PUT', `${base}/document/${document.id}`, { file_id: document.file?.file_id }),
      400,
      documentLocked,
    );
    await expectError(
      await call('POST', `${base}/document/presigned-url`, { content_type: 'application/pdf', content_length: 10 }),
      400,
      customerLocked,
    );
    await expectError(
      await call('POST', `${base}/document`, { type: 'CAC_STATUS_REPORT', file_id: document.file?.file_id }),
      400,
      customerLocked,
    );
    // Nothing changed.
    const after = await api.getCustomer(caller.token, customer.id);
    expect(after.verification_status).toBe(status);
    expect(after.trading_name).toBe(customer.trading_name);
    expect(after.owners).toEqual(customer.owners);
    expect(after.documents).toEqual(customer.documents);
  };

  it('seed 3.3 (lock rule): while the customer is PROCESSING, it and every owner and document are locked (400)', async () => {
    const customer = await api.submit(caller.token, (await api.fullReadyToSubmit(caller)).id);
    await expectAllLocked(customer, 'PROCESSING');
  });

  it('seed 3.3 (lock rule): while the customer is VERIFIED, it and every owner and document are locked (400)', async () => {
    const customer = await api.verify(await api.submit(caller.token, (await api.fullReadyToSubmit(caller)).id));
    expect(customer.verification_status).toBe('VERIFIED');
    await expectAllLocked(await api.getCustomer(caller.token, customer.id), 'VERIFIED');
  });

  describe('a REJECTED customer with one APPROVED and one REJECTED owner, and an APPROVED and a REJECTED document', () => {
    let customer: CustomerJson;
    let approvedOwner: string;
    let rejectedOwner: string;
    let approvedDocument: string;
    let rejectedDocument: string;

    beforeEach(async () => {
      const ready = await api.fullReadyToSubmit(caller, [
        ownerBody({ ownership_percentage: 50 }),
        ownerBody({ ownership_percentage: 50, id_document_type: 'id_card' }),
      ]);
      await api.registerDocument(caller.token, ready.id, 'PROOF_OF_ADDRESS');
      const submitted = await api.submit(caller.token, ready.id);
      [approvedOwner, rejectedOwner] = submitted.owners.map((owner) => owner.id) as [string, string];
      [approvedDocument, rejectedDocument] = submitted.documents.map((document) => document.id) as [string, string];
      customer = await api.review(ready.id, {
        owners: [
          { id: approvedOwner, status: 'APPROVED' },
          { id: rejectedOwner, status: 'REJECTED', admin_comments: ['The ID card back is cut off'] },
        ],
        documents: [
          { id: approvedDocument, status: 'APPROVED' },
          { id: rejectedDocument, status: 'REJECTED', admin_comments: ['Older than three months'] },
        ],
        verdict: 'REJECTED',
      });
      expect(customer.verification_status).toBe('REJECTED');
    });

    it('seed 3.3 (lock rule): an APPROVED owner or document stays locked (400) while the customer is REJECTED', async () => {
      const base = `/customer/${customer.id}`;
      await expectError(await call('PUT', base, { owners: [{ id: approvedOwner, title: 'CEO' }] }), 400, {
        code: 'OWNER_LOCKED',
        message: new RegExp(`owner ${approvedOwner} is locked and cannot be edited: it is APPROVED`),
      });
      const front = await api.presign(caller.token, `${base}/owner/${rejectedOwner}/file/presigned-url`, {
        slot: 'id_document_front',
        content_type: 'image/png',
        content_length: PNG_BYTES.length,
      });
      await expectError(
        await call('POST', `${base}/owner/${approvedOwner}/file/presigned-url`, {
          slot: 'id_document_front',
          content_type: 'image/png',
          content_length: PNG_BYTES.length,
        }),
        400,
        { code: 'OWNER_LOCKED' },
      );
      await expectError(
        await call('POST', `${base}/owner/${approvedOwner}/files`, {
          slot: 'id_document_front',
          file_id: front.file_id,
        }),
        400,
        { code: 'OWNER_LOCKED' },
      );
      await expectError(await call('DELETE', `${base}/owner/${approvedOwner}`), 400, { code: 'OWNER_LOCKED' });
      const file = await api.documentFile(caller.token, customer.id);
      await expectError(await call('PUT', `${base}/document/${approvedDocument}`, { file_id: file }), 400, {
        code: 'DOCUMENT_LOCKED',
        message: /it is APPROVED/,
      });
      const after = await api.getCustomer(caller.token, customer.id);
      expect(after.owners.find((owner) => owner.id === approvedOwner)).toEqual(
        customer.owners.find((owner) => owner.id === approvedOwner),
      );
      expect(after.documents.find((document) => document.id === approvedDocument)).toEqual(
        customer.documents.find((document) => document.id === approvedDocument),
      );
    });

    it('seed 3.3: the customer itself is editable again once REJECTED', async () => {
      expect((await api.updateCustomer(caller.token, customer.id, { trading_name: 'Acme Trading' })).trading_name).toBe(
        'Acme Trading',
      );
    });

    it('seed 3.3: a REJECTED owner whose fields change goes back to PENDING with admin_comments cleared', async () => {
      expect(customer.owners.find((owner) => owner.id === rejectedOwner)).toMatchObject({
        status: 'REJECTED',
        admin_comments: ['The ID card back is cut off'],
      });
      const updated = await api.updateCustomer(caller.token, customer.id, {
        owners: [{ id: rejectedOwner, title: 'Director' }],
      });
      expect(updated.owners.find((owner) => owner.id === rejectedOwner)).toMatchObject({
        status: 'PENDING',
        admin_comments: [],
        title: 'Director',
      });
      // The approved owner is untouched.
      expect(updated.owners.find((owner) => owner.id === approvedOwner)).toMatchObject({ status: 'APPROVED' });
    });

    it('seed 3.3: a REJECTED owner whose ID file is replaced goes back to PENDING with admin_comments cleared', async () => {
      const owner = await api.attachOwnerFile(caller.token, customer.id, rejectedOwner, 'id_document_back');
      expect(owner).toMatchObject({ status: 'PENDING', admin_comments: [] });
      expect(
        (await api.getCustomer(caller.token, customer.id)).owners.find((o) => o.id === rejectedOwner),
      ).toMatchObject({
        status: 'PENDING',
        admin_comments: [],
      });
    });

    it('seed 3.3: a REJECTED document whose file is replaced goes back to PENDING with admin_comments cleared', async () => {
      const document = await api.replaceDocument(caller.token, customer.id, rejectedDocument);
      expect(document).toMatchObject({ id: rejectedDocument, status: 'PENDING', admin_comments: [] });
      expect((await api.getCustomer(caller.token, customer.id)).documents).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: rejectedDocument, status: 'PENDING', admin_comments: [] }),
          expect.objectContaining({ id: approvedDocument, status: 'APPROVED' }),
        ]),
      );
    });

    it('seed 3.3: an update that changes nothing on a REJECTED owner leaves it REJECTED with its comments', async () => {
      const before = customer.owners.find((owner) => owner.id === rejectedOwner)!;
      const updated = await api.updateCustomer(caller.token, customer.id, {
        owners: [{ id: rejectedOwner, first_name: before.first_name }],
      });
      expect(updated.owners.find((owner) => owner.id === rejectedOwner)).toMatchObject({
        status: 'REJECTED',
        admin_comments: ['The ID card back is cut off'],
      });
    });

    it('seed 3.3: a REJECTED owner can be removed; new owners and documents can be added', async () => {
      const removed = await api.removeOwner(caller.token, customer.id, rejectedOwner);
      expect(removed.owners.map((owner) => owner.id)).toEqual([approvedOwner]);
      const added = await api.updateCustomer(caller.token, customer.id, {
        owners: [ownerBody({ ownership_percentage: 50 })],
      });
      expect(added.owners[1]).toMatchObject({ status: 'PENDING' });
      expect((await api.registerDocument(caller.token, customer.id, 'CAC_STATUS_REPORT')).status).toBe('PENDING');
    });
  });
});
