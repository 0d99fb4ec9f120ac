import type { JsonObject, MessageInitShape } from '@bufbuild/protobuf';
import {
  AccountPurpose,
  BusinessType,
  IdDocumentType,
  KybDocumentType,
  KybScope,
  OwnerFileSlot,
  ReviewStatus,
  VerificationStatus,
  type AuditChangesSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';

/**
 * An audit row of every action and shape customer-kyb has written since 0.1.0 (decision 0062): the
 * changes as its use case wrote them, the typed AuditChanges they read back as, and the admin API's
 * `changes` as answered today, i.e. as PostgreSQL's jsonb gives the row back (shorter keys first,
 * then bytewise; "to" before "from"). customer-kyb stores `written` and reads it back; the gateway
 * renders `typed` and the Struct of `answered`: both must give `answered`, byte for byte.
 */
export interface AuditRow {
  readonly shape: string;
  readonly action: string;
  readonly customerType: 'individual' | 'business';
  readonly written: JsonObject;
  readonly typed: MessageInitShape<typeof AuditChangesSchema>;
  readonly answered: string;
}

const OWNER_1 = '0b6f4a52-8f0e-4c61-9d1e-3f1b2c4d5e61';
const OWNER_2 = '1c7a5b63-9a1f-4d72-8e2f-4a2c3d5e6f72';
const DOCUMENT_1 = '2d8b6c74-ab20-4e83-9f30-5b3d4e6f7a83';
const FILE_1 = '3e9c7d85-bc31-4f94-8a41-6c4e5f7a8b94';
const FILE_2 = '4fad8e96-cd42-4aa5-9b52-7d5f6a8b9ca5';

const PROCESSING_TO_REJECTED = { from: VerificationStatus.PROCESSING, to: VerificationStatus.REJECTED };

export const AUDIT_ROWS: readonly AuditRow[] = [
  {
    shape: 'a business created with owners',
    action: 'customer.created',
    customerType: 'business',
    written: { owners_added: [OWNER_1, OWNER_2] },
    typed: { action: { case: 'customerCreated', value: { ownersAdded: [OWNER_1, OWNER_2] } } },
    answered: `{"owners_added":["${OWNER_1}","${OWNER_2}"]}`,
  },
  {
    shape: 'an individual created (no owners)',
    action: 'customer.created',
    customerType: 'individual',
    written: { owners_added: [] },
    typed: { action: { case: 'customerCreated', value: {} } },
    answered: '{"owners_added":[]}',
  },
  {
    shape: "a business's fields (set, cleared, an enum, an integer), owners changed and added",
    action: 'customer.updated',
    customerType: 'business',
    written: {
      fields: {
        website: { from: null, to: 'https://acme.example' },
        trading_name: { from: 'Acme', to: null },
        business_type: { from: 'llc', to: 'corporation' },
        expected_monthly_payments: { from: 10, to: 2500 },
        account_purpose: { from: null, to: 'other' },
      },
      owners_changed: [OWNER_1],
      owners_added: [OWNER_2],
    },
    typed: {
      action: {
        case: 'customerUpdated',
        value: {
          fields: {
            case: 'businessFields',
            value: {
              from: { tradingName: 'Acme', businessType: BusinessType.LLC, expectedMonthlyPayments: 10n },
              to: {
                website: 'https://acme.example',
                businessType: BusinessType.CORPORATION,
                expectedMonthlyPayments: 2500n,
                accountPurpose: AccountPurpose.OTHER,
              },
            },
          },
          ownersChanged: [OWNER_1],
          ownersAdded: [OWNER_2],
        },
      },
    },
    answered:
      '{"fields":{"website":{"to":"https://acme.example","from":null},"trading_name":{"to":null,"from":"Acme"},' +
      '"business_type":{"to":"corporation","from":"llc"},"account_purpose":{"to":"other","from":null},' +
      '"expected_monthly_payments":{"to":2500,"from":10}},' +
      `"owners_added":["${OWNER_2}"],"owners_changed":["${OWNER_1}"]}`,
  },
  {
    shape: "an individual's KYC data",
    action: 'customer.kyc_data_updated',
    customerType: 'individual',
    written: { fields: { first_name: { from: 'Ada', to: 'Adaeze' }, id_type: { from: null, to: 'passport' } } },
    typed: {
      action: {
        case: 'customerUpdated',
        value: {
          fields: {
            case: 'individualFields',
            value: { from: { firstName: 'Ada' }, to: { firstName: 'Adaeze', idType: IdDocumentType.PASSPORT } },
          },
        },
      },
    },
    answered: '{"fields":{"id_type":{"to":"passport","from":null},"first_name":{"to":"Adaeze","from":"Ada"}}}',
  },
  {
    shape: 'owners changed only',
    action: 'customer.updated',
    customerType: 'business',
    written: { owners_changed: [OWNER_2, OWNER_1] },
    typed: { action: { case: 'customerUpdated', value: { ownersChanged: [OWNER_2, OWNER_1] } } },
    answered: `{"owners_changed":["${OWNER_2}","${OWNER_1}"]}`,
  },
  {
    shape: "a removed owner's set fields (a decimal, booleans, an enum)",
    action: 'owner.removed',
    customerType: 'business',
    written: {
      owner_id: OWNER_1,
      owner: {
        first_name: 'Ngozi',
        last_name: 'Eze',
        ownership_percentage: 12.5,
        has_control: true,
        is_pep: false,
        id_document_type: 'drivers_license',
      },
    },
    typed: {
      action: {
        case: 'ownerRemoved',
        value: {
          ownerId: OWNER_1,
          owner: {
            firstName: 'Ngozi',
            lastName: 'Eze',
            ownershipPercentage: '12.5',
            hasControl: true,
            isPep: false,
            idDocumentType: IdDocumentType.DRIVERS_LICENSE,
          },
        },
      },
    },
    answered:
      '{"owner":{"is_pep":false,"last_name":"Eze","first_name":"Ngozi","has_control":true,' +
      `"id_document_type":"drivers_license","ownership_percentage":12.5},"owner_id":"${OWNER_1}"}`,
  },
  {
    shape: 'a submit moving owners to review',
    action: 'customer.submitted',
    customerType: 'business',
    written: {
      verification_status: { from: 'REJECTED', to: 'PROCESSING' },
      to_review: { owners: [OWNER_1], documents: [] },
    },
    typed: {
      action: {
        case: 'customerSubmitted',
        value: {
          verificationStatus: { from: VerificationStatus.REJECTED, to: VerificationStatus.PROCESSING },
          toReview: { owners: [OWNER_1] },
        },
      },
    },
    answered: `{"to_review":{"owners":["${OWNER_1}"],"documents":[]},"verification_status":{"to":"PROCESSING","from":"REJECTED"}}`,
  },
  {
    shape: 'a review with a verdict',
    action: 'customer.reviewed',
    customerType: 'business',
    written: {
      owners: { [OWNER_2]: 'REJECTED', [OWNER_1]: 'APPROVED' },
      documents: { [DOCUMENT_1]: 'APPROVED' },
      verification_status: { from: 'PROCESSING', to: 'REJECTED' },
    },
    typed: {
      action: {
        case: 'customerReviewed',
        value: {
          owners: { [OWNER_2]: ReviewStatus.REJECTED, [OWNER_1]: ReviewStatus.APPROVED },
          documents: { [DOCUMENT_1]: ReviewStatus.APPROVED },
          verificationStatus: PROCESSING_TO_REJECTED,
        },
      },
    },
    answered:
      `{"owners":{"${OWNER_1}":"APPROVED","${OWNER_2}":"REJECTED"},"documents":{"${DOCUMENT_1}":"APPROVED"},` +
      '"verification_status":{"to":"REJECTED","from":"PROCESSING"}}',
  },
  {
    shape: 'a review without a verdict or judgements',
    action: 'customer.reviewed',
    customerType: 'individual',
    written: { owners: {}, documents: {} },
    typed: { action: { case: 'customerReviewed', value: {} } },
    answered: '{"owners":{},"documents":{}}',
  },
  {
    shape: 'an upgrade of a business stored without a scope, VERIFIED back to PENDING',
    action: 'customer.upgraded',
    customerType: 'business',
    written: {
      kyb_scope: { from: null, to: 'FULL' },
      fields: { incorporation_date: { from: null, to: '2019-03-01' } },
      owners_added: [OWNER_1],
      verification_status: { from: 'VERIFIED', to: 'PENDING' },
    },
    typed: {
      action: {
        case: 'customerUpgraded',
        value: {
          kybScope: { to: KybScope.FULL },
          fields: { from: {}, to: { incorporationDate: '2019-03-01' } },
          ownersAdded: [OWNER_1],
          verificationStatus: { from: VerificationStatus.VERIFIED, to: VerificationStatus.PENDING },
        },
      },
    },
    answered:
      '{"fields":{"incorporation_date":{"to":"2019-03-01","from":null}},"kyb_scope":{"to":"FULL","from":null},' +
      `"owners_added":["${OWNER_1}"],"verification_status":{"to":"PENDING","from":"VERIFIED"}}`,
  },
  {
    shape: 'an upgrade from MINIMAL changing no field and adding no owner',
    action: 'customer.upgraded',
    customerType: 'business',
    written: { kyb_scope: { from: 'MINIMAL', to: 'FULL' }, fields: {}, owners_added: [] },
    typed: {
      action: {
        case: 'customerUpgraded',
        value: { kybScope: { from: KybScope.MINIMAL, to: KybScope.FULL }, fields: { from: {}, to: {} } },
      },
    },
    answered: '{"fields":{},"kyb_scope":{"to":"FULL","from":"MINIMAL"},"owners_added":[]}',
  },
  {
    shape: "an individual's front file only",
    action: 'customer.files_attached',
    customerType: 'individual',
    written: { id_file: FILE_1, id_file_back: null },
    typed: { action: { case: 'filesAttached', value: { idFile: FILE_1 } } },
    answered: `{"id_file":"${FILE_1}","id_file_back":null}`,
  },
  {
    shape: "an individual's front and back files",
    action: 'customer.files_attached',
    customerType: 'individual',
    written: { id_file: FILE_1, id_file_back: FILE_2 },
    typed: { action: { case: 'filesAttached', value: { idFile: FILE_1, idFileBack: FILE_2 } } },
    answered: `{"id_file":"${FILE_1}","id_file_back":"${FILE_2}"}`,
  },
  {
    shape: "an owner's first file in a slot",
    action: 'owner.file_attached',
    customerType: 'business',
    written: { owner_id: OWNER_1, slot: 'id_document_front', file_id: FILE_1, replaced: null },
    typed: {
      action: {
        case: 'ownerFileAttached',
        value: { ownerId: OWNER_1, slot: OwnerFileSlot.ID_DOCUMENT_FRONT, fileId: FILE_1 },
      },
    },
    answered: `{"slot":"id_document_front","file_id":"${FILE_1}","owner_id":"${OWNER_1}","replaced":null}`,
  },
  {
    shape: "an owner's file replacing another",
    action: 'owner.file_attached',
    customerType: 'business',
    written: { owner_id: OWNER_2, slot: 'id_document_back', file_id: FILE_2, replaced: FILE_1 },
    typed: {
      action: {
        case: 'ownerFileAttached',
        value: { ownerId: OWNER_2, slot: OwnerFileSlot.ID_DOCUMENT_BACK, fileId: FILE_2, replaced: FILE_1 },
      },
    },
    answered: `{"slot":"id_document_back","file_id":"${FILE_2}","owner_id":"${OWNER_2}","replaced":"${FILE_1}"}`,
  },
  {
    shape: 'a document registered',
    action: 'document.registered',
    customerType: 'business',
    written: { document_id: DOCUMENT_1, type: 'CERTIFICATE_OF_INCORPORATION', file_id: FILE_1 },
    typed: {
      action: {
        case: 'documentRegistered',
        value: { documentId: DOCUMENT_1, type: KybDocumentType.CERTIFICATE_OF_INCORPORATION, fileId: FILE_1 },
      },
    },
    answered: `{"type":"CERTIFICATE_OF_INCORPORATION","file_id":"${FILE_1}","document_id":"${DOCUMENT_1}"}`,
  },
  {
    shape: 'a document replaced',
    action: 'document.replaced',
    customerType: 'business',
    written: {
      document_id: DOCUMENT_1,
      file_id: { from: FILE_1, to: FILE_2 },
      type: { from: 'OTHER', to: 'TAX_REGISTRATION' },
    },
    typed: {
      action: {
        case: 'documentReplaced',
        value: {
          documentId: DOCUMENT_1,
          fileId: { from: FILE_1, to: FILE_2 },
          type: { from: KybDocumentType.OTHER, to: KybDocumentType.TAX_REGISTRATION },
        },
      },
    },
    answered:
      `{"type":{"to":"TAX_REGISTRATION","from":"OTHER"},"file_id":{"to":"${FILE_2}","from":"${FILE_1}"},` +
      `"document_id":"${DOCUMENT_1}"}`,
  },
];
