import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import {
  CustomerFilesInputSchema,
  CustomerInputSchema,
  DocumentInputSchema,
  DocumentUploadInputSchema,
  FileUploadInputSchema,
  OwnerFileInputSchema,
  OwnerFileUploadInputSchema,
  OwnerInputSchema,
  ReviewInputSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import {
  CustomerTypeSchema,
  KybScopeSchema,
  OwnerFileSlotSchema,
  ReviewStatusSchema,
  file_corridor_customer_v1_customer,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import {
  SandboxCreateCustomerRequestSchema,
  SandboxReviewCustomerRequestSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import { NULL_FIELDS } from '@corridor/grpc';
import { isReferenceObject, type ReferenceObject } from 'openapi3-ts/oas31';
import { reviewBody } from '../../admin/customers.js';
import type { JsonSchema } from '../../http/json-schema.js';
import {
  CUSTOMER_FIELDS,
  CUSTOMER_TYPES,
  KYB_SCOPES,
  OWNER_FIELDS,
  OWNER_FILE_SLOTS,
  REVIEW_STATUSES,
} from './fields.js';
import { CUSTOMER_API_ROUTES } from './index.js';
import { wordsOf } from './vocabulary.js';
import { customerRequestComponents } from './request-schemas.js';
import { CUSTOMER_INPUT_WORDS } from '@corridor/contracts/customer-words';

/**
 * One vocabulary (DESIGN.md "Contracts are typed", decision 0025): every field and enum word of the
 * customer API's documented bodies against customer_input.proto, the typed message the gateway sends
 * them as, so neither can drift alone. customer-kyb's customer-input.spec.ts holds its side.
 */

describe('the customer vocabulary against customer_input.proto', () => {
  // The lists are spelled from the proto (vocabulary.ts, with @corridor/grpc's spelling, which its own
  // spec holds); customer-kyb's customer-input.spec.ts holds its hand-written lists against the same enums.
  it('spells statuses, scopes and document types upper case, every other enum of customer.proto lower', () => {
    const enums = file_corridor_customer_v1_customer.enums;
    const upper = enums.filter((descriptor) => CUSTOMER_INPUT_WORDS.casingOf(descriptor) === 'upper');
    expect(upper.map((descriptor) => descriptor.name)).toEqual([
      'KybScope',
      'VerificationStatus',
      'ReviewStatus',
      'KybDocumentType',
    ]);
    // The documented lists are those enums' words.
    expect([CUSTOMER_TYPES, KYB_SCOPES, REVIEW_STATUSES, OWNER_FILE_SLOTS]).toEqual(
      [CustomerTypeSchema, KybScopeSchema, ReviewStatusSchema, OwnerFileSlotSchema].map(wordsOf),
    );
  });

  /** A proto field's JSON names, but the list of nulls, which no platform sends. */
  const namesOf = (descriptor: DescMessage) =>
    descriptor.fields.map((field) => field.name).filter((name) => name !== NULL_FIELDS);

  it('has a CustomerInput field for every customer data field of either type, type, kyb_scope and owners', () => {
    const documented = new Set([
      'type',
      'kyb_scope',
      'owners',
      ...Object.keys(CUSTOMER_FIELDS.business),
      ...Object.keys(CUSTOMER_FIELDS.individual),
    ]);
    expect(namesOf(CustomerInputSchema).sort()).toEqual([...documented].sort());
  });

  it('has an OwnerInput field for every owner field and the id naming an owner to change', () => {
    expect(namesOf(OwnerInputSchema).sort()).toEqual(['id', ...Object.keys(OWNER_FIELDS)].sort());
  });

  /** The documented body schemas' references, resolved within the customer API's components. */
  function resolved(schema: JsonSchema | ReferenceObject): JsonSchema {
    if (!isReferenceObject(schema)) return schema;
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = customerRequestComponents[name];
    if (!target) throw new Error(`no component ${schema.$ref}`);
    return target;
  }

  /** The JSON types a schema allows besides null. */
  function typesOf(schema: JsonSchema): string[] {
    if (schema.const !== undefined) return [typeof schema.const];
    return [schema.type ?? []].flat().filter((type) => type !== 'null');
  }

  /** Each problem of `schema` against `field`, as `path: what`. */
  function mismatches(schema: JsonSchema, field: DescField, path: string): string[] {
    const types = typesOf(schema);
    const expect = (type: string) => (types.length === 1 && types[0] === type ? [] : [`${path}: ${types} ≠ ${type}`]);
    if (field.fieldKind === 'enum') {
      const words = wordsOf(field.enum);
      const sent = [...(schema.enum ?? []), ...(schema.const === undefined ? [] : [schema.const])].filter(
        (word) => word !== null,
      );
      const strays = sent.filter((word) => typeof word !== 'string' || !words.includes(word));
      return [
        ...expect('string'),
        ...(sent.length === 0 ? [`${path}: no enum`] : []),
        ...strays.map((w) => `${path}: ${w}`),
      ];
    }
    if (field.fieldKind === 'scalar') {
      if (field.scalar === ScalarType.BOOL) return expect('boolean');
      if (field.scalar === ScalarType.INT64) return expect('integer');
      if (field.scalar === ScalarType.STRING)
        return expect(CUSTOMER_INPUT_WORDS.isDecimal(field) ? 'number' : 'string');
      return [`${path}: scalar ${field.scalar}`];
    }
    if (field.fieldKind !== 'message') return [`${path}: ${field.fieldKind}`];
    const [entries] = field.message.fields;
    if (field.message.fields.length !== 1 || entries?.name !== 'entries' || entries.fieldKind !== 'list') {
      return [...expect('object'), ...bodyMismatches(schema, field.message, path)];
    }
    const items = schema.items ? resolved(schema.items) : undefined;
    if (!items) return [`${path}: no items`];
    if (entries.listKind === 'message')
      return [...expect('array'), ...bodyMismatches(items, entries.message, `${path}.n`)];
    return [...expect('array'), ...(typesOf(items).join() === 'string' ? [] : [`${path}.n: not a string`])];
  }

  /** Every property of a body schema (each branch of a oneOf) against the message's fields. */
  function bodyMismatches(schema: JsonSchema, message: DescMessage, path: string): string[] {
    if (schema.oneOf) return schema.oneOf.flatMap((branch) => bodyMismatches(resolved(branch), message, path));
    return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
      const field = message.fields.find((candidate) => candidate.name === name && name !== NULL_FIELDS);
      const at = path === '' ? name : `${path}.${name}`;
      return field ? mismatches(resolved(property), field, at) : [`${at}: no ${message.typeName} field`];
    });
  }

  /** The typed message each documented body is sent as. */
  const SENT_AS: Record<string, DescMessage> = {
    createCustomer: CustomerInputSchema,
    updateCustomer: CustomerInputSchema,
    updateKycData: CustomerInputSchema,
    upgradeKybScope: CustomerInputSchema,
    createOwnerFileUpload: OwnerFileUploadInputSchema,
    attachOwnerFile: OwnerFileInputSchema,
    createDocumentUpload: DocumentUploadInputSchema,
    registerDocument: DocumentInputSchema,
    replaceDocument: DocumentInputSchema,
    createFileUpload: FileUploadInputSchema,
    attachCustomerFiles: CustomerFilesInputSchema,
    sandboxCreateCustomer: CustomerInputSchema,
    sandboxReviewCustomer: SandboxReviewCustomerRequestSchema,
  };
  /** Body fields sent beside the typed message, in the request that carries it. */
  const SENT_BESIDE: Record<string, { request: DescMessage; fields: string[] }> = {
    sandboxCreateCustomer: { request: SandboxCreateCustomerRequestSchema, fields: ['verification_status'] },
  };
  /** Fields of the message the path carries, not the body. */
  const IN_PATH: Record<string, string[]> = { sandboxReviewCustomer: ['customer_id'] };

  /** The body's schema without the fields sent beside the message, and those fields against their request. */
  function bodyAndBeside(operationId: string, body: JsonSchema): { body: JsonSchema; beside: string[] } {
    const beside = SENT_BESIDE[operationId];
    if (!beside) return { body, beside: [] };
    const strip = (schema: JsonSchema): JsonSchema => ({
      ...schema,
      ...(schema.oneOf ? { oneOf: schema.oneOf.map((branch) => strip(resolved(branch))) } : {}),
      ...(schema.properties
        ? {
            properties: Object.fromEntries(
              Object.entries(schema.properties).filter(([name]) => !beside.fields.includes(name)),
            ),
          }
        : {}),
    });
    const whole = resolved(body);
    const first = whole.oneOf?.[0];
    const source = first ? resolved(first) : whole;
    const besideSchema: JsonSchema = {
      properties: Object.fromEntries(
        Object.entries(source.properties ?? {}).filter(([name]) => beside.fields.includes(name)),
      ),
    };
    return { body: strip(body), beside: bodyMismatches(besideSchema, beside.request, '') };
  }

  it('knows the typed message of every customer route with a body', () => {
    const withBody = CUSTOMER_API_ROUTES.filter((route) => route.requestBody).map((route) => route.operationId);
    expect(withBody.sort()).toEqual(Object.keys(SENT_AS).sort());
  });

  it.each(CUSTOMER_API_ROUTES.filter((route) => route.requestBody))(
    '$operationId documents only fields of its typed message, each of a compatible type and words of its enum',
    (route) => {
      const descriptor = SENT_AS[route.operationId];
      expect(descriptor).toBeDefined();
      if (!descriptor || !route.requestBody) return;
      const { body, beside } = bodyAndBeside(route.operationId, route.requestBody);
      expect([...bodyMismatches(body, descriptor, ''), ...beside]).toEqual([]);
    },
  );

  it('documents every field of the smaller bodies’ messages in their route', () => {
    for (const route of CUSTOMER_API_ROUTES) {
      const descriptor = SENT_AS[route.operationId];
      if (!descriptor || descriptor === CustomerInputSchema || !route.requestBody) continue;
      const documented = Object.keys(route.requestBody.properties ?? {});
      const missing = namesOf(descriptor).filter(
        (name) => !documented.includes(name) && !(IN_PATH[route.operationId] ?? []).includes(name),
      );
      // A replacement's type is optional, registration's required: one message serves both.
      expect({ route: route.operationId, missing }).toEqual({ route: route.operationId, missing: [] });
    }
  });

  it('documents the admin review against ReviewInput', () => {
    expect(bodyMismatches(reviewBody, ReviewInputSchema, '')).toEqual([]);
    expect(Object.keys(reviewBody.properties ?? {}).sort()).toEqual(namesOf(ReviewInputSchema).sort());
  });
});
