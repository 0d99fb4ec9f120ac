import { notFound } from '@corridor/grpc';

export const ownerNotFound = (id: string) => notFound('OWNER_NOT_FOUND', `owner ${id} not found`);
export const documentNotFound = (id: string) => notFound('DOCUMENT_NOT_FOUND', `document ${id} not found`);
