import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const VERIFICATION_STATUSES = ['PENDING', 'PROCESSING', 'VERIFIED', 'REJECTED'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** seed 3.3: the statuses of an owner or a KYB document. */
export const REVIEW_STATUSES = ['PENDING', 'PROCESSING', 'APPROVED', 'REJECTED'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** The JSON a data-field column holds: public field name → value (absent when never set or null). */
export type FieldValues = Record<string, string | number | boolean>;

/**
 * A platform's customer. The KYC/KYB data fields live in `fields`, keyed by public name, because
 * the rules own that vocabulary; the ones lists filter on are read back as generated columns so
 * Postgres indexes them and enforces seed 2.1 rule 3 itself.
 */
export const Customer = defineEntity({
  name: 'Customer',
  tableName: 'customer',
  properties: {
    id: p.uuid().primary(),
    businessId: p.uuid(),
    type: p.text().$type<'individual' | 'business'>(),
    /** null: a business stored without a scope, which reads as MINIMAL (seed 2.1). */
    kybScope: p.text().$type<'FULL' | 'MINIMAL'>().nullable(),
    verificationStatus: p.text().$type<VerificationStatus>(),
    fields: p.json<FieldValues>(),
    email: p.text().nullable().generated(`(fields->>'email') stored`),
    idNumber: p.text().nullable().generated(`(fields->>'id_number') stored`),
    registrationNumber: p.text().nullable().generated(`(fields->>'registration_number') stored`),
    incorporationCountry: p.text().nullable().generated(`(fields->>'incorporation_country') stored`),
    /** An individual's ID files (POST /customer/{id}/files). */
    idFileId: p.uuid().nullable(),
    idFileBackId: p.uuid().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    submittedAt: p.datetime().nullable(),
  },
});
export type Customer = InferEntity<typeof Customer>;

/** A beneficial owner, signatory or director of a business customer (seed 2.2). */
export const Owner = defineEntity({
  name: 'Owner',
  tableName: 'owner',
  properties: {
    id: p.uuid().primary(),
    customerId: p.uuid(),
    businessId: p.uuid(),
    status: p.text().$type<ReviewStatus>(),
    adminComments: p.json<string[]>(),
    fields: p.json<FieldValues>(),
    idDocumentFrontId: p.uuid().nullable(),
    idDocumentBackId: p.uuid().nullable(),
    /** Order of addition: owners are shown, and their problems numbered, in this order. */
    position: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Owner = InferEntity<typeof Owner>;

/** A KYB document of a business customer (seed 2.3). */
export const KybDocument = defineEntity({
  name: 'KybDocument',
  tableName: 'kyb_document',
  properties: {
    id: p.uuid().primary(),
    customerId: p.uuid(),
    businessId: p.uuid(),
    type: p.text(),
    status: p.text().$type<ReviewStatus>(),
    adminComments: p.json<string[]>(),
    fileId: p.uuid(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type KybDocument = InferEntity<typeof KybDocument>;
