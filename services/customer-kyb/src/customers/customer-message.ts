import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  BusinessDataSchema,
  CustomerSchema,
  CustomerTypeSchema,
  IndividualDataSchema,
  KybDocumentTypeSchema,
  KybScope,
  KybScopeSchema,
  ReviewStatusSchema,
  VerificationStatusSchema,
  KybDocumentSchema,
  OwnerDataSchema,
  OwnerSchema,
  type Customer as CustomerMessage,
  type FileRef,
  type KybDocument as KybDocumentMessage,
  type Owner as OwnerMessage,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { dataOfJson } from '@corridor/customer-json';
import { enumOf } from '../customer-input.js';
import type { CustomerView, ViewFile, ViewOwner } from './aggregate.js';

function fileRef(files: ReadonlyMap<string, ViewFile>, id: string | null | undefined, slot: string): FileRef[] {
  const file = id ? files.get(id) : undefined;
  if (!file) return [];
  return [
    {
      $typeName: 'corridor.customer.v1.FileRef',
      fileId: file.id,
      slot,
      contentType: file.contentType,
      sizeBytes: BigInt(file.sizeBytes),
      uploadedAt: file.uploadedAt ? timestampFromDate(file.uploadedAt) : undefined,
    },
  ];
}

export function toOwnerMessage(owner: ViewOwner, files: ReadonlyMap<string, ViewFile>): OwnerMessage {
  return create(OwnerSchema, {
    id: owner.id,
    status: enumOf(ReviewStatusSchema, owner.status),
    adminComments: owner.adminComments,
    data: dataOfJson(OwnerDataSchema, owner.fields),
    idFiles: [
      ...fileRef(files, owner.idDocumentFrontId, 'id_document_front'),
      ...fileRef(files, owner.idDocumentBackId, 'id_document_back'),
    ],
    createdAt: timestampFromDate(owner.createdAt),
    updatedAt: timestampFromDate(owner.updatedAt),
  });
}

export function toDocumentMessage(
  document: CustomerView['documents'][number],
  files: ReadonlyMap<string, ViewFile>,
): KybDocumentMessage {
  return create(KybDocumentSchema, {
    id: document.id,
    type: enumOf(KybDocumentTypeSchema, document.type),
    status: enumOf(ReviewStatusSchema, document.status),
    adminComments: document.adminComments,
    file: fileRef(files, document.fileId, 'document')[0],
    createdAt: timestampFromDate(document.createdAt),
    updatedAt: timestampFromDate(document.updatedAt),
  });
}

export function toCustomerMessage({ customer, owners, documents, files }: CustomerView): CustomerMessage {
  const business = customer.type === 'business';
  return create(CustomerSchema, {
    id: customer.id,
    businessId: customer.businessId,
    type: enumOf(CustomerTypeSchema, customer.type),
    // seed 2.1: a business stored without a scope reads as MINIMAL.
    kybScope: business ? enumOf(KybScopeSchema, customer.kybScope ?? 'MINIMAL') : KybScope.UNSPECIFIED,
    verificationStatus: enumOf(VerificationStatusSchema, customer.verificationStatus),
    data: business
      ? { case: 'business', value: dataOfJson(BusinessDataSchema, customer.fields) }
      : { case: 'individual', value: dataOfJson(IndividualDataSchema, customer.fields) },
    owners: business ? owners.map((owner) => toOwnerMessage(owner, files)) : [],
    documents: business ? documents.map((document) => toDocumentMessage(document, files)) : [],
    idFiles: business
      ? []
      : [...fileRef(files, customer.idFileId, 'id_file'), ...fileRef(files, customer.idFileBackId, 'id_file_back')],
    createdAt: timestampFromDate(customer.createdAt),
    updatedAt: timestampFromDate(customer.updatedAt),
    submittedAt: customer.submittedAt ? timestampFromDate(customer.submittedAt) : undefined,
  });
}
