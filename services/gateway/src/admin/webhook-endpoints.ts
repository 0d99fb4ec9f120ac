import { readBody } from '../http/input.js';
import { ref } from '../http/json-schema.js';
import { pathParam } from '../http/path-params.js';
import type { AdminRoute, AdminRouteContext } from '../floor/route-context.js';
import { enableUrl, enableUrlBody, EnableUrlBody } from '../public/webhooks/endpoint-routes.js';
import { forBusiness } from './webhook-secrets.js';

/** The back office's enabling of a business's disabled webhook URL (decision 0068): the public call, audited as its own. */
async function enableWebhookUrl(context: AdminRouteContext): Promise<void> {
  const { req, res } = context;
  const body = readBody(EnableUrlBody, req.body);
  const { businessId, call, webhookId } = await forBusiness(context);
  const data = await enableUrl(
    { ...context, call },
    businessId,
    { webhookId, kind: pathParam(req, 'kind'), body },
    'by the back office',
  );
  res.json(data);
}

export const WEBHOOK_ENDPOINT_ROUTES: readonly AdminRoute[] = [
  {
    method: 'post',
    path: '/admin/businesses/{id}/webhook/endpoint/{kind}/enable',
    operationId: 'enableBusinessWebhookUrl',
    summary:
      'Enable a business’s disabled webhook URL: attempts resume, and with replay (the default) every delivery held while it was disabled is queued in sequence order',
    requestBody: enableUrlBody,
    requestBodyRequired: false,
    responses: {
      200: {
        description: 'How many held deliveries were queued, and the registration with each URL’s health',
        schema: { $ref: ref('schemas', 'EnabledWebhookUrl').$ref },
      },
      404: {
        description:
          'No business with this id (BUSINESS_NOT_FOUND), or it has no webhook registration (WEBHOOK_NOT_FOUND)',
      },
      422: { description: 'kind is not collection_url, payout_url or kyc_url, or replay is not a boolean' },
      503: { description: 'The service that keeps endpoint health is being upgraded: retry shortly' },
    },
    handle: enableWebhookUrl,
  },
];
