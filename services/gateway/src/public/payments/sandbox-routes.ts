import { SandboxCollectionOutcome } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import type { PublicRoute, RouteContext } from '../routes.js';
import { collectionOf } from './collection-render.js';
import { IncomingTransferBody, NoBody } from './collection-requests.js';
import { collectionIdOf } from './collection-routes.js';
import { readBody } from './input.js';
import { int64Of } from './int64.js';
import { jsonSchemaOf } from './json-schema.js';
import { paymentLinksOf } from './render.js';
import { successBody, Transaction } from './response-schemas.js';
import { virtualAccountIdOf } from './virtual-account-routes.js';

/**
 * The sandbox rail's simulations (DESIGN.md "Rails behind one interface"): a transfer arriving in a
 * virtual account, and a payer answering a money request. payments refuses them in production
 * (SANDBOX_ONLY); the gateway answers that as any refusal.
 */

export const incomingTransferBody = successBody('incoming transfer received', Transaction);
export const collectionSettledBody = successBody('collection updated', Transaction);

async function incomingTransfer({ req, res, clients, call }: RouteContext): Promise<void> {
  const virtualAccountId = virtualAccountIdOf(req);
  const body = readBody(IncomingTransferBody, req.body);
  const response = await clients.payments.sandboxIncomingTransfer(
    { virtualAccountId, amount: int64Of(body.amount), senderName: body.sender_name },
    call,
  );
  const collection = collectionOf(response, paymentLinksOf(req));
  res
    .status(201)
    .location(`/api/external/collection/${collection.id}`)
    .json({ message: 'incoming transfer received', data: collection });
}

function settleCollection(outcome: SandboxCollectionOutcome) {
  return async ({ req, res, clients, call }: RouteContext): Promise<void> => {
    const collectionId = collectionIdOf(req);
    readBody(NoBody, req.body);
    const response = await clients.payments.sandboxSettleCollection({ collectionId, outcome }, call);
    res.json({ message: 'collection updated', data: collectionOf(response, paymentLinksOf(req)) });
  };
}

const FORBIDDEN = {
  description:
    'In production: simulations exist only in the sandbox (SANDBOX_ONLY); or the token lacks the scope (SCOPE_MISSING), the business has no API services (API_DISABLED), or the caller’s address is not allowed (IP_NOT_ALLOWED)',
};

const SETTLEMENTS = [
  ['pay', SandboxCollectionOutcome.PAY, 'the payer approves and pays: SUCCESSFUL, or FAILED when their bank refuses'],
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
    requestBody: jsonSchemaOf(IncomingTransferBody, 'input'),
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
    summary: `Sandbox: a pending money request's outcome, ${effect}; the collection webhook follows`,
    requestBody: jsonSchemaOf(NoBody, 'input'),
    responses: {
      200: { description: 'The collection after the outcome', schema: jsonSchemaOf(collectionSettledBody) },
      400: {
        description:
          'The body is not valid JSON (MALFORMED_JSON), or the collection is not a pending money request (COLLECTION_NOT_PENDING, the message names its status)',
      },
      403: FORBIDDEN,
      404: { description: 'Your business has no collection with this id (COLLECTION_NOT_FOUND)' },
      422: { description: 'The body has a field: send no body, or {} (VALIDATION_FAILED)' },
    },
    handle: settleCollection(outcome),
  })),
];
