import {
  CustomerFilesInputSchema,
  FileUploadInputSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { typedBody } from '../../test/typed-bodies.fixtures.js';
import { VerificationStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { Status } from '@corridor/grpc';
import { randomUUID } from 'node:crypto';
import {
  businessBody,
  customerSpecKit,
  expectInvalid,
  expectRefused,
  individualBody,
  type PlatformActor,
} from '../../test/customers/customer-spec-kit.js';
import { attachCustomerFiles, createFileUpload } from './individual-files.js';

// An individual's ID files as customer-kyb serves them (seed 4.4, seed 9; decision 0008): POST
// /file/get-presigned-url and POST /customer/{id}/files, against real PostgreSQL and S3Proxy.

describe('customer-kyb: individual ID files (real PostgreSQL and S3Proxy)', () => {
  const kit = customerSpecKit('individual_files');
  let actor: PlatformActor;

  beforeAll(async () => {
    await kit.start();
    actor = kit.platform();
  });
  afterAll(() => kit.stop());

  const presign = async (body: Record<string, unknown>, who: PlatformActor = actor) =>
    createFileUpload(kit.em(), kit.context(), who, { body: typedBody(FileUploadInputSchema, body) });
  const attach = async (customerId: string, body: Record<string, unknown>, who: PlatformActor = actor) =>
    attachCustomerFiles(kit.em(), kit.context(), who, { customerId, body: typedBody(CustomerFilesInputSchema, body) });

  it('seed 4.4: identity_front and identity_back attach to the individual, audited, without triggering verification or any event', async () => {
    const individual = await kit.create(actor, individualBody({ id_type: 'id_card', id_number: 'N123' }));
    const front = await kit.individualFile(actor, individual.id, 'identity_front');
    const back = await kit.individualFile(actor, individual.id, 'identity_back');
    const customer = await attach(individual.id, { id_file: front, id_file_back: back });
    expect(customer.verificationStatus).toBe(VerificationStatus.PENDING);
    expect(customer.idFiles.map((file) => [file.slot, file.fileId, file.contentType])).toEqual([
      ['id_file', front, 'application/pdf'],
      ['id_file_back', back, 'application/pdf'],
    ]);
    expect(await kit.current(actor, individual.id)).toEqual(customer);
    expect((await kit.auditOf(individual.id)).at(-1)).toEqual({
      action: 'customer.files_attached',
      actor: actor.name,
      request_id: actor.requestId,
      changes: { id_file: front, id_file_back: back },
    });
    expect(await kit.eventCases(individual.id)).toEqual(['customerCreated']);
  });

  it('each invalid field of an upload request is 422 naming it', async () => {
    const individual = await kit.create(actor, individualBody());
    await expectInvalid(
      presign({ customer_id: individual.id, file_category: 'selfie', content_type: 'image/jpeg', content_length: 10 }),
      {
        file_category: /must be identity_front or identity_back/,
      },
    );
    await expectInvalid(presign({}), {
      customer_id: /is required: the individual customer the file belongs to/,
      file_category: /is required/,
      content_type: /is required/,
      content_length: /is required/,
    });
    await expectInvalid(
      presign({ customer_id: 'x', file_category: 'identity_front', content_type: 'image/png', content_length: 10 }),
      {
        customer_id: /must be a customer id/,
      },
    );
  });

  it('a slot takes only a file issued for it, uploaded, and not attached before', async () => {
    const individual = await kit.create(actor, individualBody());
    const back = await kit.individualFile(actor, individual.id, 'identity_back');
    await expectInvalid(
      attach(individual.id, { id_file: back }),
      { id_file: /was issued for identity_back, not identity_front/ },
      'FILE_NOT_USABLE',
    );
    await expectInvalid(attach(individual.id, {}), { id_file: /is required/ });
    const upload = await presign({
      customer_id: individual.id,
      file_category: 'identity_front',
      content_type: 'image/png',
      content_length: 10,
    });
    await expectInvalid(
      attach(individual.id, { id_file: upload.fileId }),
      { id_file: /has not been uploaded yet/ },
      'FILE_NOT_UPLOADED',
    );
  });

  it('seed 9: for a business the legacy individual file routes are 422 NOT_AN_INDIVIDUAL pointing to the KYB routes', async () => {
    const business = await kit.create(actor, businessBody());
    await expectInvalid(
      presign({
        customer_id: business.id,
        file_category: 'identity_front',
        content_type: 'image/png',
        content_length: 10,
      }),
      { customer_id: /legacy file-based verification no longer applies to business customers/ },
      'NOT_AN_INDIVIDUAL',
    );
    await expectInvalid(
      attach(business.id, { id_file: randomUUID() }),
      {
        customer: /document\/presigned-url.*owner\/\{owner\}\/file\/presigned-url/,
      },
      'NOT_AN_INDIVIDUAL',
    );
    expect((await kit.current(actor, business.id)).verificationStatus).toBe(VerificationStatus.PENDING);
  });

  it('issue 4: a PROCESSING or VERIFIED individual takes no new files (400 CUSTOMER_LOCKED)', async () => {
    const ready = await kit.individualReadyToSubmit(actor);
    await kit.submit(actor, ready.id);
    const body = {
      customer_id: ready.id,
      file_category: 'identity_back',
      content_type: 'image/png',
      content_length: 10,
    };
    await expectRefused(
      presign(body),
      Status.FAILED_PRECONDITION,
      'CUSTOMER_LOCKED',
      /is PROCESSING and cannot be edited/,
    );
    await expectRefused(attach(ready.id, { id_file: randomUUID() }), Status.FAILED_PRECONDITION, 'CUSTOMER_LOCKED');
    await kit.review(ready.id, { verdict: 'VERIFIED' });
    await expectRefused(presign(body), Status.FAILED_PRECONDITION, 'CUSTOMER_LOCKED', /is VERIFIED/);
  });

  it('tenancy: another business’s individual is CUSTOMER_NOT_FOUND on both routes', async () => {
    const individual = await kit.create(actor, individualBody());
    const front = await kit.individualFile(actor, individual.id, 'identity_front');
    const stranger = kit.platform();
    await expectRefused(
      presign(
        { customer_id: individual.id, file_category: 'identity_front', content_type: 'image/png', content_length: 10 },
        stranger,
      ),
      Status.NOT_FOUND,
      'CUSTOMER_NOT_FOUND',
    );
    await expectRefused(attach(individual.id, { id_file: front }, stranger), Status.NOT_FOUND, 'CUSTOMER_NOT_FOUND');
    expect((await kit.current(actor, individual.id)).idFiles).toEqual([]);
  });
});
