import { HttpError } from '../../http/errors.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { collectionOf } from './collection-render.js';
import { CollectionBody } from './collection-requests.js';
import { readBody } from '../../http/input.js';
import { int64Of } from '../../floor/int64.js';
import { jsonSchemaOf } from './json-schema.js';
import { paymentLinksOf } from './render.js';
import { Transaction } from './response-schemas.js';
import { successBody } from '../../floor/success-body.js';
import { EXAMPLE_IDS, withExample } from '../../floor/examples.js';
import { uuidOfPath } from '../../floor/path-ids.js';

/** Money requests (seed 3.5, 8): the payer approves or declines on its payment link, or it expires. */

export const collectionCreatedBody = successBody('collection created', Transaction);
export const collectionBody = successBody('collection retrieved', Transaction);

/** The path's id; not a uuid names no collection: the same answer as one of another business. */
export function collectionIdOf(req: RouteContext['req']): string {
  return uuidOfPath(
    req,
    'id',
    (id) => new HttpError(404, 'COLLECTION_NOT_FOUND', `no collection ${id} in this business`),
  );
}

async function createCollection({ req, res, clients, call }: RouteContext): Promise<void> {
  const body = readBody(CollectionBody, req.body);
  const response = await clients.collections.createCollection(
    {
      customerId: body.customer_id,
      amount: int64Of(body.amount),
      currency: body.currency,
      description: body.description,
      redirectUrl: body.redirect_url,
      reference: body.reference,
    },
    call,
  );
  const collection = collectionOf(response, paymentLinksOf(req));
  res
    .status(201)
    .location(`/api/external/collection/${collection.id}`)
    .json({ message: 'collection created', data: collection });
}

async function getCollection({ req, res, clients, call }: RouteContext): Promise<void> {
  const response = await clients.collections.getCollection({ collectionId: collectionIdOf(req) }, call);
  res.json({ message: 'collection retrieved', data: collectionOf(response, paymentLinksOf(req)) });
}

export const COLLECTION_ROUTES: readonly PublicRoute[] = [
  {
    method: 'post',
    path: '/api/external/collection',
    scope: 'collection:create',
    operationId: 'createCollection',
    summary:
      'Request money from a payer: send them collection_details.payment_link, where they approve or decline; the outcome arrives by the collection webhook',
    requestBody: withExample(jsonSchemaOf(CollectionBody, 'input'), {
      customer_id: EXAMPLE_IDS.customer,
      amount: 250000,
      currency: 'NGN',
      description: 'Invoice 1042',
      redirect_url: 'https://example.com/checkout/done',
      reference: 'collection-1042',
    }),
    responses: {
      201: {
        description: 'The collection, PENDING until the payer answers or it expires',
        schema: jsonSchemaOf(collectionCreatedBody),
      },
      409: { description: 'reference is already used by another of your transactions (REFERENCE_ALREADY_USED)' },
      422: {
        description:
          'A field is missing, of the wrong JSON type, unknown or malformed: customer_id a uuid, amount a whole number of minor units from 1 to 2^53 - 1, description 1 to 255 characters, reference 1 to 100, redirect_url an absolute https URL of at most 2048 characters (VALIDATION_FAILED, `errors` names each field and the rule broken). Or payments refuses: CUSTOMER_NOT_FOUND, INVALID_AMOUNT, UNKNOWN_CURRENCY, CURRENCY_OPERATION_NOT_SUPPORTED (the currency takes no collections)',
      },
    },
    handle: createCollection,
  },
  {
    method: 'get',
    path: '/api/external/collection/{id}',
    scope: 'transaction:read',
    operationId: 'getCollection',
    summary: 'Read one of your collections: a money request or a bank transfer into a virtual account',
    responses: {
      200: { description: 'The collection’s transaction', schema: jsonSchemaOf(collectionBody) },
      404: { description: 'Your business has no collection with this id (COLLECTION_NOT_FOUND)' },
    },
    handle: getCollection,
  },
];
