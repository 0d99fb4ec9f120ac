import { z } from '@corridor/config';
import { HttpError } from '../../http/errors.js';
import { queryOf } from '../../floor/pages/page-query.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { collectionOf, cryptoAddressOf, cryptoNetworkOf } from './collection-render.js';
import { CryptoAddressBody, InteracRequestBody, NoBody } from './collection-requests.js';
import { CryptoAddress, CryptoNetwork } from './collection-responses.js';
import { readBody, readQuery } from '../../http/input.js';
import { int64Of } from '../../floor/int64.js';
import { jsonSchemaOf, querySchemaOf } from './json-schema.js';
import { paymentLinksOf } from './render.js';
import { NoQuery } from './request-schemas.js';
import { Transaction } from './response-schemas.js';
import { successBody } from '../../floor/success-body.js';
import { EXAMPLE_IDS, withExample } from '../../floor/examples.js';
import { uuidOfPath } from '../../floor/path-ids.js';

/**
 * Crypto collections and Interac (decision 0015): stablecoin deposit addresses, credited in USD once
 * confirmed; Interac money requests in CAD, and accepting the e-Transfers sent to the business.
 */

export const cryptoNetworksBody = successBody('crypto networks retrieved', z.array(CryptoNetwork));
export const cryptoAddressCreatedBody = successBody('crypto address created', CryptoAddress);
export const cryptoAddressExistingBody = successBody('crypto address already exists for this customer', CryptoAddress);
export const interacRequestCreatedBody = successBody('interac request created', Transaction);
export const interacTransferAcceptedBody = successBody('interac transfer accepted', Transaction);

async function listCryptoNetworks({ req, res, clients, call }: RouteContext): Promise<void> {
  readQuery(NoQuery, queryOf(req.originalUrl));
  const { networks } = await clients.collections.listCryptoNetworks({}, call);
  res.json({ message: 'crypto networks retrieved', data: networks.map(cryptoNetworkOf) });
}

async function createCryptoAddress({ req, res, clients, call }: RouteContext): Promise<void> {
  const body = readBody(CryptoAddressBody, req.body);
  const response = await clients.collections.createCryptoAddress(
    { customerId: body.customer_id, asset: body.asset, network: body.network },
    call,
  );
  const address = cryptoAddressOf(response);
  // One address per (customer, asset, network): asking again is answered, not refused.
  if (response.existing) {
    res.json({ message: 'crypto address already exists for this customer', data: address });
    return;
  }
  res.status(201).json({ message: 'crypto address created', data: address });
}

async function createInteracRequest({ req, res, clients, call }: RouteContext): Promise<void> {
  const body = readBody(InteracRequestBody, req.body);
  const response = await clients.collections.createInteracRequest(
    {
      customerId: body.customer_id,
      amount: int64Of(body.amount),
      payerEmail: body.payer_email,
      description: body.description,
      reference: body.reference,
    },
    call,
  );
  const collection = collectionOf(response, paymentLinksOf(req));
  res
    .status(201)
    .location(`/api/external/collection/${collection.id}`)
    .json({ message: 'interac request created', data: collection });
}

async function acceptInteracTransfer({ req, res, clients, call }: RouteContext): Promise<void> {
  const id = uuidOfPath(
    req,
    'id',
    (id) => new HttpError(404, 'INTERAC_TRANSFER_NOT_FOUND', `no Interac e-Transfer ${id} for this business`),
  );
  readBody(NoBody, req.body);
  const response = await clients.collections.acceptInteracTransfer({ collectionId: id }, call);
  res.json({ message: 'interac transfer accepted', data: collectionOf(response, paymentLinksOf(req)) });
}

export const CRYPTO_INTERAC_ROUTES: readonly PublicRoute[] = [
  {
    method: 'get',
    path: '/api/external/collection/crypto/networks',
    scope: 'collection:crypto:create',
    operationId: 'listCryptoNetworks',
    summary:
      'The stablecoins and networks a crypto collection can use, each with its confirmations and the wallet it settles to',
    query: querySchemaOf(NoQuery),
    responses: {
      200: { description: 'Every supported asset and network', schema: jsonSchemaOf(cryptoNetworksBody) },
      422: { description: 'A query parameter was given; this endpoint takes none (VALIDATION_FAILED)' },
    },
    handle: listCryptoNetworks,
  },
  {
    method: 'post',
    path: '/api/external/collection/crypto/address',
    scope: 'collection:crypto:create',
    operationId: 'createCryptoAddress',
    summary:
      'Give a customer a deposit address for one stablecoin on one network; deposits to it are credited to your USD wallet once confirmed, and the collection webhook follows',
    requestBody: withExample(jsonSchemaOf(CryptoAddressBody, 'input'), {
      customer_id: EXAMPLE_IDS.customer,
      asset: 'USDT',
      network: 'TRON',
    }),
    responses: {
      200: {
        description: 'The customer already has an address for this asset and network: that address, nothing new made',
        schema: jsonSchemaOf(cryptoAddressExistingBody),
      },
      201: { description: 'The new address', schema: jsonSchemaOf(cryptoAddressCreatedBody) },
      422: {
        description:
          'A field is missing, of the wrong JSON type, unknown or malformed: customer_id a uuid, asset 2 to 10 capital letters, network 2 to 20 (VALIDATION_FAILED, `errors` names each field). Or payments refuses: UNSUPPORTED_CRYPTO_NETWORK (the asset is not collected on that network: see GET /api/external/collection/crypto/networks), CUSTOMER_NOT_FOUND',
      },
    },
    handle: createCryptoAddress,
  },
  {
    method: 'post',
    path: '/api/external/collection/interac',
    scope: 'collection:interac:create',
    operationId: 'createInteracRequest',
    summary:
      'Request Canadian dollars by Interac: the payer gets the request at payer_email and pays it from their bank; the outcome arrives by the collection webhook',
    requestBody: withExample(jsonSchemaOf(InteracRequestBody, 'input'), {
      customer_id: EXAMPLE_IDS.customer,
      amount: 150000,
      currency: 'CAD',
      payer_email: 'payer@example.com',
      description: 'Invoice 1043',
    }),
    responses: {
      201: {
        description: 'The collection, PENDING until the payer pays or it expires',
        schema: jsonSchemaOf(interacRequestCreatedBody),
      },
      409: { description: 'reference is already used by another of your transactions (REFERENCE_ALREADY_USED)' },
      422: {
        description:
          'A field is missing, of the wrong JSON type, unknown or malformed: customer_id a uuid, amount a whole number of cents from 1 to 2^53 - 1, currency CAD if sent, payer_email an email address of at most 254 characters, description 1 to 255 characters, reference 1 to 100 (VALIDATION_FAILED, `errors` names each field). Or payments refuses: CUSTOMER_NOT_FOUND, INVALID_AMOUNT, VALIDATION_FAILED naming payer_email',
      },
    },
    handle: createInteracRequest,
  },
  {
    method: 'post',
    path: '/api/external/collection/interac/{id}/accept',
    scope: 'collection:interac:accept',
    operationId: 'acceptInteracTransfer',
    summary:
      'Accept an Interac e-Transfer sent to you: the money is credited to your CAD wallet and the collection webhook follows',
    requestBody: jsonSchemaOf(NoBody, 'input'),
    responses: {
      200: { description: 'The collection, SUCCESSFUL', schema: jsonSchemaOf(interacTransferAcceptedBody) },
      400: {
        description:
          'The body is not valid JSON (MALFORMED_JSON), or the e-Transfer is no longer pending: already accepted, or expired unaccepted (COLLECTION_NOT_PENDING, the message names its status)',
      },
      404: {
        description:
          'Your business has no Interac e-Transfer with this id; other collections, Interac requests included, are not accepted here (INTERAC_TRANSFER_NOT_FOUND)',
      },
      422: { description: 'The body has a field: send no body, or {} (VALIDATION_FAILED)' },
    },
    handle: acceptInteracTransfer,
  },
];
