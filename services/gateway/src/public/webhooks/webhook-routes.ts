import { readBody, requiredJsonObject } from '../../http/input.js';
import { pathParam } from '../../http/path-params.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { overlapEndedWebhookJson, present, rotatedWebhookJson, webhookJson, webhookWithSecretJson } from './render.js';
import { recordSecretChange } from './secret-audit.js';
import {
  overlapEndedWebhookBody,
  registerWebhookBody,
  rotateSigningSecretBody,
  rotatedWebhookBody,
  updateWebhookBody,
  webhookBody,
  webhookWithSecretBody,
} from './schemas.js';
import {
  RegisterWebhookBody,
  registerWebhookRequest,
  RotateSigningSecretBody,
  UpdateWebhookBody,
  updateWebhookRequest,
} from './webhook-requests.js';

/** The business's one webhook registration: register, change, read (seed 2.4, 4.3; decision 0009). */

async function registerWebhook({ req, res, clients, call }: RouteContext): Promise<void> {
  // No body at all is 422, never {} (issue 18); then its shape (decision 0026).
  const body = readBody(RegisterWebhookBody, requiredJsonObject(req.body));
  const response = await clients.notification.registerWebhook(registerWebhookRequest(body), call);
  res.status(201).json({ message: 'webhook registered', data: webhookWithSecretJson(response) });
}

async function updateWebhook({ req, res, clients, call }: RouteContext): Promise<void> {
  // No body at all is 422: read as {}, a change of nothing would answer 200 (issue 18).
  const body = readBody(UpdateWebhookBody, requiredJsonObject(req.body));
  const response = await clients.notification.updateWebhook(updateWebhookRequest(pathParam(req, 'id'), body), call);
  res.json({ message: 'webhook updated', data: webhookWithSecretJson(response) });
}

/** Who changed the secret, in the audit entry's words. */
const byClient = ({ auth }: RouteContext) => `through the API (client ${auth.caller.clientId})`;

async function rotateSigningSecret(context: RouteContext): Promise<void> {
  const { req, res, clients, call, auth } = context;
  // No body is {}: the default overlap.
  const body = readBody(RotateSigningSecretBody, req.body);
  const response = await clients.notification.rotateWebhookSecret(
    { webhookId: pathParam(req, 'id'), overlapSeconds: body.overlap_seconds },
    call,
  );
  const data = rotatedWebhookJson(response);
  await recordSecretChange(
    context,
    auth.caller.businessId,
    'webhook.secret_rotated',
    present(response.webhook, 'webhook'),
    byClient(context),
  );
  res.json({ message: 'signing secret rotated', data });
}

async function endSecretOverlap(context: RouteContext): Promise<void> {
  const { req, res, clients, call, auth } = context;
  const response = await clients.notification.endWebhookSecretOverlap({ webhookId: pathParam(req, 'id') }, call);
  const data = overlapEndedWebhookJson(response);
  await recordSecretChange(
    context,
    auth.caller.businessId,
    'webhook.secret_overlap_ended',
    present(response.webhook, 'webhook'),
    byClient(context),
  );
  res.json({ message: 'previous signing secret retired', data });
}

async function getWebhook({ res, clients, call }: RouteContext): Promise<void> {
  const response = await clients.notification.getWebhook({}, call);
  res.json({ message: 'webhook retrieved', data: webhookJson(response) });
}

const invalidUrls =
  'A URL is missing, not an absolute https:// URL, longer than 2048 characters, carries credentials, does not resolve, or resolves to an address that is not public (private, loopback, link-local and the like; the message names the field, the host and the address), or the body has an unknown property; `errors` lists every problem';

export const WEBHOOK_ROUTES: readonly PublicRoute[] = [
  {
    method: 'post',
    path: '/api/external/webhook',
    scope: 'webhook:write',
    operationId: 'registerWebhook',
    summary: 'Register the business’s webhook URLs; the answer carries the signing secret',
    requestBody: registerWebhookBody,
    responses: {
      201: {
        description: 'The registration, with its new signing secret',
        schema: webhookWithSecretBody('webhook registered'),
      },
      409: {
        description:
          'The business already has a registration (WEBHOOK_ALREADY_REGISTERED; the message names its id): change it with PUT /api/external/webhook/{id}',
      },
      422: { description: invalidUrls },
    },
    handle: registerWebhook,
  },
  {
    method: 'put',
    path: '/api/external/webhook/{id}',
    scope: 'webhook:write',
    operationId: 'updateWebhook',
    summary:
      'Change the webhook URLs: an omitted URL is unchanged, kyc_url null removes it; the signing secret stays the same',
    requestBody: updateWebhookBody,
    responses: {
      200: {
        description: 'The registration after the change, with its signing secret',
        schema: webhookWithSecretBody('webhook updated'),
      },
      404: { description: 'This business has no registration with this id (WEBHOOK_NOT_FOUND)' },
      422: { description: `${invalidUrls}; or collection_url or payout_url sent as null` },
    },
    handle: updateWebhook,
  },
  {
    method: 'post',
    path: '/api/external/webhook/{id}/signing-secret/rotate',
    scope: 'webhook:write',
    operationId: 'rotateWebhookSecret',
    summary:
      'Rotate the signing secret: the answer shows the new one once; the replaced one keeps signing beside it for overlap_seconds (24 h unless sent), so receivers switch without losing a delivery',
    requestBody: rotateSigningSecretBody,
    requestBodyRequired: false,
    responses: {
      200: {
        description: 'The registration with its new signing secret and the overlap of the replaced one',
        schema: rotatedWebhookBody('signing secret rotated'),
      },
      404: { description: 'This business has no registration with this id (WEBHOOK_NOT_FOUND)' },
      422: {
        description: 'overlap_seconds is not a whole number from 0 to 604800, or the body has an unknown property',
      },
    },
    handle: rotateSigningSecret,
  },
  {
    method: 'delete',
    path: '/api/external/webhook/{id}/signing-secret/previous',
    scope: 'webhook:write',
    operationId: 'endWebhookSecretOverlap',
    summary: 'End a rotation’s overlap now: from the next attempt on, only the current signing secret signs',
    responses: {
      200: {
        description: 'The registration, without its signing secret, with no overlap open',
        schema: overlapEndedWebhookBody('previous signing secret retired'),
      },
      404: { description: 'This business has no registration with this id (WEBHOOK_NOT_FOUND)' },
    },
    handle: endSecretOverlap,
  },
  {
    method: 'get',
    path: '/api/external/webhook',
    scope: 'webhook:read',
    operationId: 'getWebhook',
    summary: 'Read the business’s webhook registration; the signing secret shows only its last four characters',
    responses: {
      200: { description: 'The registration, without its signing secret', schema: webhookBody('webhook retrieved') },
      404: {
        description: 'The business has not registered webhook URLs yet (WEBHOOK_NOT_FOUND): POST /api/external/webhook',
      },
    },
    handle: getWebhook,
  },
];
