import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { CustomerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { readInput } from './input.js';
import { pageRequestOf, queryOf } from '../../floor/pages/page-query.js';
import { parseCustomerListQuery } from './list-query.js';
import { truncationHeaders, truncationResponseHeaders } from './list-truncation.js';
import { listEnvelope } from '../../floor/pages/list-envelope.js';
import { listLocationOf } from '../../floor/pages/cursor-page.js';
import { pathParam } from '../../http/path-params.js';
import { customerJson, present } from './render.js';
import { createCustomerBody, kycDataBody, updateCustomerBody, upgradeBody } from './request-schemas.js';
import { customerBody, customerListBody, customerListQuery } from './response-schemas.js';

/** The customer itself: create, change, read, list, submit, upgrade (seed 2.1, 3.1, 3.2, 4.2, 4.4). */

async function createCustomer({ req, res, clients, call }: RouteContext): Promise<void> {
  const { customer } = await clients.customer.createCustomer(
    { customer: readInput(CustomerInputSchema, req.body) },
    call,
  );
  res.status(201).json({ message: 'customer created', data: customerJson(present(customer, 'customer')) });
}

async function updateCustomer({ req, res, clients, call }: RouteContext): Promise<void> {
  const { customer } = await clients.customer.updateCustomer(
    { customerId: pathParam(req, 'id'), customer: readInput(CustomerInputSchema, req.body) },
    call,
  );
  res.json({ message: 'customer updated', data: customerJson(present(customer, 'customer')) });
}

async function updateKycData({ req, res, clients, call }: RouteContext): Promise<void> {
  const { customer } = await clients.customer.updateKycData(
    { customerId: pathParam(req, 'id'), customer: readInput(CustomerInputSchema, req.body) },
    call,
  );
  res.json({ message: 'kyc data updated', data: customerJson(present(customer, 'customer')) });
}

async function getCustomer({ req, res, clients, call }: RouteContext): Promise<void> {
  const { customer } = await clients.customer.getCustomer({ customerId: pathParam(req, 'id') }, call);
  res.json({ message: 'customer retrieved', data: customerJson(present(customer, 'customer')) });
}

async function listCustomers({ req, res, clients, call }: RouteContext): Promise<void> {
  const params = queryOf(req.originalUrl);
  const query = parseCustomerListQuery(params);
  const filters = Object.fromEntries(query.filters);
  const answer = await clients.customer.listCustomers(
    {
      email: filters.email,
      idNumber: filters.id_number,
      registrationNumber: filters.registration_number,
      verificationStatus: query.verificationStatus,
      type: query.type,
      paginate: query.paginate,
      ...(query.paginate ? pageRequestOf(query.page) : {}),
    },
    call,
  );
  const data = answer.customers.map(customerJson);
  if (!query.paginate) {
    // The body stays the seed's shape (seed 4.4); a cut list says so where a client cannot miss it.
    const path = listLocationOf(req, params).path;
    if (answer.truncated) res.set(truncationHeaders(path, params));
    res.json({ message: 'customers retrieved', data });
    return;
  }
  res.json(listEnvelope(req, params, data, answer));
}

async function submitCustomer({ req, res, clients, call }: RouteContext): Promise<void> {
  const { customer } = await clients.customer.submitCustomer({ customerId: pathParam(req, 'customer') }, call);
  res.json({ message: 'customer submitted for verification', data: customerJson(present(customer, 'customer')) });
}

async function upgradeKybScope({ req, res, clients, call }: RouteContext): Promise<void> {
  const { customer } = await clients.customer.upgradeKybScope(
    { customerId: pathParam(req, 'customer'), customer: readInput(CustomerInputSchema, req.body) },
    call,
  );
  res.json({ message: 'customer upgraded to FULL KYB', data: customerJson(present(customer, 'customer')) });
}

const lockedCustomer = {
  description:
    'The body is not valid JSON (MALFORMED_JSON), or the customer is PROCESSING or VERIFIED and cannot be edited (CUSTOMER_LOCKED), or an owner sent is APPROVED or PROCESSING (OWNER_LOCKED)',
};

/** Why a change of a customer's fields is refused: its fields, or another customer's registration. */
const changeRefused =
  'A field is invalid, unknown or of the other type, or a rule between fields fails (VALIDATION_FAILED); or the (registration_number, incorporation_country) pair is another business customer’s (DUPLICATE_REGISTRATION). `errors` lists every problem.';

export const CUSTOMER_ROUTES: readonly PublicRoute[] = [
  {
    method: 'post',
    path: '/api/external/customer',
    scope: 'customer:write',
    operationId: 'createCustomer',
    summary: 'Create an individual (KYC) or business (KYB) customer',
    requestBody: createCustomerBody,
    responses: {
      201: { description: 'The new customer, PENDING', schema: customerBody('customer created') },
      422: {
        description:
          'A field is missing, invalid, unknown or of the other type, or MINIMAL is not available to this platform (VALIDATION_FAILED); or the (registration_number, incorporation_country) pair is taken (DUPLICATE_REGISTRATION). `errors` lists every problem.',
      },
    },
    handle: createCustomer,
  },
  {
    method: 'get',
    path: '/api/external/customer',
    scope: 'customer:read',
    operationId: 'listCustomers',
    summary:
      'List customers, newest first: exact-match filters email, id_number, registration_number, verification_status, type; paginate=true for cursor pages (per_page, default 15), or page=N for a numbered page of 15',
    query: customerListQuery,
    responses: {
      200: {
        description:
          'The matching customers. Without paginate, the newest 500: when more match, the answer carries `x-corridor-truncated: true` and a `Link` to the paginated list. With paginate=true, a cursor page (`links.next` carries the cursor), or for page=N a numbered page whose total is counted up to 10,000',
        schema: customerListBody,
        headers: truncationResponseHeaders,
      },
      422: {
        description:
          'An unknown or repeated query parameter, a verification_status or type outside its values, paginate other than true/false/1/0, page not a whole number from 1 to 100, per_page not from 1 to 100, page with cursor or per_page, cursor or per_page without paginate=true, or a cursor this list did not return; `errors` names each parameter',
      },
    },
    handle: listCustomers,
  },
  {
    method: 'get',
    path: '/api/external/customer/{id}',
    scope: 'customer:read',
    operationId: 'getCustomer',
    summary: 'Read a customer, with its owners and KYB documents (business) or ID files (individual)',
    responses: { 200: { description: 'The customer', schema: customerBody('customer retrieved') } },
    handle: getCustomer,
  },
  {
    method: 'put',
    path: '/api/external/customer/{id}',
    scope: 'customer:write',
    operationId: 'updateCustomer',
    summary: 'Change a customer’s fields and owners: null clears a field, an omitted one is unchanged',
    requestBody: updateCustomerBody,
    responses: {
      200: { description: 'The customer after the change', schema: customerBody('customer updated') },
      400: lockedCustomer,
      422: { description: changeRefused },
    },
    handle: updateCustomer,
  },
  {
    method: 'post',
    path: '/api/external/customer/{id}/kyc-data',
    scope: 'customer:write',
    operationId: 'updateKycData',
    summary: 'Change a customer’s KYC/KYB data fields (as PUT, without owners and type)',
    requestBody: kycDataBody,
    responses: {
      200: { description: 'The customer after the change', schema: customerBody('kyc data updated') },
      400: {
        description:
          'The body is not valid JSON (MALFORMED_JSON), or the customer is PROCESSING or VERIFIED (CUSTOMER_LOCKED)',
      },
      422: { description: changeRefused },
    },
    handle: updateKycData,
  },
  {
    method: 'post',
    path: '/api/external/customer/{customer}/submit',
    scope: 'customer:write',
    operationId: 'submitCustomer',
    summary: 'Submit a customer for verification: readiness checks, then PROCESSING (customer.status_changed)',
    responses: {
      200: {
        description: 'The customer, PROCESSING; its PENDING owners and documents are PROCESSING too',
        schema: customerBody('customer submitted for verification'),
      },
      400: { description: 'The customer is already PROCESSING (ALREADY_PROCESSING) or VERIFIED (ALREADY_VERIFIED)' },
      422: {
        description:
          'A readiness check failed (READINESS_CHECK_FAILED, seed 3.2 in order; the first failure is answered, with its own message and errors)',
      },
    },
    handle: submitCustomer,
  },
  {
    method: 'post',
    path: '/api/external/customer/{customer}/upgrade-kyb-scope',
    scope: 'customer:write',
    operationId: 'upgradeKybScope',
    summary: 'Upgrade a business customer from MINIMAL to FULL KYB, adding its owners (seed 4.2)',
    requestBody: upgradeBody,
    responses: {
      200: {
        description:
          'The customer, FULL, with its new PENDING owners; a VERIFIED customer is PENDING again (customer.status_changed)',
        schema: customerBody('customer upgraded to FULL KYB'),
      },
      400: { description: 'The body is not valid JSON (MALFORMED_JSON), or the customer is PROCESSING' },
      422: {
        description:
          'Not a business customer (NOT_A_BUSINESS), already FULL (ALREADY_FULL), the (registration_number, incorporation_country) pair taken (DUPLICATE_REGISTRATION); or owners missing or more than 5, percentages not summing to 100, owner emails not unique, an owner invariant violated, country differing from incorporation_country, or an invalid value (VALIDATION_FAILED); `errors` lists every problem',
      },
    },
    handle: upgradeKybScope,
  },
];
