import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import {
  OwnerFileInputSchema,
  OwnerFileUploadInputSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { readInput } from './input.js';
import { pathParam } from '../../http/path-params.js';
import { customerJson, ownerJson, present, uploadJson } from './render.js';
import { attachOwnerFileBody, ownerUploadBody } from './request-schemas.js';
import { customerBody, ownerBody, uploadBody } from './response-schemas.js';

/** A business customer's owners: removal and their ID files (seed 2.2, 3.3; decision 0008). */

async function removeOwner({ req, res, clients, call }: RouteContext): Promise<void> {
  const { customer } = await clients.customer.removeOwner(
    { customerId: pathParam(req, 'customer'), ownerId: pathParam(req, 'owner') },
    call,
  );
  res.json({ message: 'owner removed', data: customerJson(present(customer, 'customer')) });
}

async function createOwnerFileUpload({ req, res, clients, call }: RouteContext): Promise<void> {
  const { upload } = await clients.customer.createOwnerFileUpload(
    {
      customerId: pathParam(req, 'customer'),
      ownerId: pathParam(req, 'owner'),
      upload: readInput(OwnerFileUploadInputSchema, req.body),
    },
    call,
  );
  res.status(201).json({ message: 'upload url created', data: uploadJson(present(upload, 'upload')) });
}

async function attachOwnerFile({ req, res, clients, call }: RouteContext): Promise<void> {
  const { owner } = await clients.customer.attachOwnerFile(
    {
      customerId: pathParam(req, 'id'),
      ownerId: pathParam(req, 'owner'),
      file: readInput(OwnerFileInputSchema, req.body),
    },
    call,
  );
  res.json({ message: 'owner file attached', data: ownerJson(present(owner, 'owner')) });
}

const ownerLocked = (also = '') => ({
  description: `${also}The owner is APPROVED or PROCESSING, or its customer is PROCESSING or VERIFIED (OWNER_LOCKED)`,
});

export const OWNER_ROUTES: readonly PublicRoute[] = [
  {
    method: 'delete',
    path: '/api/external/customer/{customer}/owner/{owner}',
    scope: 'customer:write',
    operationId: 'removeOwner',
    summary: 'Remove an owner of a business customer (its files stay stored for the audit trail)',
    responses: {
      200: { description: 'The customer without the owner', schema: customerBody('owner removed') },
      400: ownerLocked(),
    },
    handle: removeOwner,
  },
  {
    method: 'post',
    path: '/api/external/customer/{customer}/owner/{owner}/file/presigned-url',
    scope: 'file:upload',
    operationId: 'createOwnerFileUpload',
    summary: 'Get a presigned URL to upload an owner’s ID file for one slot',
    requestBody: ownerUploadBody,
    responses: {
      201: { description: 'Where and how to upload the file', schema: uploadBody },
      400: ownerLocked('The body is not valid JSON (MALFORMED_JSON), or '),
      422: {
        description:
          'A slot, content type or size that is not allowed, e.g. id_document_back for a passport; `errors` names each field',
      },
    },
    handle: createOwnerFileUpload,
  },
  {
    method: 'post',
    path: '/api/external/customer/{id}/owner/{owner}/files',
    scope: 'customer:write',
    operationId: 'attachOwnerFile',
    summary: 'Attach an uploaded ID file to an owner’s slot',
    requestBody: attachOwnerFileBody,
    responses: {
      200: { description: 'The owner with the file in its slot', schema: ownerBody('owner file attached') },
      400: ownerLocked('The body is not valid JSON (MALFORMED_JSON), or '),
      422: {
        description:
          'The file was not uploaded yet (FILE_NOT_UPLOADED), was issued for another owner, slot or customer (FILE_NOT_USABLE), was already attached (FILE_ALREADY_ATTACHED), or the slot does not fit id_document_type (VALIDATION_FAILED)',
      },
    },
    handle: attachOwnerFile,
  },
];
