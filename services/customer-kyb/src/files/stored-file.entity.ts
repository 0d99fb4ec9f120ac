import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** What a file was issued for; a file is attached only where it was meant to go. */
export const FILE_PURPOSES = ['owner_id', 'kyb_document', 'individual_id'] as const;
export type FilePurpose = (typeof FILE_PURPOSES)[number];

/**
 * A file in object storage: issued with its presigned upload URL, attached once the object is
 * there (its size and type read back from storage).
 */
export const StoredFile = defineEntity({
  name: 'StoredFile',
  tableName: 'stored_file',
  properties: {
    id: p.uuid().primary(),
    businessId: p.uuid(),
    customerId: p.uuid(),
    purpose: p.text().$type<FilePurpose>(),
    /** id_document_front / id_document_back (owner), identity_front / identity_back (individual), document. */
    slot: p.text(),
    ownerId: p.uuid().nullable(),
    objectKey: p.text(),
    contentType: p.text(),
    sizeBytes: p.integer(),
    uploadUrlExpiresAt: p.datetime(),
    /** Set when attached: the moment storage confirmed the object. */
    uploadedAt: p.datetime().nullable(),
    attachedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
export type StoredFile = InferEntity<typeof StoredFile>;
