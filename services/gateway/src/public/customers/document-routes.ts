import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import {
  DocumentInputSchema,
  DocumentUploadInputSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { readInput } from './input.js';
import { pathParam } from '../../http/path-params.js';
import { documentJson, present, uploadJson } from './render.js';
import { documentUploadBody, registerDocumentBody, replaceDocumentBody } from './request-schemas.js';
import { documentBody, uploadBody } from './response-schemas.js';

/** A business customer's KYB documents (seed 2.3, 3.3; decision 0008). */

async function createDocumentUpload({ req, res, clients, call }: RouteContext): Promise<void> {
  const { upload } = await clients.customer.createDocumentUpload(
    { customerId: pathParam(req, 'customer'), upload: readInput(DocumentUploadInputSchema, req.body) },
    call,
  );
  res.status(201).json({ message: 'upload url created', data: uploadJson(present(upload, 'upload')) });
}

async function registerDocument({ req, res, clients, call }: RouteContext): Promise<void> {
  const { document } = await clients.customer.registerDocument(
    { customerId: pathParam(req, 'customer'), document: readInput(DocumentInputSchema, req.body) },
    call,
  );
  res.status(201).json({ message: 'document registered', data: documentJson(present(document, 'document')) });
}

async function replaceDocument({ req, res, clients, call }: RouteContext): Promise<void> {
  const { document } = await clients.customer.replaceDocument(
    {
      customerId: pathParam(req, 'customer'),
      documentId: pathParam(req, 'document'),
      document: readInput(DocumentInputSchema, req.body),
    },
    call,
  );
  res.json({ message: 'document replaced', data: documentJson(present(document, 'document')) });
}

const customerLocked = {
  description:
    'The body is not valid JSON (MALFORMED_JSON), or the customer is PROCESSING or VERIFIED and takes no new document (CUSTOMER_LOCKED)',
};

export const DOCUMENT_ROUTES: readonly PublicRoute[] = [
  {
    method: 'post',
    path: '/api/external/customer/{customer}/document/presigned-url',
    scope: 'file:upload',
    operationId: 'createDocumentUpload',
    summary: 'Get a presigned URL to upload a KYB document',
    requestBody: documentUploadBody,
    responses: {
      201: { description: 'Where and how to upload the file', schema: uploadBody },
      400: customerLocked,
      422: {
        description:
          'A content type or size that is not allowed (VALIDATION_FAILED), or the customer is not a business (NOT_A_BUSINESS); `errors` names each field',
      },
    },
    handle: createDocumentUpload,
  },
  {
    method: 'post',
    path: '/api/external/customer/{customer}/document',
    scope: 'customer:write',
    operationId: 'registerDocument',
    summary: 'Register an uploaded file as a KYB document of a business customer',
    requestBody: registerDocumentBody,
    responses: {
      201: { description: 'The new document, PENDING', schema: documentBody('document registered') },
      400: customerLocked,
      422: {
        description:
          'An unknown type (VALIDATION_FAILED), the customer not a business (NOT_A_BUSINESS), a file not uploaded yet (FILE_NOT_UPLOADED), issued for another purpose or customer (FILE_NOT_USABLE), or already attached (FILE_ALREADY_ATTACHED)',
      },
    },
    handle: registerDocument,
  },
  {
    method: 'put',
    path: '/api/external/customer/{customer}/document/{document}',
    scope: 'customer:write',
    operationId: 'replaceDocument',
    summary: 'Replace a KYB document’s file (and its type, if sent)',
    requestBody: replaceDocumentBody,
    responses: {
      200: { description: 'The document; a REJECTED one is PENDING again', schema: documentBody('document replaced') },
      400: {
        description:
          'The body is not valid JSON (MALFORMED_JSON), or the document is APPROVED or PROCESSING, or its customer PROCESSING or VERIFIED (DOCUMENT_LOCKED)',
      },
      422: {
        description:
          'An unknown type (VALIDATION_FAILED), a file not uploaded yet (FILE_NOT_UPLOADED), issued for another purpose or customer (FILE_NOT_USABLE), or already attached (FILE_ALREADY_ATTACHED)',
      },
    },
    handle: replaceDocument,
  },
];
