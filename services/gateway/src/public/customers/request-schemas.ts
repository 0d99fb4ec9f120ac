import { UPGRADE_KYB_SCOPE_FIELDS } from '@corridor/contracts/customer-words';
import { EXAMPLE_IDS } from '../../floor/examples.js';
import type { JsonSchema } from '../../http/json-schema.js';
import { ref } from '../../http/json-schema.js';
import {
  CUSTOMER_FIELDS,
  CUSTOMER_TYPES,
  FILE_CONTENT_TYPES,
  INDIVIDUAL_FILE_CATEGORIES,
  KYB_DOCUMENT_TYPES,
  KYB_SCOPES,
  OWNER_FIELDS,
  OWNER_FILE_SLOTS,
  REQUIRED_CUSTOMER_FIELDS,
  REQUIRED_OWNER_FIELDS,
  requestFieldSchema,
  type CustomerType,
  type FieldSpec,
} from './fields.js';

/**
 * The bodies of the customer routes, as documentation: the gateway passes a body to customer-kyb
 * unchanged, and customer-kyb enforces these rules (and reports every problem at once, 422).
 */

const exampleOwner = {
  first_name: 'Ada',
  last_name: 'Obi',
  ownership_percentage: 100,
  email: 'ada.obi@example.com',
  date_of_birth: '1980-04-12',
  nationality: 'NG',
  id_document_type: 'passport',
  id_document_number: 'A08123456',
  id_document_country: 'NG',
  id_expiry_date: '2031-04-30',
};

const uuid = (description: string): JsonSchema => ({ type: 'string', format: 'uuid', description });

/** Required fields are never null; any other field may be sent as null ("not set" / "clear it"). */
const fieldsOf = (specs: Readonly<Record<string, FieldSpec>>, neverNull: readonly string[]) =>
  Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [name, requestFieldSchema(spec, !neverNull.includes(name))]),
  );

const contentType: JsonSchema = {
  type: 'string',
  enum: [...FILE_CONTENT_TYPES],
  description: 'the type of the file; signed into the upload URL, so storage refuses any other',
};
const contentLength: JsonSchema = {
  type: 'integer',
  minimum: 1,
  description:
    'the exact size in bytes, at most max_size_bytes (10 MiB by default); signed into the upload URL, so storage refuses any other',
};

const newOwner: JsonSchema = {
  type: 'object',
  description: 'A new owner (seed 2.2). ID files are uploaded per slot afterwards.',
  required: [...REQUIRED_OWNER_FIELDS],
  additionalProperties: false,
  properties: fieldsOf(OWNER_FIELDS, REQUIRED_OWNER_FIELDS),
};

const ownerChange: JsonSchema = {
  type: 'object',
  description:
    'A change to an existing owner, named by id: a field sent as null is cleared, an omitted one is unchanged (seed 2.1 rule 2). A REJECTED owner that changes goes back to PENDING.',
  required: ['id'],
  additionalProperties: false,
  properties: { id: uuid('the owner to change'), ...fieldsOf(OWNER_FIELDS, REQUIRED_OWNER_FIELDS) },
};

/** components.schemas of the customer API's bodies. */
export const customerRequestComponents: Record<string, JsonSchema> = { NewOwner: newOwner, OwnerChange: ownerChange };

function createBodyOf(type: CustomerType): JsonSchema {
  const required = REQUIRED_CUSTOMER_FIELDS[type];
  return {
    type: 'object',
    title: type,
    required: ['type', ...required],
    additionalProperties: false,
    properties: {
      type: { type: 'string', const: type },
      ...(type === 'business'
        ? {
            kyb_scope: {
              type: ['string', 'null'],
              enum: [...KYB_SCOPES, null],
              description:
                'FULL or MINIMAL (seed 5): a platform allow-listed for MINIMAL defaults to MINIMAL and may send FULL; any other defaults to FULL and MINIMAL is 422',
            },
          }
        : {}),
      ...fieldsOf(CUSTOMER_FIELDS[type], required),
      ...(type === 'business'
        ? {
            owners: {
              type: 'array',
              items: ref('schemas', 'NewOwner'),
              description: 'FULL only: a MINIMAL business has no owners (seed 1)',
            },
          }
        : {}),
    },
  };
}

/** POST /customer. */
export const createCustomerBody: JsonSchema = {
  description:
    'The customer. A field of the other type, an unknown field or an invalid value is 422, every problem at once.',
  oneOf: [createBodyOf('business'), createBodyOf('individual')],
  examples: [
    {
      type: 'business',
      business_name: 'Acme Trading Ltd',
      registration_number: 'RC1204587',
      incorporation_country: 'NG',
      country: 'NG',
      email: 'finance@example.com',
    },
  ],
};

/** Fields that may not be nulled: a field required on create of either type. */
const NEVER_NULL = [...new Set([...REQUIRED_CUSTOMER_FIELDS.business, ...REQUIRED_CUSTOMER_FIELDS.individual])];
const ALL_CUSTOMER_FIELDS = { ...CUSTOMER_FIELDS.business, ...CUSTOMER_FIELDS.individual };

const changeDescription =
  "Only what is sent changes: a field sent as null is cleared, an omitted one is unchanged (seed 2.1 rule 2). Fields of the other type are 422. A customer that is PROCESSING or VERIFIED is locked (400 CUSTOMER_LOCKED). Change country and incorporation_country together when moving a business's jurisdiction.";

/** PUT /customer/{id}. */
export const updateCustomerBody: JsonSchema = {
  type: 'object',
  description: `${changeDescription} Entries of owners with an id change that owner, entries without add one; owners not listed are untouched.`,
  additionalProperties: false,
  properties: {
    type: {
      type: 'string',
      enum: [...CUSTOMER_TYPES],
      description: 'cannot change; sending the current type is harmless',
    },
    ...fieldsOf(ALL_CUSTOMER_FIELDS, NEVER_NULL),
    owners: {
      type: 'array',
      description:
        'business (FULL) only; a locked owner (APPROVED or PROCESSING) is 400 OWNER_LOCKED. Remove an owner with DELETE /customer/{customer}/owner/{owner}.',
      items: { oneOf: [ref('schemas', 'OwnerChange'), ref('schemas', 'NewOwner')] },
    },
  },
  examples: [{ street: '12 Marina Road', city: 'Lagos', state: 'Lagos' }],
};

/** POST /customer/{id}/kyc-data: the same without owners and type. */
export const kycDataBody: JsonSchema = {
  type: 'object',
  description: changeDescription,
  additionalProperties: false,
  properties: fieldsOf(ALL_CUSTOMER_FIELDS, NEVER_NULL),
  examples: [{ zip_code: '101241', phone: '+234 801 234 5678' }],
};

/** POST /customer/{customer}/upgrade-kyb-scope (seed 4.2). */
export const upgradeBody: JsonSchema = {
  type: 'object',
  description:
    'MINIMAL to FULL (seed 4.2). The result must keep country equal to incorporation_country, and (registration_number, incorporation_country) unique among your business customers. Other fields are changed with PUT /customer/{id}.',
  required: ['owners'],
  additionalProperties: false,
  properties: {
    owners: {
      type: 'array',
      minItems: 1,
      maxItems: 5,
      items: ref('schemas', 'NewOwner'),
      description:
        '1 to 5 owners whose ownership_percentage values sum to exactly 100, emails unique; they start PENDING. Upload their ID files afterwards, then submit.',
    },
    ...fieldsOf(
      Object.fromEntries(
        Object.entries(CUSTOMER_FIELDS.business).filter(([name]) =>
          (UPGRADE_KYB_SCOPE_FIELDS as readonly string[]).includes(name),
        ),
      ),
      ['registration_number', 'incorporation_country', 'country'],
    ),
  },
  examples: [{ owners: [exampleOwner] }],
};

const closed = (
  description: string,
  properties: Record<string, JsonSchema>,
  required: string[],
  example: Record<string, unknown>,
): JsonSchema => ({
  type: 'object',
  description,
  required,
  additionalProperties: false,
  properties,
  examples: [example],
});

/** POST /customer/{customer}/owner/{owner}/file/presigned-url. */
export const ownerUploadBody = closed(
  'An upload URL for one of the owner’s ID slots; the slot is checked now, against id_document_type',
  {
    slot: {
      type: 'string',
      enum: [...OWNER_FILE_SLOTS],
      description:
        'id_document_front always; id_document_back only when id_document_type is drivers_license, id_card or resident_permit (a back for a passport is 422)',
    },
    content_type: contentType,
    content_length: contentLength,
  },
  ['slot', 'content_type', 'content_length'],
  { slot: 'id_document_front', content_type: 'image/png', content_length: 48213 },
);

/** POST /customer/{id}/owner/{owner}/files. */
export const attachOwnerFileBody = closed(
  'Puts an uploaded file in an owner’s ID slot, replacing what was there. The object must have been uploaded (else 422 FILE_NOT_UPLOADED).',
  {
    slot: { type: 'string', enum: [...OWNER_FILE_SLOTS] },
    file_id: uuid('from the presigned-URL answer for this owner and slot'),
  },
  ['slot', 'file_id'],
  { slot: 'id_document_front', file_id: EXAMPLE_IDS.file },
);

/** POST /customer/{customer}/document/presigned-url. */
export const documentUploadBody = closed(
  'An upload URL for a KYB document of this customer',
  { content_type: contentType, content_length: contentLength },
  ['content_type', 'content_length'],
  { content_type: 'application/pdf', content_length: 183204 },
);

const documentType: JsonSchema = {
  type: 'string',
  enum: [...KYB_DOCUMENT_TYPES],
  description: 'the first five are formation types (seed 2.3); submit needs at least one document of a formation type',
};

/** POST /customer/{customer}/document. */
export const registerDocumentBody = closed(
  'Registers an uploaded file as a KYB document (PENDING). The object must have been uploaded (else 422 FILE_NOT_UPLOADED).',
  { type: documentType, file_id: uuid('from POST /customer/{customer}/document/presigned-url') },
  ['type', 'file_id'],
  { type: 'CERTIFICATE_OF_INCORPORATION', file_id: EXAMPLE_IDS.file },
);

/** PUT /customer/{customer}/document/{document}. */
export const replaceDocumentBody = closed(
  'Replaces a document’s file, and its type if sent. A REJECTED document goes back to PENDING; an APPROVED or PROCESSING one is locked (400 DOCUMENT_LOCKED).',
  { file_id: uuid('a new upload from POST /customer/{customer}/document/presigned-url'), type: documentType },
  ['file_id'],
  { file_id: EXAMPLE_IDS.backFile },
);

/** POST /file/get-presigned-url. */
export const individualUploadBody = closed(
  'An upload URL for an individual customer’s ID file (business customers use the KYB routes: 422)',
  {
    customer_id: uuid('the individual customer'),
    file_category: {
      type: 'string',
      enum: [...INDIVIDUAL_FILE_CATEGORIES],
      description: 'identity_front becomes id_file, identity_back becomes id_file_back',
    },
    content_type: contentType,
    content_length: contentLength,
  },
  ['customer_id', 'file_category', 'content_type', 'content_length'],
  {
    customer_id: EXAMPLE_IDS.customer,
    file_category: 'identity_front',
    content_type: 'image/jpeg',
    content_length: 254811,
  },
);

/** POST /customer/{id}/files. */
export const attachCustomerFilesBody = closed(
  'Attaches an individual’s uploaded ID files; it never triggers verification (submit does). Business customers: 422, use the KYB routes.',
  {
    id_file: uuid('an identity_front upload of this customer'),
    id_file_back: uuid('an identity_back upload of this customer; needed to submit when id_type has a back'),
  },
  ['id_file'],
  { id_file: EXAMPLE_IDS.file },
);
