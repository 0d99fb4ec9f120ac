import { HttpError } from '../../http/errors.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { refundOf } from './collection-render.js';
import { RefundBody } from './collection-requests.js';
import { Refund } from './collection-responses.js';
import { readBody } from '../../http/input.js';
import { int64Of } from '../../floor/int64.js';
import { jsonSchemaOf } from './json-schema.js';
import { successBody } from '../../floor/success-body.js';
import { EXAMPLE_IDS, withExample } from '../../floor/examples.js';
import { uuidOfPath } from '../../floor/path-ids.js';

/** Refunds of collections (seed 2.5, 3.5, 4.4): full, once, within 7 days; the reference is its key. */

export const refundCreatedBody = successBody('refund initiated', Refund);
export const refundExistingBody = successBody('refund already initiated with this reference', Refund);
export const refundBody = successBody('refund retrieved', Refund);

async function createRefund({ req, res, clients, call }: RouteContext): Promise<void> {
  const body = readBody(RefundBody, req.body);
  const response = await clients.refunds.createRefund(
    {
      transactionId: body.transaction_id,
      reason: body.reason,
      reference: body.reference,
      amount: body.amount === undefined ? undefined : int64Of(body.amount),
    },
    call,
  );
  const refund = refundOf(response);
  // seed 4.4: the same reference on the same collection is that refund again, not a new one.
  if (response.existing) {
    res.json({ message: 'refund already initiated with this reference', data: refund });
    return;
  }
  res.status(201).location(`/api/external/refund/${refund.id}`).json({ message: 'refund initiated', data: refund });
}

async function getRefund({ req, res, clients, call }: RouteContext): Promise<void> {
  const id = uuidOfPath(req, 'id', (id) => new HttpError(404, 'REFUND_NOT_FOUND', `no refund ${id} in this business`));
  const response = await clients.refunds.getRefund({ refundId: id }, call);
  res.json({ message: 'refund retrieved', data: refundOf(response) });
}

export const REFUND_ROUTES: readonly PublicRoute[] = [
  {
    method: 'post',
    path: '/api/external/refund',
    scope: 'refund:create',
    operationId: 'createRefund',
    summary:
      'Refund a successful EUR or GBP collection in full, within 7 days of it; the outcome arrives by the refund webhook',
    requestBody: withExample(jsonSchemaOf(RefundBody, 'input'), {
      transaction_id: EXAMPLE_IDS.transaction,
      reason: 'the order was returned',
      reference: 'refund-1042',
    }),
    responses: {
      200: {
        description: 'reference already names a refund of this collection: that refund, and nothing new happened',
        schema: jsonSchemaOf(refundExistingBody),
      },
      201: {
        description: 'The refund, processing: its amount is reserved in your wallet until it succeeds or fails',
        schema: jsonSchemaOf(refundCreatedBody),
      },
      400: {
        description:
          'The body is not valid JSON (MALFORMED_JSON), or reference is already used by a refund of another collection (REFERENCE_USED_ON_ANOTHER_TRANSACTION)',
      },
      404: { description: 'Your business has no transaction with this transaction_id (TRANSACTION_NOT_FOUND)' },
      422: {
        description:
          'A field is missing, of the wrong JSON type, unknown or malformed: transaction_id a uuid, reason 1 to 255 characters, reference 1 to 100, amount a whole number of minor units from 1 (VALIDATION_FAILED, `errors` names each field). Or payments refuses: NOT_A_COLLECTION, COLLECTION_NOT_SUCCESSFUL, REFUND_CURRENCY_NOT_SUPPORTED (EUR and GBP only), REFUND_WINDOW_CLOSED (more than 7 days after the collection), ALREADY_REFUNDED (one refund per collection), PARTIAL_REFUND_NOT_SUPPORTED (amount is not the collection’s full amount), INSUFFICIENT_FUNDS',
      },
    },
    handle: createRefund,
  },
  {
    method: 'get',
    path: '/api/external/refund/{id}',
    scope: 'refund:read',
    operationId: 'getRefund',
    summary: 'Read one of your refunds: its status and, when it failed, why',
    responses: {
      200: { description: 'The refund', schema: jsonSchemaOf(refundBody) },
      404: { description: 'Your business has no refund with this id (REFUND_NOT_FOUND)' },
    },
    handle: getRefund,
  },
];
