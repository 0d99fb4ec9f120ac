import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import {
  BusinessDataSchema,
  IndividualDataSchema,
  KybDocumentTypeSchema,
  KybScopeSchema,
  OwnerDataSchema,
  OwnerFileSlotSchema,
  ReviewStatusSchema,
  VerificationStatusSchema,
  type AuditChanges,
  type AuditChanges_BusinessDataChange,
  type AuditChanges_IndividualDataChange,
  type AuditChanges_VerificationStatusChange,
  type ReviewStatus,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { customerVocabulary, setFieldsJson } from './customer-data.js';

/**
 * An audit entry's `changes` as the admin API answers it (decision 0062), from the typed changes:
 * the JSON customer-kyb stores (JSONB) and answered as the deprecated Struct, keys in JSONB's order.
 */

const verificationStatus = customerVocabulary(VerificationStatusSchema);
const reviewStatus = customerVocabulary(ReviewStatusSchema);
const kybScope = customerVocabulary(KybScopeSchema);
const documentType = customerVocabulary(KybDocumentTypeSchema);
const ownerFileSlot = customerVocabulary(OwnerFileSlotSchema);

/** The order PostgreSQL's jsonb keeps an object's keys in: shorter keys first, then bytewise. */
function jsonbKeyOrder(a: string, b: string): number {
  return Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** `value` with every object's keys in jsonb's order, as customer-kyb reads a stored row back. */
function inJsonbOrder(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(inJsonbOrder);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort(jsonbKeyOrder)
      .map((key) => [key, inJsonbOrder(value[key] as JsonValue)]),
  );
}

/** A message field every entry of its action carries; its absence is a defect of the writer. */
function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new RangeError(`audit changes carry no ${what}`);
  return value;
}

/** `{field: {from, to}}` for each data field set before or after (unset is null). */
function dataChangeJson(change: AuditChanges_IndividualDataChange | AuditChanges_BusinessDataChange): JsonObject {
  const [from, to] =
    change.$typeName === 'corridor.customer.v1.AuditChanges.IndividualDataChange'
      ? [setFieldsJson(IndividualDataSchema, change.from), setFieldsJson(IndividualDataSchema, change.to)]
      : [setFieldsJson(BusinessDataSchema, change.from), setFieldsJson(BusinessDataSchema, change.to)];
  const names = new Set([...Object.keys(from), ...Object.keys(to)]);
  return Object.fromEntries([...names].map((name) => [name, { from: from[name] ?? null, to: to[name] ?? null }]));
}

function statusChangeJson(change: AuditChanges_VerificationStatusChange): JsonObject {
  return {
    from: verificationStatus.toWord(change.from, 'verification_status.from'),
    to: verificationStatus.toWord(change.to, 'verification_status.to'),
  };
}

function judgementsJson(judgements: Readonly<Record<string, ReviewStatus>>, what: string): JsonObject {
  return Object.fromEntries(
    Object.entries(judgements).map(([id, status]) => [id, reviewStatus.toWord(status, `${what}.${id}`)]),
  );
}

/** Each action's keys, as its use case in customer-kyb writes them. */
function actionJson({ action }: AuditChanges): JsonObject {
  switch (action.case) {
    case 'customerCreated':
      return { owners_added: action.value.ownersAdded };
    case 'customerUpdated': {
      const { fields, ownersChanged, ownersAdded } = action.value;
      return {
        ...(fields.value ? { fields: dataChangeJson(fields.value) } : {}),
        ...(ownersChanged.length > 0 ? { owners_changed: ownersChanged } : {}),
        ...(ownersAdded.length > 0 ? { owners_added: ownersAdded } : {}),
      };
    }
    case 'ownerRemoved':
      return { owner_id: action.value.ownerId, owner: setFieldsJson(OwnerDataSchema, action.value.owner) };
    case 'customerSubmitted': {
      const toReview = required(action.value.toReview, 'to_review');
      return {
        verification_status: statusChangeJson(required(action.value.verificationStatus, 'verification_status')),
        to_review: { owners: toReview.owners, documents: toReview.documents },
      };
    }
    case 'customerReviewed': {
      const { owners, documents, verificationStatus: verdict } = action.value;
      return {
        owners: judgementsJson(owners, 'owners'),
        documents: judgementsJson(documents, 'documents'),
        ...(verdict ? { verification_status: statusChangeJson(verdict) } : {}),
      };
    }
    case 'customerUpgraded': {
      const { kybScope: scope, fields, ownersAdded, verificationStatus: reopened } = action.value;
      const { from, to } = required(scope, 'kyb_scope');
      return {
        kyb_scope: {
          from: from === undefined ? null : kybScope.toWord(from, 'kyb_scope.from'),
          to: kybScope.toWord(to, 'kyb_scope.to'),
        },
        fields: dataChangeJson(required(fields, 'fields')),
        owners_added: ownersAdded,
        ...(reopened ? { verification_status: statusChangeJson(reopened) } : {}),
      };
    }
    case 'filesAttached':
      return { id_file: action.value.idFile, id_file_back: action.value.idFileBack ?? null };
    case 'ownerFileAttached': {
      const { ownerId, slot, fileId, replaced } = action.value;
      return {
        owner_id: ownerId,
        slot: ownerFileSlot.toWord(slot, 'slot'),
        file_id: fileId,
        replaced: replaced ?? null,
      };
    }
    case 'documentRegistered': {
      const { documentId, type, fileId } = action.value;
      return { document_id: documentId, type: documentType.toWord(type, 'type'), file_id: fileId };
    }
    case 'documentReplaced': {
      const fileId = required(action.value.fileId, 'file_id');
      const type = required(action.value.type, 'type');
      return {
        document_id: action.value.documentId,
        file_id: { from: fileId.from, to: fileId.to },
        type: { from: documentType.toWord(type.from, 'type.from'), to: documentType.toWord(type.to, 'type.to') },
      };
    }
    case undefined:
      throw new RangeError('audit changes name no action');
  }
}

/** The admin API's `changes` of typed audit changes: what customer-kyb stores, keys in jsonb's order. */
export function auditChangesJson(changes: AuditChanges): JsonObject {
  return inJsonbOrder(actionJson(changes)) as JsonObject;
}
