import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import {
  CustomerFilesInputSchema,
  FileUploadInputSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { readInput } from './input.js';
import { pathParam } from '../../http/path-params.js';
import { customerJson, present, uploadJson } from './render.js';
import { attachCustomerFilesBody, individualUploadBody } from './request-schemas.js';
import { customerBody, uploadBody } from './response-schemas.js';

/** An individual customer's ID files (seed 4.4, 9: businesses use the KYB routes instead). */

async function createFileUpload({ req, res, clients, call }: RouteContext): Promise<void> {
  const { upload } = await clients.customer.createFileUpload(
    { upload: readInput(FileUploadInputSchema, req.body) },
    call,
  );
  res.status(201).json({ message: 'upload url created', data: uploadJson(present(upload, 'upload')) });
}

async function attachCustomerFiles({ req, res, clients, call }: RouteContext): Promise<void> {
  const { customer } = await clients.customer.attachCustomerFiles(
    { customerId: pathParam(req, 'id'), files: readInput(CustomerFilesInputSchema, req.body) },
    call,
  );
  res.json({ message: 'customer files attached', data: customerJson(present(customer, 'customer')) });
}

export const INDIVIDUAL_FILE_ROUTES: readonly PublicRoute[] = [
  {
    method: 'post',
    path: '/api/external/file/get-presigned-url',
    scope: 'file:upload',
    operationId: 'createFileUpload',
    summary: 'Get a presigned URL to upload an individual customer’s ID file',
    requestBody: individualUploadBody,
    responses: {
      201: { description: 'Where and how to upload the file', schema: uploadBody },
      404: { description: 'No such customer (customer_id) for this business' },
      422: {
        description:
          'A category, content type or size that is not allowed (VALIDATION_FAILED), or customer_id names a business customer (NOT_AN_INDIVIDUAL: use the KYB routes); `errors` names each field',
      },
    },
    handle: createFileUpload,
  },
  {
    method: 'post',
    path: '/api/external/customer/{id}/files',
    scope: 'customer:write',
    operationId: 'attachCustomerFiles',
    summary: 'Attach an individual customer’s uploaded ID files (id_file, id_file_back)',
    requestBody: attachCustomerFilesBody,
    responses: {
      200: { description: 'The customer with its ID files', schema: customerBody('customer files attached') },
      400: {
        description:
          'The body is not valid JSON (MALFORMED_JSON), or the customer is PROCESSING or VERIFIED (CUSTOMER_LOCKED)',
      },
      422: {
        description:
          'A business customer (NOT_AN_INDIVIDUAL: use the KYB routes), a file not uploaded yet (FILE_NOT_UPLOADED), issued for another purpose or customer (FILE_NOT_USABLE), or already attached (FILE_ALREADY_ATTACHED); a malformed body is VALIDATION_FAILED',
      },
    },
    handle: attachCustomerFiles,
  },
];
