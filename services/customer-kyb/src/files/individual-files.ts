import type { Customer as CustomerMessage, FileUpload } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import {
  CustomerFilesInputSchema,
  FileUploadInputSchema,
  type CustomerFilesInput,
  type FileUploadInput,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import type { EntityManager } from '@mikro-orm/core';
import { recordAudit } from '../audit/record-audit.js';
import type { Actor, CustomerContext } from '../context.js';
import { assertCustomerEditable, loadAggregate, validationFailed } from '../customers/aggregate.js';
import type { Customer } from '../customers/customer.entity.js';
import { toCustomerMessage } from '../customers/customer-message.js';
import { FieldProblems, isUuid } from '@corridor/validation';
import { claimUploadedFile, issueUpload, readBody, readFileId, readUploadRequest } from './file-uploads.js';

/** seed 4.4: `file_category` of POST /file/get-presigned-url; includes identity_back. */
export const FILE_CATEGORIES = ['identity_front', 'identity_back'] as const;

const BUSINESS_USES_KYB =
  'is a business: legacy file-based verification no longer applies to business customers; upload KYB documents with POST /customer/{customer}/document/presigned-url and owner ID files with POST /customer/{customer}/owner/{owner}/file/presigned-url';

function assertIndividual(customer: Customer, path: string): void {
  if (customer.type !== 'individual') throw validationFailed({ [path]: [BUSINESS_USES_KYB] }, 'NOT_AN_INDIVIDUAL');
}

/** POST /file/get-presigned-url: `{customer_id, file_category, content_type, content_length}`. */
export async function createFileUpload(
  em: EntityManager,
  context: CustomerContext,
  actor: Actor,
  input: { body: FileUploadInput },
): Promise<FileUpload> {
  const problems = new FieldProblems();
  const read = readBody(FileUploadInputSchema, input.body, problems);
  const rawCustomerId = read('customer_id');
  let customerId: string | undefined;
  if (rawCustomerId === undefined || rawCustomerId === null) {
    problems.add('customer_id', 'is required: the individual customer the file belongs to');
  } else if (typeof rawCustomerId !== 'string' || !isUuid(rawCustomerId)) {
    problems.add('customer_id', 'must be a customer id (a uuid)');
  } else customerId = rawCustomerId;
  const category = read('file_category');
  if (category === undefined || category === null)
    problems.add('file_category', `is required: ${FILE_CATEGORIES.join(' or ')}`);
  else if (typeof category !== 'string' || !(FILE_CATEGORIES as readonly string[]).includes(category)) {
    problems.add('file_category', `must be ${FILE_CATEGORIES.join(' or ')}`);
  }
  const upload = readUploadRequest(read, context.files.maxBytes, problems);
  if (!problems.isEmpty || !customerId || !upload) throw validationFailed(problems.errors);
  return em.transactional(async (tx) => {
    const { customer } = await loadAggregate(tx, actor, customerId);
    assertIndividual(customer, 'customer_id');
    assertCustomerEditable(customer);
    return issueUpload(tx, context, customer, { purpose: 'individual_id', slot: category as string }, upload);
  });
}

/** POST /customer/{id}/files: `{id_file, id_file_back?}`; attaching never triggers verification. */
export async function attachCustomerFiles(
  em: EntityManager,
  context: CustomerContext,
  actor: Actor,
  input: { customerId: string; body: CustomerFilesInput },
): Promise<CustomerMessage> {
  return em.transactional(async (tx) => {
    const aggregate = await loadAggregate(tx, actor, input.customerId, true);
    const { customer } = aggregate;
    assertIndividual(customer, 'customer');
    assertCustomerEditable(customer);
    const problems = new FieldProblems();
    const read = readBody(CustomerFilesInputSchema, input.body, problems);
    const front = readFileId(read, 'id_file', problems);
    const back = readFileId(read, 'id_file_back', problems, false);
    if (!problems.isEmpty || !front) throw validationFailed(problems.errors);
    const frontFile = await claimUploadedFile(
      tx,
      context,
      customer,
      { purpose: 'individual_id', slot: 'identity_front' },
      front,
      'id_file',
    );
    customer.idFileId = frontFile.id;
    aggregate.files.set(frontFile.id, frontFile);
    if (back) {
      const backFile = await claimUploadedFile(
        tx,
        context,
        customer,
        { purpose: 'individual_id', slot: 'identity_back' },
        back,
        'id_file_back',
      );
      customer.idFileBackId = backFile.id;
      aggregate.files.set(backFile.id, backFile);
    }
    const now = context.now();
    customer.updatedAt = now;
    recordAudit(
      tx,
      actor,
      customer,
      'customer.files_attached',
      { action: { case: 'filesAttached', value: { idFile: front, idFileBack: back } } },
      now,
    );
    return toCustomerMessage(aggregate);
  });
}
