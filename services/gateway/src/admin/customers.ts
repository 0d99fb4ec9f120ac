import { MAX_PAGE_NUMBER } from '@corridor/pagination';
import type { JsonSchema } from '../http/json-schema.js';
import { ref } from '../http/json-schema.js';
import { ReviewInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { VerificationStatusSchema } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { readInput } from '../public/customers/input.js';
import { readWordParameter } from '../public/customers/vocabulary.js';
import { REVIEW_STATUSES, VERIFICATION_STATUSES } from '../public/customers/fields.js';
import { adminCustomerJson, auditEntryJson, present } from '../public/customers/render.js';
import { customerResponseComponents } from '../public/customers/response-schemas.js';
import { itemRange } from '../floor/pages/numbered-page.js';
import { queryOf, readPage, readQuery, refuseProblems, type QueryProblems } from '../floor/pages/page-query.js';
import { pathParam } from '../http/path-params.js';
import type { AdminRoute, AdminRouteContext } from '../floor/route-context.js';

/**
 * The back office's customer review (decision 0008 "Review"): the queue, one customer of any
 * business, a review with or without a verdict, the audit trail. customer-kyb checks the filters
 * and the review; the gateway reads the query (each parameter once) and the page number.
 */

const QUEUE_PARAMETERS = ['verification_status', 'business_id', 'page'];

const schema = (name: string): JsonSchema => ({ $ref: ref('schemas', name).$ref });
const uuid: JsonSchema = { type: 'string', format: 'uuid' };

/** A customer as the public API shows it, with the platform it belongs to. */
function withBusinessId(customer: JsonSchema | undefined): JsonSchema {
  const { id, ...properties } = customer?.properties ?? {};
  return {
    ...customer,
    description: `${customer?.description ?? 'A customer'}, and the business it belongs to`,
    required: ['id', 'business_id', ...(customer?.required ?? []).filter((name) => name !== 'id')],
    properties: { id: id ?? uuid, business_id: uuid, ...properties },
  };
}

/** components.schemas of the review routes. */
export const customerReviewSchemaComponents: Record<string, JsonSchema> = {
  AdminCustomer: {
    description: 'A customer of any business; `type` tells which of the two shapes',
    oneOf: [schema('AdminBusinessCustomer'), schema('AdminIndividualCustomer')],
  },
  AdminBusinessCustomer: withBusinessId(customerResponseComponents.BusinessCustomer),
  AdminIndividualCustomer: withBusinessId(customerResponseComponents.IndividualCustomer),
  AuditEntry: {
    type: 'object',
    description: 'One change to a customer, by whom and in which request',
    required: ['id', 'customer_id', 'action', 'actor', 'request_id', 'changes', 'occurred_at'],
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      customer_id: uuid,
      action: { type: 'string', description: 'e.g. customer.upgraded' },
      actor: { type: 'string', description: 'credential:<client_id>, or admin' },
      request_id: { type: 'string' },
      changes: { type: 'object', description: 'field → {from, to}' },
      occurred_at: { type: ['string', 'null'], format: 'date-time' },
    },
  },
};

const queueQuery: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    verification_status: {
      type: 'string',
      enum: [...VERIFICATION_STATUSES],
      description: 'only customers in this status (PROCESSING: the review queue)',
    },
    business_id: { ...uuid, description: 'only customers of this business' },
    page: { type: 'integer', minimum: 1, maximum: MAX_PAGE_NUMBER, default: 1, description: '15 customers a page' },
  },
};

const judgements = (what: string): JsonSchema => ({
  type: 'array',
  description: `statuses of the customer’s ${what} in PROCESSING`,
  items: {
    type: 'object',
    required: ['id', 'status'],
    additionalProperties: false,
    properties: {
      id: uuid,
      status: {
        type: 'string',
        enum: REVIEW_STATUSES.filter((status) => status === 'APPROVED' || status === 'REJECTED'),
      },
      admin_comments: { type: 'array', items: { type: 'string' }, description: 'why, for the platform; replaces any' },
    },
  },
});

export const reviewBody: JsonSchema = {
  type: 'object',
  description:
    'A review (decision 0008): the gateway reads JSON types and words into the typed message (decision 0025), customer-kyb checks every rule',
  additionalProperties: false,
  properties: {
    owners: judgements('owners'),
    documents: judgements('KYB documents'),
    verdict: {
      type: 'string',
      enum: ['VERIFIED', 'REJECTED'],
      description: 'moves the customer and fires customer.status_changed; absent: statuses only',
    },
  },
};

async function listReviewQueue({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const problems: QueryProblems = new Map();
  const values = readQuery(queryOf(req.originalUrl), QUEUE_PARAMETERS, problems);
  const verificationStatus = readWordParameter(values, 'verification_status', VerificationStatusSchema, problems);
  const page = readPage(values, problems);
  refuseProblems(problems);
  const answer = await clients.customer.adminListCustomers(
    { verificationStatus, businessId: values.get('business_id'), page: page ?? 1 },
    call,
  );
  const position = present(answer.page, 'page');
  res.json({
    data: answer.customers.map(adminCustomerJson),
    meta: {
      current_page: position.currentPage,
      ...itemRange(answer.customers.length, position.currentPage, position.perPage),
      last_page: Math.max(position.lastPage, 1),
      per_page: position.perPage,
      total: Number(position.total),
      total_capped: position.totalCapped,
    },
  });
}

async function getCustomer({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const answer = await clients.customer.adminGetCustomer({ customerId: pathParam(req, 'id') }, call);
  res.json(adminCustomerJson(present(answer.customer, 'customer')));
}

async function reviewCustomer({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const answer = await clients.customer.adminReviewCustomer(
    { customerId: pathParam(req, 'id'), review: readInput(ReviewInputSchema, req.body) },
    call,
  );
  res.json(adminCustomerJson(present(answer.customer, 'customer')));
}

async function listAuditEntries({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const answer = await clients.customer.adminListAuditEntries({ customerId: pathParam(req, 'id') }, call);
  res.json({ data: answer.entries.map(auditEntryJson) });
}

const NOT_FOUND = { description: 'No customer with this id, of any business (CUSTOMER_NOT_FOUND)' };
const nullablePosition: JsonSchema = { type: ['integer', 'null'], minimum: 1 };
const count: JsonSchema = { type: 'integer', minimum: 0 };

const queueBody: JsonSchema = {
  type: 'object',
  required: ['data', 'meta'],
  additionalProperties: false,
  properties: {
    data: { type: 'array', items: schema('AdminCustomer') },
    meta: {
      type: 'object',
      required: ['current_page', 'from', 'to', 'last_page', 'per_page', 'total', 'total_capped'],
      additionalProperties: false,
      properties: {
        current_page: { type: 'integer', minimum: 1 },
        from: nullablePosition,
        to: nullablePosition,
        last_page: { type: 'integer', minimum: 1 },
        per_page: { type: 'integer', minimum: 1 },
        total: count,
        total_capped: { type: 'boolean', description: 'true: total counts up to a cap, and more match' },
      },
    },
  },
};

export const CUSTOMER_REVIEW_ROUTES: readonly AdminRoute[] = [
  {
    method: 'get',
    path: '/admin/customers',
    operationId: 'listReviewQueue',
    summary: 'Customers of every business in numbered pages, oldest submission first: the review queue',
    query: queueQuery,
    responses: {
      200: { description: 'A page of customers', schema: queueBody },
      422: {
        description:
          'An unknown or repeated parameter, or page not a whole number from 1 to 100 (VALIDATION_FAILED, `errors` names each); customer-kyb refuses a verification_status it does not know or a business_id that is not a uuid',
      },
    },
    handle: listReviewQueue,
  },
  {
    method: 'get',
    path: '/admin/customers/{id}',
    operationId: 'getAdminCustomer',
    summary: 'Read a customer of any business, with its owners, documents and business_id',
    responses: { 200: { description: 'The customer', schema: schema('AdminCustomer') }, 404: NOT_FOUND },
    handle: getCustomer,
  },
  {
    method: 'post',
    path: '/admin/customers/{id}/review',
    operationId: 'reviewCustomer',
    summary:
      'Record a review of a PROCESSING customer: owner and document statuses with comments, and optionally a verdict that moves the customer',
    requestBody: reviewBody,
    responses: {
      200: { description: 'The customer after the review', schema: schema('AdminCustomer') },
      400: {
        description:
          'The body is not valid JSON (MALFORMED_JSON); or the customer, an owner or a document is not PROCESSING (NOT_UNDER_REVIEW)',
      },
      404: NOT_FOUND,
      422: {
        description:
          'The body is missing or not an object (VALIDATION_FAILED); or customer-kyb refuses the review: an unknown field or status, an id that is not of this customer (VALIDATION_FAILED), a VERIFIED verdict before every owner and document is APPROVED (REVIEW_INCOMPLETE), a REJECTED one with nothing rejected',
      },
    },
    handle: reviewCustomer,
  },
  {
    method: 'get',
    path: '/admin/customers/{id}/audit',
    operationId: 'listCustomerAudit',
    summary: 'A customer’s audit trail, oldest first: every change, by whom, in which request',
    responses: {
      200: {
        description: 'The trail',
        schema: {
          type: 'object',
          required: ['data'],
          additionalProperties: false,
          properties: { data: { type: 'array', items: schema('AuditEntry') } },
        },
      },
      404: NOT_FOUND,
    },
    handle: listAuditEntries,
  },
];
