import { SandboxCollectionOutcome } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { HttpError } from '../../http/errors.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { collectionOf } from './collection-render.js';
import { CryptoDepositBody, IncomingTransferBody, InteracIncomingBody, NoBody } from './collection-requests.js';
import { collectionIdOf } from './collection-routes.js';
import { readBody } from '../../http/input.js';
import { int64Of } from '../../floor/int64.js';
import { jsonSchemaOf } from './json-schema.js';
import { paymentLinksOf } from './render.js';
import { Transaction } from './response-schemas.js';
import { successBody } from '../../floor/success-body.js';
import { virtualAccountIdOf } from './virtual-account-routes.js';
import { EXAMPLE_IDS, withExample } from '../../floor/examples.js';
import { uuidOfPath } from '../../floor/path-ids.js';

/**
 * The sandbox rail's simulations (DESIGN.md "Rails behind one interface"): a transfer arriving in a
 * virtual account, a payer answering a money or Interac request, a crypto deposit and an Interac
 * e-Transfer arriving (decision 0015). payments refuses them in production (SANDBOX_ONLY); the
 * gateway answers that as any refusal.
 */

export const incomingTransferBody = successBody('incoming transfer received', Transaction);
export const collectionSettledBody = successBody('collection updated', Transaction);
export const cryptoDepositBody = successBody('crypto deposit received', Transaction);
export const interacIncomingBody = successBody('interac transfer received', Transaction);

async function incomingTransfer({ req, res, clients, call }: RouteContext): Promise<void> {
  const virtualAccountId = virtualAccountIdOf(req);
  const body = readBody(IncomingTransferBody, req.body);
  const response = await clients.collections.sandboxIncomingTransfer(
    { virtualAccountId, amount: int64Of(body.amount), senderName: body.sender_name },
    call,
  );
  const collection = collectionOf(response, paymentLinksOf(req));
  res
    .status(201)
    .location(`/api/external/collection/${collection.id}`)
    .json({ message: 'incoming transfer received', data: collection });
}

async function cryptoDeposit({ req, res, clients, call }: RouteContext): Promise<void> {
  const addressId = uuidOfPath(
    req,
    'id',
    (id) => new HttpError(404, 'CRYPTO_ADDRESS_NOT_FOUND', `no crypto address ${id} for this business`),
  );
  const body = readBody(CryptoDepositBody, req.body);
  const response = await clients.collections.sandboxCryptoDeposit({ addressId, assetAmount: body.asset_amount }, call);
  const collection = collectionOf(response, paymentLinksOf(req));
  res
    .status(201)
    .location(`/api/external/collection/${collection.id}`)
    .json({ message: 'crypto deposit received', data: collection });
}

async function interacIncoming({ req, res, clients, call }: RouteContext): Promise<void> {
  const body = readBody(InteracIncomingBody, req.body);
  const response = await clients.collections.sandboxInteracTransfer(
    {
      customerId: body.customer_id,
      amount: int64Of(body.amount),
      senderName: body.sender_name,
      senderEmail: body.sender_email,
    },
    call,
  );
  const collection = collectionOf(response, paymentLinksOf(req));
  res
    .status(201)
    .location(`/api/external/collection/${collection.id}`)
    .json({ message: 'interac transfer received', data: collection });
}

function settleCollection(outcome: SandboxCollectionOutcome) {
  return async ({ req, res, clients, call }: RouteContext): Promise<void> => {
    const collectionId = collectionIdOf(req);
    readBody(NoBody, req.body);
    const response = await clients.collections.sandboxSettleCollection({ collectionId, outcome }, call);
    res.json({ message: 'collection updated', data: collectionOf(response, paymentLinksOf(req)) });
  };
}

const FORBIDDEN = {
  description:
    'In production: simulations exist only in the sandbox (SANDBOX_ONLY); or the token lacks the scope (SCOPE_MISSING), the business has no API services (API_DISABLED), or the caller’s address is not allowed (IP_NOT_ALLOWED)',
};

const SETTLEMENTS = [
  ['pay', SandboxCollectionOutcome.PAY, 'the payer pays: SUCCESSFUL, or FAILED when their bank refuses'],
  ['decline', SandboxCollectionOutcome.DECLINE, 'the payer declines: FAILED (declined_by_payer)'],
  ['expire', SandboxCollectionOutcome.EXPIRE, 'its expiry time comes now: EXPIRED, and no funds move'],
] as const;

export const SANDBOX_ROUTES: readonly PublicRoute[] = [
  {
    method: 'post',
    path: '/api/external/sandbox/virtual-account/{id}/incoming-transfer',
    scope: 'virtual-account:create',
    operationId: 'sandboxIncomingTransfer',
    summary:
      'Sandbox: a bank transfer arrives in a virtual account and is collected at once (bounced, FAILED, when the account is closed); the collection webhook follows',
    requestBody: withExample(jsonSchemaOf(IncomingTransferBody, 'input'), {
      amount: 5000000,
      sender_name: 'Jane Payer',
    }),
    responses: {
      201: {
        description: 'The collection the transfer made: SUCCESSFUL, or FAILED when it bounced',
        schema: jsonSchemaOf(incomingTransferBody),
      },
      403: FORBIDDEN,
      404: { description: 'Your business has no virtual account with this id (VIRTUAL_ACCOUNT_NOT_FOUND)' },
      422: {
        description:
          'A field is missing, of the wrong JSON type, unknown or malformed: amount a whole number of minor units from 1 to 2^53 - 1, sender_name 1 to 100 characters (VALIDATION_FAILED, `errors` names each field)',
      },
    },
    handle: incomingTransfer,
  },
  ...SETTLEMENTS.map(([action, outcome, effect]): PublicRoute => ({
    method: 'post',
    path: `/api/external/sandbox/collection/{id}/${action}`,
    scope: 'collection:create',
    operationId: `sandbox${action.charAt(0).toUpperCase()}${action.slice(1)}Collection`,
    summary: `Sandbox: a pending money request's or Interac request's outcome, ${effect}; the collection webhook follows`,
    requestBody: jsonSchemaOf(NoBody, 'input'),
    responses: {
      200: { description: 'The collection after the outcome', schema: jsonSchemaOf(collectionSettledBody) },
      400: {
        description:
          'The body is not valid JSON (MALFORMED_JSON), or the collection is not a pending money request or Interac request (COLLECTION_NOT_PENDING, the message names its status)',
      },
      403: FORBIDDEN,
      404: { description: 'Your business has no collection with this id (COLLECTION_NOT_FOUND)' },
      422: { description: 'The body has a field: send no body, or {} (VALIDATION_FAILED)' },
    },
    handle: settleCollection(outcome),
  })),
  {
    method: 'post',
    path: '/api/external/sandbox/collection/crypto/address/{id}/deposit',
    scope: 'collection:crypto:create',
    operationId: 'sandboxCryptoDeposit',
    summary:
      'Sandbox: a stablecoin deposit arrives at a crypto address. It is PROCESSING, gains a confirmation per sandbox block, and at the network’s count becomes SUCCESSFUL: your USD wallet is credited and the collection webhook follows',
    requestBody: jsonSchemaOf(CryptoDepositBody, 'input'),
    responses: {
      201: {
        description: 'The collection the deposit made: PROCESSING, with 0 confirmations',
        schema: jsonSchemaOf(cryptoDepositBody),
      },
      403: FORBIDDEN,
      404: { description: 'Your business has no crypto address with this id (CRYPTO_ADDRESS_NOT_FOUND)' },
      422: {
        description:
          'asset_amount is missing, not a string of 1 to 30 digits, or the body has another field (VALIDATION_FAILED, `errors` names each field). Or payments refuses: INVALID_AMOUNT (worth less than one cent)',
      },
    },
    handle: cryptoDeposit,
  },
  {
    method: 'post',
    path: '/api/external/sandbox/collection/interac/incoming',
    scope: 'collection:interac:accept',
    operationId: 'sandboxInteracIncoming',
    summary:
      'Sandbox: an Interac e-Transfer in CAD arrives for one of your customers, PENDING until you accept it (POST /api/external/collection/interac/{id}/accept) or it expires',
    requestBody: withExample(jsonSchemaOf(InteracIncomingBody, 'input'), {
      customer_id: EXAMPLE_IDS.customer,
      amount: 150000,
      sender_name: 'Jane Payer',
      sender_email: 'jane.payer@example.com',
    }),
    responses: {
      201: { description: 'The collection, PENDING', schema: jsonSchemaOf(interacIncomingBody) },
      403: FORBIDDEN,
      422: {
        description:
          'A field is missing, of the wrong JSON type, unknown or malformed: customer_id a uuid, amount a whole number of cents from 1 to 2^53 - 1, sender_name 1 to 100 characters, sender_email an email address of at most 254 characters (VALIDATION_FAILED, `errors` names each field). Or payments refuses: CUSTOMER_NOT_FOUND, INVALID_AMOUNT, VALIDATION_FAILED naming sender_email',
      },
    },
    handle: interacIncoming,
  },
];
