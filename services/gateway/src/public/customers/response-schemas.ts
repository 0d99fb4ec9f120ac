import type { JsonSchema } from '../../http/json-schema.js';
import { ref } from '../../http/json-schema.js';
import { listBodySchema, pageQueryProperties } from '../../floor/pages/list-envelope.js';
import {
  CUSTOMER_FIELDS,
  FILE_CONTENT_TYPES,
  KYB_DOCUMENT_TYPES,
  KYB_SCOPES,
  OWNER_FIELDS,
  REQUIRED_CUSTOMER_FIELDS,
  REQUIRED_OWNER_FIELDS,
  responseFieldSchema,
  REVIEW_STATUSES,
  VERIFICATION_STATUSES,
  CUSTOMER_TYPES,
  type CustomerType,
  type FieldSpec,
} from './fields.js';

/**
 * The answers of the customer routes (decision 0008), closed (additionalProperties: false) so a
 * field added to render.ts without its schema fails the e2e suite that validates real responses.
 */

const uuid: JsonSchema = { type: 'string', format: 'uuid' };
const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
/** A named schema of the document's components, usable wherever a schema goes (OpenAPI 3.1). */
const schema = (name: string): JsonSchema => ({ $ref: ref('schemas', name).$ref });
const nullableRef = (name: string): JsonSchema => ({ oneOf: [schema(name), { type: 'null' }] });

const dataFields = (specs: Readonly<Record<string, FieldSpec>>, required: readonly string[]) =>
  Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [name, responseFieldSchema(spec, !required.includes(name))]),
  );

const adminComments: JsonSchema = {
  type: 'array',
  items: { type: 'string' },
  description: 'why a reviewer rejected it; empty unless REJECTED (cleared when it changes)',
};

const storedFile: JsonSchema = {
  type: 'object',
  description: 'An uploaded file attached to an owner, a KYB document or an individual',
  required: ['file_id', 'content_type', 'size_bytes', 'uploaded_at'],
  additionalProperties: false,
  properties: {
    file_id: uuid,
    content_type: { type: 'string', enum: [...FILE_CONTENT_TYPES] },
    size_bytes: {
      type: 'integer',
      minimum: 0,
      description:
        'the size in bytes; 0 only for a sandbox placeholder, which POST /api/external/sandbox/customer attaches instead of an upload (decision 0031)',
    },
    uploaded_at: dateTime,
  },
};

const ownerProperties = {
  id: uuid,
  ...dataFields(OWNER_FIELDS, REQUIRED_OWNER_FIELDS),
  status: { type: 'string', enum: [...REVIEW_STATUSES] },
  admin_comments: adminComments,
  id_document_front: nullableRef('StoredFile'),
  id_document_back: nullableRef('StoredFile'),
  created_at: dateTime,
  updated_at: dateTime,
} satisfies Record<string, JsonSchema>;

const owner: JsonSchema = {
  type: 'object',
  description:
    'A beneficial owner, signatory or director (seed 2.2): every field, null when unset, its review status and ID files',
  required: Object.keys(ownerProperties),
  additionalProperties: false,
  properties: ownerProperties,
};

const documentProperties = {
  id: uuid,
  type: { type: 'string', enum: [...KYB_DOCUMENT_TYPES] },
  status: { type: 'string', enum: [...REVIEW_STATUSES] },
  admin_comments: adminComments,
  file: schema('StoredFile'),
  created_at: dateTime,
  updated_at: dateTime,
} satisfies Record<string, JsonSchema>;

const kybDocument: JsonSchema = {
  type: 'object',
  description: 'A KYB document of a business customer (seed 2.3)',
  required: Object.keys(documentProperties),
  additionalProperties: false,
  properties: documentProperties,
};

function customerOf(type: CustomerType): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    id: uuid,
    type: { type: 'string', const: type },
    ...(type === 'business'
      ? { kyb_scope: { type: 'string', enum: [...KYB_SCOPES], description: 'MINIMAL when stored without one' } }
      : {}),
    verification_status: { type: 'string', enum: [...VERIFICATION_STATUSES] },
    ...dataFields(CUSTOMER_FIELDS[type], REQUIRED_CUSTOMER_FIELDS[type]),
    ...(type === 'business'
      ? {
          owners: { type: 'array', items: schema('Owner'), description: 'in the order they were added' },
          documents: { type: 'array', items: schema('KybDocument'), description: 'oldest first' },
        }
      : { id_file: nullableRef('StoredFile'), id_file_back: nullableRef('StoredFile') }),
    created_at: dateTime,
    updated_at: dateTime,
    submitted_at: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'when it last went to PROCESSING; null before the first submit',
    },
  };
  return {
    type: 'object',
    description:
      type === 'business'
        ? 'A business customer (KYB): every business field, null when unset, with its owners and KYB documents'
        : 'An individual customer (KYC): every individual field, null when unset, with its ID files',
    required: Object.keys(properties),
    additionalProperties: false,
    properties,
  };
}

const fileUpload: JsonSchema = {
  type: 'object',
  description:
    'A presigned upload: PUT the bytes to upload_url with exactly these headers before expires_at, then attach or register file_id',
  required: ['file_id', 'upload_url', 'method', 'headers', 'expires_at', 'max_size_bytes'],
  additionalProperties: false,
  properties: {
    file_id: uuid,
    upload_url: { type: 'string', format: 'uri' },
    method: { type: 'string', const: 'PUT' },
    headers: {
      type: 'object',
      description: 'send them as given: content-type and content-length are signed into the URL',
      required: ['content-type', 'content-length'],
      additionalProperties: { type: 'string' },
      properties: { 'content-type': { type: 'string' }, 'content-length': { type: 'string' } },
    },
    expires_at: dateTime,
    max_size_bytes: { type: 'integer', minimum: 1 },
  },
};

/** components.schemas of the customer API. */
export const customerResponseComponents: Record<string, JsonSchema> = {
  Customer: {
    description: 'A customer; `type` tells which of the two shapes',
    oneOf: [schema('BusinessCustomer'), schema('IndividualCustomer')],
  },
  BusinessCustomer: customerOf('business'),
  IndividualCustomer: customerOf('individual'),
  Owner: owner,
  KybDocument: kybDocument,
  StoredFile: storedFile,
  FileUpload: fileUpload,
};

/** Every success of the customer API: `{message, data}` (decision 0008). */
export const successBody = (message: string, data: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['message', 'data'],
  additionalProperties: false,
  properties: { message: { type: 'string', const: message }, data },
});

/** GET /customer's query (seed 4.4): exact filters, paginate, and the page (decision 0018). */
export const customerListQuery: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    email: { type: 'string', description: 'only the customer with this email' },
    id_number: { type: 'string', description: 'only customers with this ID number' },
    registration_number: { type: 'string', description: 'only businesses with this registration number' },
    verification_status: {
      type: 'string',
      enum: [...VERIFICATION_STATUSES],
      description: 'only customers in this status',
    },
    type: { type: 'string', enum: [...CUSTOMER_TYPES], description: 'only customers of this type' },
    paginate: {
      type: 'string',
      enum: ['true', 'false', '1', '0'],
      description: 'true: a page in the `{data, links, meta}` envelope instead of `{message, data}`',
    },
    ...pageQueryProperties,
  },
};

/** GET /customer: the seed's `{message, data}`, or with paginate=true a cursor or numbered page (decision 0018). */
export const customerListBody: JsonSchema = {
  anyOf: [
    {
      ...successBody('customers retrieved', { type: 'array', items: schema('Customer') }),
      description:
        'without paginate=true: the newest 500 matches; the x-corridor-truncated and Link headers say more match',
    },
    ...(listBodySchema(schema('Customer'), 'customers').anyOf ?? []),
  ],
};

export const customerBody = (message: string) => successBody(message, schema('Customer'));
export const ownerBody = (message: string) => successBody(message, schema('Owner'));
export const documentBody = (message: string) => successBody(message, schema('KybDocument'));
export const uploadBody = successBody('upload url created', schema('FileUpload'));
