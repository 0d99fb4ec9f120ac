import { randomUUID } from 'node:crypto';
import { KybDocumentType } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { integrationDatabase } from '@corridor/testing';
import { customerKybDatabase } from '../database.js';
import { StoredFile, type FilePurpose } from '../files/stored-file.entity.js';
import { loadAggregate } from './aggregate.js';
import { Customer, KybDocument, Owner } from './customer.entity.js';
import { toCustomerMessage } from './customer-message.js';
import { readCustomer, readCustomers } from './customer-view.js';
import { fieldOf } from '../../test/customers/customer-spec-kit.js';

// The one-statement read (issue 14) answers exactly what the entity aggregate the writes load
// answers: owners in their order, documents oldest first, attached files only, another business's
// customer not found (real PostgreSQL).

const T0 = new Date('2026-11-25T06:00:00.123Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe('customer-kyb: a customer read in one statement (real PostgreSQL)', () => {
  const database = integrationDatabase('customer-kyb', customerKybDatabase);
  const businessId = randomUUID();
  const otherBusinessId = randomUUID();
  const business = randomUUID();
  const individual = randomUUID();
  const bare = randomUUID();

  const { em } = database;

  beforeAll(async () => {
    const writer = em();
    const file = (customerId: string, purpose: FilePurpose, slot: string, attached: boolean, ownerId?: string) =>
      writer.create(StoredFile, {
        id: randomUUID(),
        businessId,
        customerId,
        purpose,
        slot,
        ownerId: ownerId ?? null,
        objectKey: `objects/${randomUUID()}`,
        contentType: 'image/png',
        sizeBytes: 1234,
        uploadUrlExpiresAt: at(900),
        uploadedAt: attached ? at(5) : null,
        attachedAt: attached ? at(6) : null,
        createdAt: at(1),
      });
    const customer = (id: string, type: 'individual' | 'business', extra: Partial<Customer> = {}) =>
      writer.create(Customer, {
        id,
        businessId,
        type,
        kybScope: type === 'business' ? 'FULL' : null,
        verificationStatus: 'PENDING',
        fields: type === 'business' ? { business_name: 'Acme', country: 'NG' } : { first_name: 'Ada', country: 'NG' },
        idFileId: null,
        idFileBackId: null,
        createdAt: at(0),
        updatedAt: at(10),
        submittedAt: null,
        ...extra,
      });
    // Rows refer to each other by foreign keys MikroORM does not know of: written parent first.
    customer(business, 'business', { submittedAt: at(20), verificationStatus: 'PROCESSING' });
    customer(bare, 'business', { kybScope: null });
    const individualRow = customer(individual, 'individual');
    await writer.flush();
    individualRow.idFileId = file(individual, 'individual_id', 'identity_front', true).id;
    // Owners stored out of their order: the answer follows `position`.
    const [second, first] = [randomUUID(), randomUUID()];
    const front = file(business, 'owner_id', 'id_document_front', true, first);
    file(business, 'owner_id', 'id_document_back', false, first); // issued, never attached
    const documentFiles = [
      file(business, 'kyb_document', 'document', true),
      file(business, 'kyb_document', 'document', true),
    ];
    await writer.flush();
    for (const [id, position, ownerFields] of [
      [second, 2, { first_name: 'Bola', ownership_percentage: 40 }],
      [first, 1, { first_name: 'Chi', ownership_percentage: 60 }],
    ] as const) {
      writer.create(Owner, {
        id,
        customerId: business,
        businessId,
        status: 'PENDING',
        adminComments: id === second ? ['blurry photo'] : [],
        fields: ownerFields,
        idDocumentFrontId: id === first ? front.id : null,
        idDocumentBackId: null,
        position,
        createdAt: at(position),
        updatedAt: at(position + 1),
      });
    }
    // Documents stored newest first: the answer is oldest first.
    for (const [index, [type, seconds]] of (
      [
        ['PROOF_OF_ADDRESS', 8],
        ['CERTIFICATE_OF_INCORPORATION', 7],
      ] as const
    ).entries()) {
      writer.create(KybDocument, {
        id: randomUUID(),
        customerId: business,
        businessId,
        type,
        status: 'PENDING',
        adminComments: [],
        fileId: documentFiles[index]!.id,
        createdAt: at(seconds),
        updatedAt: at(seconds),
      });
    }
    await writer.flush();
  });

  it.each([
    ['a business with owners, documents and files', () => business],
    ['an individual with an identity file', () => individual],
    ['a business with nothing but its fields (no scope stored: MINIMAL)', () => bare],
  ])('%s: the same answer as the aggregate a write loads', async (_, id) => {
    const actor = { businessId, name: 'credential:view-spec', requestId: undefined };
    const viaEntities = toCustomerMessage(await loadAggregate(em(), actor, id()));
    const view = await readCustomer(em(), id(), businessId);
    expect(view).toBeDefined();
    expect(toCustomerMessage(view!)).toEqual(viaEntities);
  });

  it('follows the owners’ order and the documents’ age, and shows attached files only', async () => {
    const message = toCustomerMessage((await readCustomer(em(), business, businessId))!);
    expect(message.owners.map((owner) => fieldOf(owner, 'first_name'))).toEqual(['Chi', 'Bola']);
    expect(message.owners[0]?.idFiles.map((file) => file.slot)).toEqual(['id_document_front']);
    expect(message.documents.map((document) => document.type)).toEqual([
      KybDocumentType.CERTIFICATE_OF_INCORPORATION,
      KybDocumentType.PROOF_OF_ADDRESS,
    ]);
    expect(message.submittedAt).toBeDefined();
  });

  it('another business’s customer, or a missing one, is not there; the back office (no business) sees it', async () => {
    expect(await readCustomer(em(), business, otherBusinessId)).toBeUndefined();
    expect(await readCustomer(em(), randomUUID(), businessId)).toBeUndefined();
    expect((await readCustomer(em(), business))?.customer.id).toBe(business);
  });

  it('reads a page of customers in the order it was given, skipping an id that matches none', async () => {
    const views = await readCustomers(em(), [individual, randomUUID(), business, bare]);
    expect(views.map((view) => view.customer.id)).toEqual([individual, business, bare]);
  });
});
