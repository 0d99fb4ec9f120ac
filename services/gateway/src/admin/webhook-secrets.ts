import { callerMetadata, readCaller } from '@corridor/grpc';
import { readBody } from '../http/input.js';
import { ref, type JsonSchema } from '../http/json-schema.js';
import type { AdminRoute, AdminRouteContext } from '../floor/route-context.js';
import { overlapEndedWebhookJson, present, rotatedWebhookJson } from '../public/webhooks/render.js';
import { rotateSigningSecretBody } from '../public/webhooks/schemas.js';
import { recordSecretChange } from '../public/webhooks/secret-audit.js';
import { RotateSigningSecretBody } from '../public/webhooks/webhook-requests.js';
import { noStore } from './credentials.js';
import { businessIdOfPath } from './path-ids.js';

/**
 * The back office's signing-secret rotation of a business's webhook registration (decision 0065):
 * the same calls as the public routes, for the business the path names, audited as the back office's.
 */

const PATH = '/admin/businesses/{id}/webhook/signing-secret';
const BY_BACK_OFFICE = 'by the back office';

const schema = (name: string): JsonSchema => ({ $ref: ref('schemas', name).$ref });

/** The back office's call, on behalf of the business the path names (notification serves one business a call). */
export async function forBusiness(context: AdminRouteContext) {
  const businessId = businessIdOfPath(context.req);
  const asked = context.call.metadata ? readCaller(context.call.metadata) : {};
  const metadata = callerMetadata({ ...asked, businessId });
  const call = { ...context.call, metadata };
  const { webhook } = await context.clients.notification.getWebhook({}, call);
  return { businessId, call, webhookId: present(webhook, 'webhook').id };
}

async function rotateSigningSecret(context: AdminRouteContext): Promise<void> {
  const { req, res, clients } = context;
  const body = readBody(RotateSigningSecretBody, req.body);
  const { businessId, call, webhookId } = await forBusiness(context);
  const response = await clients.notification.rotateWebhookSecret(
    { webhookId, overlapSeconds: body.overlap_seconds },
    call,
  );
  const data = rotatedWebhookJson(response);
  const webhook = present(response.webhook, 'webhook');
  await recordSecretChange({ ...context, call }, businessId, 'webhook.secret_rotated', webhook, BY_BACK_OFFICE);
  res.setHeader('Cache-Control', 'no-store').json(data);
}

async function endSecretOverlap(context: AdminRouteContext): Promise<void> {
  const { res, clients } = context;
  const { businessId, call, webhookId } = await forBusiness(context);
  const response = await clients.notification.endWebhookSecretOverlap({ webhookId }, call);
  const data = overlapEndedWebhookJson(response);
  const webhook = present(response.webhook, 'webhook');
  await recordSecretChange({ ...context, call }, businessId, 'webhook.secret_overlap_ended', webhook, BY_BACK_OFFICE);
  res.json(data);
}

const NO_REGISTRATION = {
  description: 'No business with this id (BUSINESS_NOT_FOUND), or it has no webhook registration (WEBHOOK_NOT_FOUND)',
};

export const WEBHOOK_SECRET_ROUTES: readonly AdminRoute[] = [
  {
    method: 'post',
    path: `${PATH}/rotate`,
    operationId: 'rotateBusinessWebhookSecret',
    summary:
      'Rotate a business’s webhook signing secret: the new one is answered once; the replaced one keeps signing beside it for overlap_seconds (24 h unless sent)',
    requestBody: rotateSigningSecretBody,
    requestBodyRequired: false,
    responses: {
      200: {
        description: 'The registration with its new signing secret and the overlap',
        schema: schema('RotatedWebhook'),
        headers: noStore,
      },
      404: NO_REGISTRATION,
      422: { description: 'overlap_seconds is not a whole number from 0 to 604800' },
    },
    handle: rotateSigningSecret,
  },
  {
    method: 'delete',
    path: `${PATH}/previous`,
    operationId: 'retireBusinessWebhookPreviousSecret',
    summary: 'End a business’s rotation overlap now: only the current signing secret signs',
    responses: {
      200: {
        description: 'The registration, without its secret, with no overlap open',
        schema: schema('WebhookOverlapEnded'),
      },
      404: NO_REGISTRATION,
    },
    handle: endSecretOverlap,
  },
];
