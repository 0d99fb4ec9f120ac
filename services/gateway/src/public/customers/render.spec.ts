import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { AuditChangesSchema, AuditEntrySchema, KybScope } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { GetCustomerResponseSchema } from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import type { Customer } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import {
  BUSINESS_ID,
  businessCustomer,
  CUSTOMER_ID,
  DOCUMENT_ID,
  FILE_DOCUMENT,
  FILE_FRONT,
  FILE_ID,
  fileUpload,
  individualCustomer,
  OWNER_ID,
} from '../../../test/public/customers/customer.fixtures.js';
import { AUDIT_ROWS } from '@corridor/testing';
import { CUSTOMER_FIELDS, OWNER_FIELDS } from './fields.js';
import { adminCustomerJson, auditEntryJson, customerJson, uploadJson } from './render.js';

/** The customer as the gateway gets it from customer-kyb: encoded and decoded as gRPC does. */
const received = (customer: Customer) =>
  fromBinary(
    GetCustomerResponseSchema,
    toBinary(GetCustomerResponseSchema, create(GetCustomerResponseSchema, { customer })),
  ).customer as Customer;

describe('rendering a customer (decision 0008 "Responses")', () => {
  it('a business: every business field (null when unset), kyb_scope, owners and documents with their files', () => {
    const json = customerJson(received(businessCustomer()));
    expect(json).toEqual({
      id: CUSTOMER_ID,
      type: 'business',
      kyb_scope: 'FULL',
      verification_status: 'REJECTED',
      business_name: 'Acme Ltd',
      registration_number: 'RC-1234',
      incorporation_country: 'NG',
      trading_name: null,
      business_type: null,
      incorporation_date: null,
      industry_type: null,
      business_description: null,
      website: null,
      source_of_funds: null,
      estimated_annual_revenue: null,
      expected_monthly_payments: 40,
      account_purpose: null,
      operating_country: null,
      operating_street: null,
      operating_city: null,
      operating_state: null,
      operating_zip_code: null,
      country: 'NG',
      street: null,
      city: null,
      state: null,
      zip_code: null,
      email: null,
      phone: null,
      owners: [
        expect.objectContaining({
          id: OWNER_ID,
          first_name: 'Ada',
          last_name: 'Obi',
          ownership_percentage: 100,
          has_control: true,
          tin: null,
          email: null,
          status: 'REJECTED',
          admin_comments: ['the ID photo is blurred'],
          id_document_front: {
            file_id: FILE_FRONT,
            content_type: 'image/png',
            size_bytes: 1234,
            uploaded_at: '2026-11-02T10:30:00.000Z',
          },
          id_document_back: null,
          created_at: '2026-11-01T09:00:00.000Z',
          updated_at: '2026-11-02T10:30:00.000Z',
        }),
      ],
      documents: [
        {
          id: DOCUMENT_ID,
          type: 'CERTIFICATE_OF_INCORPORATION',
          status: 'APPROVED',
          admin_comments: [],
          file: {
            file_id: FILE_DOCUMENT,
            content_type: 'application/pdf',
            size_bytes: 98765,
            uploaded_at: '2026-11-01T09:00:00.000Z',
          },
          created_at: '2026-11-01T09:00:00.000Z',
          updated_at: '2026-11-01T09:00:00.000Z',
        },
      ],
      created_at: '2026-11-01T09:00:00.000Z',
      updated_at: '2026-11-02T10:30:00.000Z',
      submitted_at: '2026-11-03T12:00:00.000Z',
    });
    // Every owner field of seed 2.2 is there, null when unset; no individual field and no business_id.
    expect(Object.keys(json.owners?.[0] ?? {})).toEqual(
      expect.arrayContaining(['id', ...Object.keys(OWNER_FIELDS), 'status', 'admin_comments']),
    );
    expect(json.owners?.[0]).toMatchObject({ usa_tax_residency: null, id_expiry_date: null });
    expect(json).not.toHaveProperty('first_name');
    expect(json).not.toHaveProperty('id_file');
    expect(json).not.toHaveProperty('business_id');
  });

  it('an individual: every individual field, id_file and id_file_back, no kyb_scope, owners or documents', () => {
    const json = customerJson(received(individualCustomer()));
    expect(json).toEqual({
      id: CUSTOMER_ID,
      type: 'individual',
      verification_status: 'PENDING',
      first_name: 'Ngozi',
      last_name: 'Eze',
      date_of_birth: null,
      id_type: 'passport',
      id_number: null,
      country: 'NG',
      street: null,
      city: null,
      state: null,
      zip_code: null,
      email: null,
      phone: null,
      id_file: {
        file_id: FILE_ID,
        content_type: 'image/jpeg',
        size_bytes: 2048,
        uploaded_at: '2026-11-02T10:30:00.000Z',
      },
      id_file_back: null,
      created_at: '2026-11-01T09:00:00.000Z',
      updated_at: '2026-11-02T10:30:00.000Z',
      submitted_at: null,
    });
    expect(Object.keys(json)).toEqual(
      expect.arrayContaining(Object.keys(CUSTOMER_FIELDS.individual).concat('id_file', 'id_file_back')),
    );
    for (const absent of ['kyb_scope', 'owners', 'documents', 'business_name', 'operating_country'])
      expect(json).not.toHaveProperty(absent);
  });

  it('a customer without typed data (a customer-kyb before 0.2.0) is a defect, not an empty customer', () => {
    const customer = individualCustomer({ data: { case: undefined } });
    expect(() => customerJson(received(customer))).toThrow('carries no typed data');
  });

  it('a business stored without a scope reads MINIMAL (seed 2.1); no owners or documents are empty lists', () => {
    const json = customerJson(
      received(businessCustomer({ kybScope: KybScope.UNSPECIFIED, owners: [], documents: [] })),
    );
    expect(json).toMatchObject({ kyb_scope: 'MINIMAL', owners: [], documents: [] });
  });

  it('puts a back file in id_document_back and an individual’s back in id_file_back', () => {
    const owner = businessCustomer().owners[0];
    if (!owner) throw new Error('fixture has an owner');
    owner.idFiles.push({ ...owner.idFiles[0]!, fileId: 'back', slot: 'id_document_back' });
    const business = customerJson(received(businessCustomer({ owners: [owner] })));
    expect(business.owners?.[0]).toMatchObject({
      id_document_front: { file_id: FILE_FRONT },
      id_document_back: { file_id: 'back' },
    });
    const individual = individualCustomer();
    individual.idFiles.push({ ...individual.idFiles[0]!, fileId: 'back', slot: 'id_file_back' });
    expect(customerJson(received(individual))).toMatchObject({
      id_file: { file_id: FILE_ID },
      id_file_back: { file_id: 'back' },
    });
  });

  it('the back office also sees the business the customer belongs to', () => {
    const json = adminCustomerJson(received(businessCustomer()));
    expect(json).toMatchObject({ id: CUSTOMER_ID, business_id: BUSINESS_ID, type: 'business' });
    expect(Object.keys(json).slice(0, 2)).toEqual(['id', 'business_id']);
  });
});

describe('rendering uploads and audit entries', () => {
  it('an upload: sizes as numbers, the expiry as ISO 8601', () => {
    expect(uploadJson(fileUpload())).toEqual({
      file_id: FILE_ID,
      upload_url: 'http://127.0.0.1:9000/corridor-files/uploads/f003?X-Amz-Signature=abc',
      method: 'PUT',
      headers: { 'content-type': 'image/png', 'content-length': '1234' },
      expires_at: '2026-11-02T10:30:00.000Z',
      max_size_bytes: 10485760,
    });
  });
});

describe('rendering audit changes (decision 0062): typed, byte for byte the stored row', () => {
  /** An entry as customer-kyb answers it, over the wire. */
  const answered = (row: (typeof AUDIT_ROWS)[number]) =>
    fromBinary(
      AuditEntrySchema,
      toBinary(
        AuditEntrySchema,
        create(AuditEntrySchema, {
          id: 'a-1',
          customerId: CUSTOMER_ID,
          action: row.action,
          actor: 'admin',
          whatChanged: create(AuditChangesSchema, row.typed),
          occurredAt: timestampFromDate(new Date('2026-11-04T08:00:00.000Z')),
        }),
      ),
    );

  it.each(AUDIT_ROWS.map((row) => [row.action, row.shape, row] as const))('%s: %s', (_action, _shape, row) => {
    expect(JSON.stringify(auditEntryJson(answered(row)))).toContain(`"changes":${row.answered},`);
  });

  it('the rows hold every action of AuditChanges', () => {
    const actions = AuditChangesSchema.oneofs[0]?.fields.map((field) => field.localName);
    expect(new Set(AUDIT_ROWS.map((row) => row.typed.action?.case))).toEqual(new Set(actions));
  });

  it('an entry without typed changes is a defect (a customer-kyb before 0.3.0), not an empty change', () => {
    const [row] = AUDIT_ROWS;
    if (!row) throw new Error('AUDIT_ROWS is empty');
    const entry = answered(row);
    entry.whatChanged = undefined;
    expect(() => auditEntryJson(entry)).toThrow('customer-kyb returned no audit entry changes');
  });
});
