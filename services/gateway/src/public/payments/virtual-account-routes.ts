import { z } from '@corridor/config';
import { firstProblemMessage } from '@corridor/validation';
import { HttpError } from '../../http/errors.js';
import { queryOf } from '../../floor/pages/page-query.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { identificationTypeOf, virtualAccountJsonOf, virtualAccountOf } from './collection-render.js';
import { REMOVED_FIELDS, VirtualAccountBody, VirtualAccountListQuery } from './collection-requests.js';
import { IdentificationType, VirtualAccount, VirtualAccountList } from './collection-responses.js';
import { cursorEnvelope, listLocationOf } from '../../floor/pages/cursor-page.js';
import { readBody, readQuery } from '../../http/input.js';
import { jsonSchemaOf, querySchemaOf } from './json-schema.js';
import { present } from './render.js';
import { NoQuery } from './request-schemas.js';
import { successBody } from '../../floor/success-body.js';
import { VIRTUAL_ACCOUNT_STATUSES } from './vocabulary.js';
import { EXAMPLE_IDS, withExample } from '../../floor/examples.js';
import { uuidOfPath } from '../../floor/path-ids.js';

/** Virtual bank accounts of the business's customers (seed 1, 9): open, list, read, close. */

export const virtualAccountCreatedBody = successBody('virtual account created', VirtualAccount);
export const virtualAccountBody = successBody('virtual account retrieved', VirtualAccount);
export const virtualAccountClosedBody = successBody('virtual account closed', VirtualAccount);
export const identificationTypesBody = successBody('identification types retrieved', z.array(IdentificationType));

/** A field seed 9 removed is named with why it was removed, instead of only as unknown. */
function explainRemovedFields(error: unknown): unknown {
  if (!(error instanceof HttpError) || !error.errors) return error;
  const errors = { ...error.errors };
  let removed = false;
  for (const [field, why] of Object.entries(REMOVED_FIELDS)) {
    if (Object.hasOwn(errors, field)) [errors[field], removed] = [[why], true];
  }
  return removed ? new HttpError(error.httpStatus, error.code, firstProblemMessage(errors), errors) : error;
}

const notFound = (id: string) =>
  new HttpError(404, 'VIRTUAL_ACCOUNT_NOT_FOUND', `no virtual account ${id} in this business`);

/** The path's id; not a uuid names no account: the same answer as one of another business. */
export function virtualAccountIdOf(req: RouteContext['req']): string {
  return uuidOfPath(req, 'id', notFound);
}

async function createVirtualAccount({ req, res, clients, call }: RouteContext): Promise<void> {
  let body: z.output<typeof VirtualAccountBody>;
  try {
    body = readBody(VirtualAccountBody, req.body);
  } catch (error) {
    throw explainRemovedFields(error);
  }
  const response = await clients.collections.createVirtualAccount(
    { customerId: body.customer_id, currency: body.currency },
    call,
  );
  const account = virtualAccountOf(response);
  res
    .status(201)
    .location(`/api/external/virtual-account/${account.id}`)
    .json({ message: 'virtual account created', data: account });
}

async function listVirtualAccounts({ req, res, clients, call }: RouteContext): Promise<void> {
  const params = queryOf(req.originalUrl);
  const query = readQuery(VirtualAccountListQuery, params);
  const { virtualAccounts, page } = await clients.collections.listVirtualAccounts(
    {
      customerId: query.customer_id,
      currency: query.currency,
      status: query.status === undefined ? undefined : VIRTUAL_ACCOUNT_STATUSES.toProto(query.status),
      page: { cursor: query.cursor ?? '', limit: query.per_page },
    },
    call,
  );
  res.json(
    cursorEnvelope(
      virtualAccounts.map(virtualAccountJsonOf),
      present(page, 'page'),
      query.per_page,
      listLocationOf(req, params),
    ),
  );
}

async function listIdentificationTypes({ req, res, clients, call }: RouteContext): Promise<void> {
  readQuery(NoQuery, queryOf(req.originalUrl));
  const { identificationTypes } = await clients.collections.listIdentificationTypes({}, call);
  res.json({ message: 'identification types retrieved', data: identificationTypes.map(identificationTypeOf) });
}

async function getVirtualAccount({ req, res, clients, call }: RouteContext): Promise<void> {
  const response = await clients.collections.getVirtualAccount({ virtualAccountId: virtualAccountIdOf(req) }, call);
  res.json({ message: 'virtual account retrieved', data: virtualAccountOf(response) });
}

async function closeVirtualAccount({ req, res, clients, call }: RouteContext): Promise<void> {
  const response = await clients.collections.closeVirtualAccount({ virtualAccountId: virtualAccountIdOf(req) }, call);
  res.json({ message: 'virtual account closed', data: virtualAccountOf(response) });
}

const NOT_FOUND = { description: 'Your business has no virtual account with this id (VIRTUAL_ACCOUNT_NOT_FOUND)' };

export const VIRTUAL_ACCOUNT_ROUTES: readonly PublicRoute[] = [
  {
    method: 'post',
    path: '/api/external/virtual-account',
    scope: 'virtual-account:create',
    operationId: 'createVirtualAccount',
    summary:
      'Open a virtual bank account for one of your VERIFIED customers in one currency; transfers into it are collected into your wallet',
    requestBody: withExample(jsonSchemaOf(VirtualAccountBody, 'input'), {
      customer_id: EXAMPLE_IDS.customer,
      currency: 'NGN',
    }),
    responses: {
      201: {
        description: 'The open account, named after the customer',
        schema: jsonSchemaOf(virtualAccountCreatedBody),
      },
      422: {
        description:
          'A field is missing, malformed or unknown: customer_id a uuid, currency a code such as NGN; account_name was removed and is refused, naming why (VALIDATION_FAILED, `errors` names each field). Or payments refuses: CUSTOMER_NOT_FOUND, CUSTOMER_NOT_VERIFIED, CURRENCY_NOT_ALLOWED_FOR_CUSTOMER (MINIMAL KYB and individual customers hold NGN only), VIRTUAL_ACCOUNT_ALREADY_OPEN (one open account per customer and currency), UNKNOWN_CURRENCY, CURRENCY_OPERATION_NOT_SUPPORTED (the currency has no virtual accounts)',
      },
    },
    handle: createVirtualAccount,
  },
  {
    method: 'get',
    path: '/api/external/virtual-account',
    scope: 'virtual-account:read',
    operationId: 'listVirtualAccounts',
    summary:
      'List your customers’ virtual accounts, newest first, in cursor pages: exact filters customer_id, currency and status',
    query: querySchemaOf(VirtualAccountListQuery),
    responses: {
      200: {
        description: 'A page of matching accounts in Laravel’s cursor-paginator envelope',
        schema: jsonSchemaOf(VirtualAccountList),
      },
      422: {
        description:
          'An unknown or repeated parameter, customer_id not a uuid, status not active or closed, or per_page outside 1..100 (VALIDATION_FAILED, `errors` names each parameter); a cursor that is not one of this list’s pages (payments refuses it, naming cursor)',
      },
    },
    handle: listVirtualAccounts,
  },
  // Before /virtual-account/{id}, which would otherwise take "identification-types" as an id.
  {
    method: 'get',
    path: '/api/external/virtual-account/identification-types',
    scope: 'virtual-account:read',
    operationId: 'listIdentificationTypes',
    summary: 'The identity documents customers holding virtual accounts can be verified with',
    query: querySchemaOf(NoQuery),
    responses: {
      200: { description: 'Every identification type', schema: jsonSchemaOf(identificationTypesBody) },
      422: { description: 'A query parameter was given; this endpoint takes none (VALIDATION_FAILED)' },
    },
    handle: listIdentificationTypes,
  },
  {
    method: 'get',
    path: '/api/external/virtual-account/{id}',
    scope: 'virtual-account:read',
    operationId: 'getVirtualAccount',
    summary: 'Read one of your customers’ virtual accounts',
    responses: {
      200: { description: 'The account', schema: jsonSchemaOf(virtualAccountBody) },
      404: NOT_FOUND,
    },
    handle: getVirtualAccount,
  },
  {
    method: 'post',
    path: '/api/external/virtual-account/{id}/close',
    scope: 'virtual-account:close',
    operationId: 'closeVirtualAccount',
    summary:
      'Close a virtual account: later transfers to it bounce back to their senders. Closing a closed account changes nothing',
    responses: {
      200: { description: 'The closed account', schema: jsonSchemaOf(virtualAccountClosedBody) },
      404: NOT_FOUND,
    },
    handle: closeVirtualAccount,
  },
];
