import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  CustomerSchema,
  CustomerType,
  FileUploadSchema,
  IdDocumentType,
  KybDocumentType,
  KybScope,
  ReviewStatus,
  VerificationStatus,
  type Customer,
  type FileUpload,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';

/** customer-kyb's answers as the gateway receives them, for the specs of the customer routes. */

export const CREATED = new Date('2026-11-01T09:00:00.000Z');
export const UPDATED = new Date('2026-11-02T10:30:00.000Z');
export const SUBMITTED = new Date('2026-11-03T12:00:00.000Z');
const at = (date: Date) => timestampFromDate(date);

type CustomerOverrides = Partial<Omit<Customer, '$typeName' | '$unknown'>>;

export const BUSINESS_ID = '4b8f3c2e-0000-4000-8000-00000000b001';
export const CUSTOMER_ID = '6c1d7a9e-0000-4000-8000-00000000c001';
export const OWNER_ID = '7e2f8b0a-0000-4000-8000-00000000a001';
export const DOCUMENT_ID = '8a3b9c1d-0000-4000-8000-00000000d001';
export const FILE_FRONT = '9b4cad2e-0000-4000-8000-00000000f001';
export const FILE_DOCUMENT = '9b4cad2e-0000-4000-8000-00000000f002';
export const FILE_ID = '9b4cad2e-0000-4000-8000-00000000f003';

export function businessCustomer(overrides: CustomerOverrides = {}): Customer {
  return create(CustomerSchema, {
    id: CUSTOMER_ID,
    businessId: BUSINESS_ID,
    type: CustomerType.BUSINESS,
    kybScope: KybScope.FULL,
    verificationStatus: VerificationStatus.REJECTED,
    data: {
      case: 'business',
      value: {
        country: 'NG',
        businessName: 'Acme Ltd',
        registrationNumber: 'RC-1234',
        incorporationCountry: 'NG',
        expectedMonthlyPayments: 40n,
      },
    },
    owners: [
      {
        id: OWNER_ID,
        status: ReviewStatus.REJECTED,
        adminComments: ['the ID photo is blurred'],
        data: { firstName: 'Ada', lastName: 'Obi', ownershipPercentage: '100', hasControl: true },
        idFiles: [
          {
            fileId: FILE_FRONT,
            slot: 'id_document_front',
            contentType: 'image/png',
            sizeBytes: 1234n,
            uploadedAt: at(UPDATED),
          },
        ],
        createdAt: at(CREATED),
        updatedAt: at(UPDATED),
      },
    ],
    documents: [
      {
        id: DOCUMENT_ID,
        type: KybDocumentType.CERTIFICATE_OF_INCORPORATION,
        status: ReviewStatus.APPROVED,
        adminComments: [],
        file: {
          fileId: FILE_DOCUMENT,
          slot: 'document',
          contentType: 'application/pdf',
          sizeBytes: 98765n,
          uploadedAt: at(CREATED),
        },
        createdAt: at(CREATED),
        updatedAt: at(CREATED),
      },
    ],
    createdAt: at(CREATED),
    updatedAt: at(UPDATED),
    submittedAt: at(SUBMITTED),
    ...overrides,
  });
}

export function individualCustomer(overrides: CustomerOverrides = {}): Customer {
  return create(CustomerSchema, {
    id: CUSTOMER_ID,
    businessId: BUSINESS_ID,
    type: CustomerType.INDIVIDUAL,
    verificationStatus: VerificationStatus.PENDING,
    data: {
      case: 'individual',
      value: { country: 'NG', firstName: 'Ngozi', lastName: 'Eze', idType: IdDocumentType.PASSPORT },
    },
    idFiles: [
      { fileId: FILE_ID, slot: 'id_file', contentType: 'image/jpeg', sizeBytes: 2048n, uploadedAt: at(UPDATED) },
    ],
    createdAt: at(CREATED),
    updatedAt: at(UPDATED),
    ...overrides,
  });
}

export function fileUpload(): FileUpload {
  return create(FileUploadSchema, {
    fileId: FILE_ID,
    uploadUrl: 'http://127.0.0.1:9000/corridor-files/uploads/f003?X-Amz-Signature=abc',
    method: 'PUT',
    headers: { 'content-type': 'image/png', 'content-length': '1234' },
    expiresAt: at(UPDATED),
    maxSizeBytes: 10485760n,
  });
}
