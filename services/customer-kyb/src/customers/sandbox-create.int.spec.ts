import { CustomerInputSchema, OwnerFileInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { typedBody } from '../../test/typed-bodies.fixtures.js';
import {
  KybDocumentType,
  KybScope,
  ReviewStatus,
  VerificationStatus,
  type Customer as CustomerMessage,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { Status, type CallerContext } from '@corridor/grpc';
import { query } from '@corridor/testing';
import { issueSandboxPlaceholder, SANDBOX_PLACEHOLDER_PREFIX } from '../files/file-uploads.js';
import { attachOwnerFile } from '../files/owner-files.js';
import {
  customerSpecKit,
  expectInvalid,
  expectRefused,
  fieldOf,
  nth,
  type PlatformActor,
} from '../../test/customers/customer-spec-kit.js';
import { SANDBOX_BUSINESS_NAME, sandboxCreateCustomer } from './sandbox-create.js';
import { SANDBOX_REJECTION_COMMENT } from './sandbox-review.js';

// SandboxCreateCustomer (issue 31, decision 0031): one call to a VERIFIED or REJECTED customer, against
// real PostgreSQL, through the long way's use cases: the same events in order and the same audit
// entries, sandbox placeholders in place of uploads, production SANDBOX_ONLY, all or nothing.

describe('customer-kyb: a customer in a final state in one sandbox call (real PostgreSQL)', () => {
  const kit = customerSpecKit('sandbox_create');
  const CREDENTIAL = 'ci_sandbox_0001';

  beforeAll(() => kit.start());
  afterAll(() => kit.stop());

  const callerOf = (actor: PlatformActor, changes: Partial<CallerContext> = {}): CallerContext => ({
    businessId: actor.businessId,
    credentialId: CREDENTIAL,
    environment: 'sandbox',
    requestId: 'req-sandbox-create',
    ...changes,
  });
  const sandboxCreate = (
    actor: PlatformActor,
    body: Record<string, unknown> = {},
    options: { verdict?: VerificationStatus; caller?: CallerContext; environment?: 'sandbox' | 'production' } = {},
  ) =>
    sandboxCreateCustomer(
      kit.em(),
      kit.contextIn(options.environment ?? 'sandbox'),
      options.caller ?? callerOf(actor),
      {
        body: typedBody(CustomerInputSchema, body),
        verdict: options.verdict ?? VerificationStatus.UNSPECIFIED,
      },
    );

  /** The stored files of a customer: key, size, whether storage was told of an upload. */
  const storedFiles = (customerId: string) =>
    query<{ slot: string; object_key: string; size_bytes: number; attached: boolean }>(
      kit.databaseUrl(),
      'select slot, object_key, size_bytes, attached_at is not null as attached from stored_file where customer_id = $1 order by slot',
      [customerId],
    );

  const expectPlaceholders = async (customer: CustomerMessage, slots: string[]) => {
    const files = await storedFiles(customer.id);
    expect(files.map((file) => file.slot)).toEqual(slots);
    for (const file of files) {
      expect(file).toMatchObject({ size_bytes: 0, attached: true });
      expect(file.object_key.startsWith(SANDBOX_PLACEHOLDER_PREFIX)).toBe(true);
      // Nothing was put in the bucket.
      expect(await kit.contextIn('sandbox').storage.head(file.object_key)).toBeUndefined();
    }
  };

  it('with no body: a FULL business "Sandbox Trading Ltd" (GB) with one owner holding 100 %, VERIFIED; its owner and formation document APPROVED on placeholders', async () => {
    const actor = kit.platform();
    const customer = await sandboxCreate(actor);
    expect(customer).toMatchObject({
      businessId: actor.businessId,
      kybScope: KybScope.FULL,
      verificationStatus: VerificationStatus.VERIFIED,
    });
    expect(fieldOf(customer, 'business_name')).toBe(SANDBOX_BUSINESS_NAME);
    expect(fieldOf(customer, 'country')).toBe('GB');
    expect(fieldOf(customer, 'incorporation_country')).toBe('GB');
    expect(fieldOf(customer, 'registration_number')).toMatch(/^SBX-[0-9A-F]{10}$/);
    const owner = nth(customer.owners);
    expect(customer.owners).toHaveLength(1);
    expect([fieldOf(owner, 'ownership_percentage'), owner.status]).toEqual([100, ReviewStatus.APPROVED]);
    expect(owner.idFiles.map((file) => [file.slot, file.sizeBytes, file.uploadedAt])).toEqual([
      ['id_document_front', 0n, customer.createdAt],
    ]);
    expect(customer.documents.map((document) => [document.type, document.status])).toEqual([
      [KybDocumentType.CERTIFICATE_OF_INCORPORATION, ReviewStatus.APPROVED],
    ]);
    await expectPlaceholders(customer, ['document', 'id_document_front']);
    // What GET /customer/{id} reads afterwards is the same customer.
    expect(await kit.current(actor, customer.id)).toEqual(customer);
  });

  it('records the long way’s events in order (created, PROCESSING by submit, VERIFIED by review) and its audit entries, each naming the caller as a sandbox simulation', async () => {
    const actor = kit.platform();
    const customer = await sandboxCreate(actor);
    expect(await kit.eventCases(customer.id)).toEqual([
      'customerCreated',
      'customerStatusChanged',
      'customerStatusChanged',
    ]);
    expect(await kit.statusChanges(customer.id)).toEqual([
      ['PENDING', 'PROCESSING', 'submit'],
      ['PROCESSING', 'VERIFIED', 'review'],
    ]);
    const audit = await kit.auditOf(customer.id);
    expect(audit.map((entry) => entry.action)).toEqual([
      'customer.created',
      'owner.file_attached',
      'document.registered',
      'customer.submitted',
      'customer.reviewed',
    ]);
    expect(new Set(audit.map((entry) => [entry.actor, entry.request_id].join(' ')))).toEqual(
      new Set([`sandbox:credential:${CREDENTIAL} req-sandbox-create`]),
    );
  });

  it('each call is a new customer with its own registration number (seed 2.1 rule 3 never refuses the default)', async () => {
    const actor = kit.platform();
    const first = await sandboxCreate(actor);
    const second = await sandboxCreate(actor);
    expect(first.id).not.toBe(second.id);
    expect(fieldOf(first, 'registration_number')).not.toBe(fieldOf(second, 'registration_number'));
    expect(await kit.customerCount(actor.businessId)).toBe(2);
  });

  it('keeps what the body sends: its fields and owners, each owner getting the slots its ID type needs', async () => {
    const actor = kit.platform();
    const customer = await sandboxCreate(actor, {
      type: 'business',
      business_name: 'Adaeze Textiles Ltd',
      country: 'NG',
      owners: [
        kit.ownerBody({ ownership_percentage: 60 }),
        kit.ownerBody({ ownership_percentage: 40, id_document_type: 'id_card' }),
      ],
    });
    expect(customer.verificationStatus).toBe(VerificationStatus.VERIFIED);
    expect([fieldOf(customer, 'business_name'), fieldOf(customer, 'incorporation_country')]).toEqual([
      'Adaeze Textiles Ltd',
      'NG',
    ]);
    expect(customer.owners.map((owner) => owner.idFiles.map((file) => file.slot))).toEqual([
      ['id_document_front'],
      ['id_document_front', 'id_document_back'],
    ]);
    expect(customer.owners.every((owner) => owner.status === ReviewStatus.APPROVED)).toBe(true);
  });

  it('MINIMAL for a business allow-listed for it: VERIFIED with no owners, on one placeholder formation document', async () => {
    const actor = kit.platform({ minimalAllowed: true });
    const customer = await sandboxCreate(actor, { kyb_scope: 'MINIMAL' });
    expect(customer).toMatchObject({
      kybScope: KybScope.MINIMAL,
      verificationStatus: VerificationStatus.VERIFIED,
      owners: [],
    });
    await expectPlaceholders(customer, ['document']);
  });

  it('MINIMAL for a business not allow-listed is 422 naming kyb_scope and the allow-list, as in production; nothing is created', async () => {
    const actor = kit.platform();
    await expectInvalid(sandboxCreate(actor, { kyb_scope: 'MINIMAL' }), {
      kyb_scope: /not allow-listed for MINIMAL.*sandbox keeps production's rule.*kyb_minimal_allowed/,
    });
    expect(await kit.customerCount(actor.businessId)).toBe(0);
  });

  it('an individual: identity defaults, a placeholder passport front, VERIFIED; an id_card gets a front and a back', async () => {
    const actor = kit.platform();
    const customer = await sandboxCreate(actor, { type: 'individual' });
    expect(customer.verificationStatus).toBe(VerificationStatus.VERIFIED);
    expect([fieldOf(customer, 'first_name'), fieldOf(customer, 'id_type'), fieldOf(customer, 'country')]).toEqual([
      'Sandbox',
      'passport',
      'GB',
    ]);
    expect(customer.idFiles.map((file) => [file.slot, file.sizeBytes])).toEqual([['id_file', 0n]]);
    await expectPlaceholders(customer, ['identity_front']);

    const carded = await sandboxCreate(actor, { type: 'individual', first_name: 'Ada', id_type: 'id_card' });
    expect(carded.verificationStatus).toBe(VerificationStatus.VERIFIED);
    expect(carded.idFiles.map((file) => file.slot)).toEqual(['id_file', 'id_file_back']);
    expect((await kit.auditOf(carded.id)).map((entry) => entry.action)).toEqual([
      'customer.created',
      'customer.files_attached',
      'customer.submitted',
      'customer.reviewed',
    ]);
  });

  it('REJECTED: every owner and document rejected with the sandbox’s comment, and customer.status_changed to REJECTED', async () => {
    const actor = kit.platform();
    const customer = await sandboxCreate(actor, {}, { verdict: VerificationStatus.REJECTED });
    expect(customer.verificationStatus).toBe(VerificationStatus.REJECTED);
    expect([...customer.owners, ...customer.documents].map((child) => [child.status, child.adminComments])).toEqual([
      [ReviewStatus.REJECTED, [SANDBOX_REJECTION_COMMENT]],
      [ReviewStatus.REJECTED, [SANDBOX_REJECTION_COMMENT]],
    ]);
    expect((await kit.statusChanges(customer.id)).at(-1)).toEqual(['PROCESSING', 'REJECTED', 'review']);
  });

  it('a verdict other than VERIFIED or REJECTED, an invalid field or a failed readiness check is 422, and nothing is created', async () => {
    const actor = kit.platform();
    await expectInvalid(sandboxCreate(actor, {}, { verdict: VerificationStatus.PROCESSING }), {
      verification_status: /must be VERIFIED or REJECTED/,
    });
    await expectInvalid(sandboxCreate(actor, { website: 'not a uri' }), { website: /./ });
    // Created, given files and then refused at submit: the one transaction leaves nothing behind.
    await expectInvalid(
      sandboxCreate(actor, { owners: [kit.ownerBody({ ownership_percentage: 50 })] }),
      { owners: /100/ },
      'READINESS_CHECK_FAILED',
    );
    expect(await kit.customerCount(actor.businessId)).toBe(0);
  });

  it('production is SANDBOX_ONLY (PERMISSION_DENIED), whether the caller or this process is production; nothing is created', async () => {
    const actor = kit.platform();
    await expectRefused(
      sandboxCreate(actor, {}, { caller: callerOf(actor, { environment: 'production' }) }),
      Status.PERMISSION_DENIED,
      'SANDBOX_ONLY',
    );
    await expectRefused(
      sandboxCreate(actor, {}, { environment: 'production' }),
      Status.PERMISSION_DENIED,
      'SANDBOX_ONLY',
    );
    expect(await kit.customerCount(actor.businessId)).toBe(0);
  });

  it('a placeholder is never taken in production, even where one exists', async () => {
    const actor = kit.platform();
    const customer = await kit.create(actor, {
      type: 'business',
      business_name: 'Acme Ltd',
      registration_number: 'RC1',
      incorporation_country: 'NG',
      country: 'NG',
      kyb_scope: 'FULL',
      owners: [kit.ownerBody()],
    });
    const owner = nth(customer.owners);
    const em = kit.em();
    const file = issueSandboxPlaceholder(em, kit.contextIn('production'), customer, {
      purpose: 'owner_id',
      slot: 'id_document_front',
      ownerId: owner.id,
    });
    await em.flush();
    await expectInvalid(
      attachOwnerFile(kit.em(), kit.contextIn('production'), actor, {
        customerId: customer.id,
        ownerId: owner.id,
        body: typedBody(OwnerFileInputSchema, { slot: 'id_document_front', file_id: file.id }),
      }),
      { file_id: /is a sandbox placeholder/ },
      'FILE_NOT_USABLE',
    );
  });
});
