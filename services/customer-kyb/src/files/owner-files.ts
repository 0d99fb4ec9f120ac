import {
  OwnerFileSlotSchema,
  type FileUpload,
  type Owner as OwnerMessage,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import {
  OwnerFileInputSchema,
  OwnerFileUploadInputSchema,
  type OwnerFileInput,
  type OwnerFileUploadInput,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import type { EntityManager } from '@mikro-orm/core';
import { recordAudit } from '../audit/record-audit.js';
import type { Actor, CustomerContext } from '../context.js';
import { enumOf } from '../customer-input.js';
import { assertOwnerEditable, loadAggregate, reopenIfRejected, validationFailed } from '../customers/aggregate.js';
import type { Customer, Owner } from '../customers/customer.entity.js';
import { toOwnerMessage } from '../customers/customer-message.js';
import { ownerNotFound } from '../customers/owner-not-found.js';
import { checkIdSlotUpload, ID_SLOTS, type IdDocumentType, type IdSlot } from '../customers/rules/index.js';
import { FieldProblems } from '@corridor/validation';
import {
  claimUploadedFile,
  issueUpload,
  readBody,
  readFileId,
  readUploadRequest,
  type ReadProperty,
} from './file-uploads.js';

interface OwnerFileRequest<Body> {
  customerId: string;
  ownerId: string;
  body: Body;
}

async function editableOwner(
  tx: EntityManager,
  actor: Actor,
  input: OwnerFileRequest<OwnerFileUploadInput | OwnerFileInput>,
  lock: boolean,
) {
  const aggregate = await loadAggregate(tx, actor, input.customerId, lock);
  const owner = aggregate.owners.find((candidate) => candidate.id === input.ownerId.toLowerCase());
  if (!owner) throw ownerNotFound(input.ownerId);
  assertOwnerEditable(aggregate.customer, owner);
  return { aggregate, owner };
}

/** seed 2.2: the slot must exist, and a passport has no back. */
function readSlot(read: ReadProperty, owner: Owner, problems: FieldProblems): IdSlot | undefined {
  const slot = read('slot');
  if (slot === undefined || slot === null) {
    problems.add('slot', `is required: ${ID_SLOTS.join(' or ')}`);
    return undefined;
  }
  if (typeof slot !== 'string' || !(ID_SLOTS as readonly string[]).includes(slot)) {
    problems.add('slot', `must be ${ID_SLOTS.join(' or ')}`);
    return undefined;
  }
  const problem = checkIdSlotUpload(owner.fields.id_document_type as IdDocumentType | undefined, slot as IdSlot);
  if (problem) problems.add('slot', `${slot} ${problem}`);
  return slot as IdSlot;
}

/** POST /customer/{customer}/owner/{owner}/file/presigned-url: `{slot, content_type, content_length}`. */
export async function createOwnerFileUpload(
  em: EntityManager,
  context: CustomerContext,
  actor: Actor,
  input: OwnerFileRequest<OwnerFileUploadInput>,
): Promise<FileUpload> {
  return em.transactional(async (tx) => {
    const { aggregate, owner } = await editableOwner(tx, actor, input, false);
    const problems = new FieldProblems();
    const read = readBody(OwnerFileUploadInputSchema, input.body, problems);
    const slot = readSlot(read, owner, problems);
    const upload = readUploadRequest(read, context.files.maxBytes, problems);
    if (!problems.isEmpty || !slot || !upload) throw validationFailed(problems.errors);
    return issueUpload(tx, context, aggregate.customer, { purpose: 'owner_id', slot, ownerId: owner.id }, upload);
  });
}

function attachToSlot(owner: Owner, slot: IdSlot, fileId: string): void {
  if (slot === 'id_document_front') owner.idDocumentFrontId = fileId;
  else owner.idDocumentBackId = fileId;
}

/** POST /customer/{id}/owner/{owner}/files: `{slot, file_id}` puts an uploaded file in the slot. */
export async function attachOwnerFile(
  em: EntityManager,
  context: CustomerContext,
  actor: Actor,
  input: OwnerFileRequest<OwnerFileInput>,
): Promise<OwnerMessage> {
  return em.transactional(async (tx) => {
    const { aggregate, owner } = await editableOwner(tx, actor, input, true);
    const problems = new FieldProblems();
    const read = readBody(OwnerFileInputSchema, input.body, problems);
    const slot = readSlot(read, owner, problems);
    const fileId = readFileId(read, 'file_id', problems);
    if (!problems.isEmpty || !slot || !fileId) throw validationFailed(problems.errors);
    const customer: Customer = aggregate.customer;
    const file = await claimUploadedFile(
      tx,
      context,
      customer,
      { purpose: 'owner_id', slot, ownerId: owner.id },
      fileId,
      'file_id',
    );
    const replaced = slot === 'id_document_front' ? owner.idDocumentFrontId : owner.idDocumentBackId;
    attachToSlot(owner, slot, file.id);
    const now = context.now();
    owner.updatedAt = now;
    reopenIfRejected(owner); // seed 3.3: a file replacement is a change
    recordAudit(
      tx,
      actor,
      customer,
      'owner.file_attached',
      {
        action: {
          case: 'ownerFileAttached',
          value: {
            ownerId: owner.id,
            slot: enumOf(OwnerFileSlotSchema, slot),
            fileId: file.id,
            replaced: replaced ?? undefined,
          },
        },
      },
      now,
    );
    aggregate.files.set(file.id, file);
    return toOwnerMessage(owner, aggregate.files);
  });
}
