import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { HttpError } from '../../http/errors.js';
import { queryOf } from '../../floor/pages/page-query.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { parseDateTime } from '../../floor/times.js';
import { cursorEnvelope, listLocationOf } from '../../floor/pages/cursor-page.js';
import { readQuery } from '../../http/input.js';
import { jsonSchemaOf, querySchemaOf } from './json-schema.js';
import { refundJsonOf } from './collection-render.js';
import { paymentLinksOf, present, transactionJson, transactionOf } from './render.js';
import { TransactionListQuery } from './request-schemas.js';
import { TransactionList, TransactionWithRefund } from './response-schemas.js';
import { successBody } from '../../floor/success-body.js';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from './vocabulary.js';
import { uuidOfPath } from '../../floor/path-ids.js';

/** The business's transactions: one, and the list with exact combinable filters (seed part 1). */

export const transactionBody = successBody('transaction retrieved', TransactionWithRefund);

async function getTransaction({ req, res, auth, clients, call }: RouteContext): Promise<void> {
  const id = uuidOfPath(
    req,
    'id',
    (id) => new HttpError(404, 'TRANSACTION_NOT_FOUND', `no transaction ${id} in this business`),
  );
  const response = await clients.transactions.getTransaction({ transactionId: id }, call);
  const transaction = transactionOf(response, paymentLinksOf(req));
  // seed 2.5: the nested refund only for a token that can read refunds; for others the key is absent.
  const data = auth.caller.scopes.includes('refund:read')
    ? { ...transaction, refund: response.refund ? refundJsonOf(response.refund) : null }
    : transaction;
  res.json({ message: 'transaction retrieved', data });
}

/** A query date-time already checked by the schema, as a Timestamp. */
function timestampOf(value: string | undefined) {
  if (value === undefined) return undefined;
  const date = parseDateTime(value);
  if (!date) throw new Error(`${value} passed the query schema but is not a date-time`);
  return timestampFromDate(date);
}

async function listTransactions({ req, res, clients, call }: RouteContext): Promise<void> {
  const params = queryOf(req.originalUrl);
  const query = readQuery(TransactionListQuery, params);
  const paymentLinkOf = paymentLinksOf(req);
  const { transactions, page } = await clients.transactions.listTransactions(
    {
      status: query.status === undefined ? undefined : TRANSACTION_STATUSES.toProto(query.status),
      type: query.type === undefined ? undefined : TRANSACTION_TYPES.toProto(query.type),
      currency: query.currency,
      reference: query.reference,
      from: timestampOf(query.from),
      to: timestampOf(query.to),
      page: { cursor: query.cursor ?? '', limit: query.per_page },
    },
    call,
  );
  res.json(
    cursorEnvelope(
      transactions.map((transaction) => transactionJson(transaction, paymentLinkOf)),
      present(page, 'page'),
      query.per_page,
      listLocationOf(req, params),
    ),
  );
}

export const TRANSACTION_ROUTES: readonly PublicRoute[] = [
  {
    method: 'get',
    path: '/api/external/transaction/{id}',
    scope: 'transaction:read',
    operationId: 'getTransaction',
    summary:
      'Read one of your business’s transactions; with the scope refund:read, a collection’s refund comes with it as `refund`',
    responses: {
      200: {
        description: 'The transaction, and `refund` (or null) when your token has refund:read',
        schema: jsonSchemaOf(transactionBody),
      },
      404: { description: 'Your business has no transaction with this id (TRANSACTION_NOT_FOUND)' },
    },
    handle: getTransaction,
  },
  {
    method: 'get',
    path: '/api/external/transaction',
    scope: 'transaction:read',
    operationId: 'listTransactions',
    summary:
      'List your business’s transactions, newest first, in cursor pages: exact filters status, type, currency, reference and a created_at window [from, to)',
    query: querySchemaOf(TransactionListQuery),
    responses: {
      200: {
        description: 'A page of matching transactions in Laravel’s cursor-paginator envelope',
        schema: jsonSchemaOf(TransactionList),
      },
      422: {
        description:
          'An unknown or repeated parameter, a status or type outside its values, a from or to that is not an ISO 8601 date-time with a time zone, from not before to, or per_page outside 1..100 (VALIDATION_FAILED, `errors` names each parameter); a cursor that is not one of this list’s pages (payments refuses it, naming cursor)',
      },
    },
    handle: listTransactions,
  },
];
