import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  CustomerSchema,
  CustomerType,
  IdDocumentType,
  KybDocumentType,
  KybScope,
  ReviewStatus,
  VerificationStatus,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { BUSINESS_ID } from '../testing/fake-identity.js';

/** customer-kyb's answers as the dashboard receives them (as the gateway's customer.fixtures.ts). */

export const CUSTOMER_ID = '6c1d7a9e-0000-4000-8000-00000000c001';
export const INDIVIDUAL_ID = '6c1d7a9e-0000-4000-8000-00000000c002';
/** A customer of another business: customer-kyb answers NOT_FOUND for it to this business's members. */
export const OTHER_CUSTOMER_ID = '6c1d7a9e-0000-4000-8000-00000000c0ff';
export const OWNER_ID = '7e2f8b0a-0000-4000-8000-00000000a001';
export const DOCUMENT_ID = '8a3b9c1d-0000-4000-8000-00000000d001';
const CREATED = new Date('2026-11-01T09:00:00.000Z');
const UPDATED = new Date('2026-11-02T10:30:00.000Z');
const SUBMITTED = new Date('2026-11-03T12:00:00.000Z');
const at = timestampFromDate;

type CustomerInit = MessageInitShape<typeof CustomerSchema>;

/** A FULL business customer the back office rejected: an owner's ID photo is blurred. */
export const businessCustomer = (overrides: CustomerInit = {}) =>
  create(CustomerSchema, {
    id: CUSTOMER_ID,
    businessId: BUSINESS_ID,
    type: CustomerType.BUSINESS,
    kybScope: KybScope.FULL,
    verificationStatus: VerificationStatus.REJECTED,
    data: {
      case: 'business',
      value: {
        country: 'NG',
        email: 'finance@acme.example',
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
        data: {
          firstName: 'Ada',
          lastName: 'Obi',
          ownershipPercentage: '100',
          title: 'Director',
          hasControl: true,
          isBeneficialOwner: true,
          idDocumentType: IdDocumentType.ID_CARD,
        },
        idFiles: [
          {
            fileId: 'f1',
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
          fileId: 'f2',
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

/** An individual not yet submitted, with a passport front attached. */
export const individualCustomer = (overrides: CustomerInit = {}) =>
  create(CustomerSchema, {
    id: INDIVIDUAL_ID,
    businessId: BUSINESS_ID,
    type: CustomerType.INDIVIDUAL,
    verificationStatus: VerificationStatus.PENDING,
    data: {
      case: 'individual',
      value: {
        country: 'NG',
        email: 'ngozi@example.com',
        firstName: 'Ngozi',
        lastName: 'Eze',
        idType: IdDocumentType.PASSPORT,
      },
    },
    idFiles: [{ fileId: 'f3', slot: 'id_file', contentType: 'image/jpeg', sizeBytes: 2048n, uploadedAt: at(UPDATED) }],
    createdAt: at(CREATED),
    updatedAt: at(UPDATED),
    ...overrides,
  });
