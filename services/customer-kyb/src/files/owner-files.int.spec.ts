import {
  CustomerInputSchema,
  OwnerFileInputSchema,
  OwnerFileUploadInputSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { typedBody } from '../../test/typed-bodies.fixtures.js';
import { Status } from '@corridor/grpc';
import { randomUUID } from 'node:crypto';
import { putObject } from '../../test/customer-kyb-spec-kit.js';
import { updateCustomer } from '../customers/update-customer.js';
import {
  businessBody,
  customerSpecKit,
  expectInvalid,
  expectRefused,
  nth,
  PDF,
  type PlatformActor,
} from '../../test/customers/customer-spec-kit.js';
import { attachOwnerFile, createOwnerFileUpload } from './owner-files.js';

// Owner ID files as customer-kyb serves them (seed 2.2's slots; decision 0008): the presigned upload
// per slot and the attach once the object is in S3Proxy, against real PostgreSQL and S3Proxy. The
// lock rule of seed 3.3 is lock-rule.int.spec.ts's.

describe('customer-kyb: owner ID files (real PostgreSQL and S3Proxy)', () => {
  const kit = customerSpecKit('owner_files');
  let actor: PlatformActor;

  beforeAll(async () => {
    await kit.start();
    actor = kit.platform();
  });
  afterAll(() => kit.stop());

  const presign = async (
    customerId: string,
    ownerId: string,
    body: Record<string, unknown>,
    who: PlatformActor = actor,
  ) =>
    createOwnerFileUpload(kit.em(), kit.context(), who, {
      customerId,
      ownerId,
      body: typedBody(OwnerFileUploadInputSchema, body),
    });
  const attach = async (
    customerId: string,
    ownerId: string,
    slot: string,
    fileId: string,
    who: PlatformActor = actor,
  ) =>
    attachOwnerFile(kit.em(), kit.context(), who, {
      customerId,
      ownerId,
      body: typedBody(OwnerFileInputSchema, { slot, file_id: fileId }),
    });
  const withOwner = (owner: Record<string, unknown> = {}) =>
    kit.create(actor, businessBody({ owners: [kit.ownerBody(owner)] }));
  const pdf = { content_type: 'application/pdf', content_length: PDF.length };

  it('seed 2.2: a passport takes a front, audited with the slot, and no event fires; its back is refused at the presigned URL', async () => {
    const customer = await withOwner({ id_document_type: 'passport' });
    const owner = nth(customer.owners);
    await expectInvalid(presign(customer.id, owner.id, { slot: 'id_document_back', ...pdf }), {
      slot: /id_document_back must not be uploaded for a passport/,
    });
    const fileId = await kit.ownerFile(actor, customer.id, owner.id, 'id_document_front');
    const attached = await attach(customer.id, owner.id, 'id_document_front', fileId);
    expect(attached.idFiles).toEqual([
      expect.objectContaining({
        fileId,
        slot: 'id_document_front',
        contentType: 'application/pdf',
        sizeBytes: BigInt(PDF.length),
      }),
    ]);
    expect(nth((await kit.current(actor, customer.id)).owners)).toEqual(attached);
    expect((await kit.auditOf(customer.id)).at(-1)).toEqual({
      action: 'owner.file_attached',
      actor: actor.name,
      request_id: actor.requestId,
      changes: { owner_id: owner.id, slot: 'id_document_front', file_id: fileId, replaced: null },
    });
    expect(await kit.eventCases(customer.id)).toEqual(['customerCreated']);
  });

  it('seed 2.2: a back uploaded before the document type became passport is refused at attach', async () => {
    const customer = await withOwner({ id_document_type: 'id_card' });
    const owner = nth(customer.owners);
    const back = await kit.ownerFile(actor, customer.id, owner.id, 'id_document_back');
    await updateCustomer(kit.em(), kit.context(), actor, {
      customerId: customer.id,
      body: typedBody(CustomerInputSchema, { owners: [{ id: owner.id, id_document_type: 'passport' }] }),
      kycDataOnly: false,
    });
    await expectInvalid(attach(customer.id, owner.id, 'id_document_back', back), {
      slot: /id_document_back must not be uploaded for a passport/,
    });
  });

  it.each(['drivers_license', 'id_card', 'resident_permit'])(
    'seed 2.2: a %s takes a front and a back',
    async (type) => {
      const customer = await withOwner({ id_document_type: type });
      const owner = nth(customer.owners);
      await kit.attachOwnerSlot(actor, customer.id, owner.id, 'id_document_front');
      const withBack = await kit.attachOwnerSlot(actor, customer.id, owner.id, 'id_document_back');
      expect(withBack.idFiles.map((file) => file.slot)).toEqual(['id_document_front', 'id_document_back']);
      expect(nth((await kit.current(actor, customer.id)).owners).idFiles).toEqual(withBack.idFiles);
    },
  );

  it('seed 2.2: the slots are id_document_front and id_document_back only; the upload request is checked like any', async () => {
    const customer = await withOwner();
    const ownerId = nth(customer.owners).id;
    await expectInvalid(
      presign(customer.id, ownerId, { slot: 'selfie', content_type: 'image/png', content_length: 10 }),
      {
        slot: /must be id_document_front or id_document_back/,
      },
    );
    await expectInvalid(presign(customer.id, ownerId, { content_type: 'image/gif', content_length: 0 }), {
      slot: /is required: id_document_front or id_document_back/,
      content_type: /must be one of/,
      content_length: /at least 1/,
    });
    await expectInvalid(attach(customer.id, ownerId, 'selfie', randomUUID()), {
      slot: /must be id_document_front or id_document_back/,
    });
    await expectInvalid(attach(customer.id, ownerId, 'id_document_front', 'nope'), { file_id: /must be the file_id/ });
  });

  it('seed 2.2: attaching to a filled slot replaces the file, and the audit entry names the one replaced', async () => {
    const customer = await withOwner();
    const ownerId = nth(customer.owners).id;
    const first = await kit.attachOwnerSlot(actor, customer.id, ownerId, 'id_document_front');
    const second = await kit.attachOwnerSlot(actor, customer.id, ownerId, 'id_document_front');
    expect(nth(second.idFiles).fileId).not.toBe(nth(first.idFiles).fileId);
    expect(nth(nth((await kit.current(actor, customer.id)).owners).idFiles).fileId).toBe(nth(second.idFiles).fileId);
    expect((await kit.auditOf(customer.id)).at(-1)?.changes).toMatchObject({ replaced: nth(first.idFiles).fileId });
  });

  describe('decision 0008: which file may be attached', () => {
    it('only after it was uploaded (422 FILE_NOT_UPLOADED), then once (422 FILE_ALREADY_ATTACHED)', async () => {
      const customer = await withOwner();
      const ownerId = nth(customer.owners).id;
      const upload = await presign(customer.id, ownerId, { slot: 'id_document_front', ...pdf });
      await expectInvalid(
        attach(customer.id, ownerId, 'id_document_front', upload.fileId),
        {
          file_id: /has not been uploaded yet: PUT it to its upload_url first/,
        },
        'FILE_NOT_UPLOADED',
      );
      expect(await putObject(upload, PDF)).toBe(200);
      expect(nth((await attach(customer.id, ownerId, 'id_document_front', upload.fileId)).idFiles).fileId).toBe(
        upload.fileId,
      );
      await expectInvalid(
        attach(customer.id, ownerId, 'id_document_front', upload.fileId),
        {
          file_id: /is already attached; upload a new file/,
        },
        'FILE_ALREADY_ATTACHED',
      );
    });

    it('a file issued for one purpose, slot or owner serves no other', async () => {
      const customer = await kit.create(
        actor,
        businessBody({
          owners: [
            kit.ownerBody({ id_document_type: 'id_card', ownership_percentage: 50 }),
            kit.ownerBody({ ownership_percentage: 50 }),
          ],
        }),
      );
      const [first, second] = customer.owners.map((owner) => owner.id);
      const documentFile = await kit.documentFile(actor, customer.id);
      await expectInvalid(
        attach(customer.id, first ?? '', 'id_document_front', documentFile),
        { file_id: /was issued for a KYB document/ },
        'FILE_NOT_USABLE',
      );
      const front = await kit.ownerFile(actor, customer.id, first ?? '', 'id_document_front');
      await expectInvalid(
        attach(customer.id, first ?? '', 'id_document_back', front),
        { file_id: /was issued for id_document_front, not id_document_back/ },
        'FILE_NOT_USABLE',
      );
      await expectInvalid(
        attach(customer.id, second ?? '', 'id_document_front', front),
        { file_id: /was issued for another owner/ },
        'FILE_NOT_USABLE',
      );
    });
  });

  it('an unknown owner, or another customer’s, is OWNER_NOT_FOUND on both routes', async () => {
    const customer = await withOwner();
    const other = await withOwner();
    for (const ownerId of [randomUUID(), nth(other.owners).id]) {
      await expectRefused(
        presign(customer.id, ownerId, { slot: 'id_document_front', ...pdf }),
        Status.NOT_FOUND,
        'OWNER_NOT_FOUND',
      );
      await expectRefused(
        attach(customer.id, ownerId, 'id_document_front', randomUUID()),
        Status.NOT_FOUND,
        'OWNER_NOT_FOUND',
      );
    }
  });

  it('tenancy: another business’s customer is CUSTOMER_NOT_FOUND, and its owner gains no file', async () => {
    const customer = await withOwner();
    const ownerId = nth(customer.owners).id;
    const fileId = await kit.ownerFile(actor, customer.id, ownerId, 'id_document_front');
    const before = await kit.footprint(customer.id);
    const stranger = kit.platform();
    await expectRefused(
      presign(customer.id, ownerId, { slot: 'id_document_front', ...pdf }, stranger),
      Status.NOT_FOUND,
      'CUSTOMER_NOT_FOUND',
    );
    await expectRefused(
      attach(customer.id, ownerId, 'id_document_front', fileId, stranger),
      Status.NOT_FOUND,
      'CUSTOMER_NOT_FOUND',
    );
    expect(await kit.footprint(customer.id)).toEqual(before);
  });
});
