import { DESTINATIONS } from '@corridor/grpc/notification-words';
import { z } from '@corridor/config';
import { typeProblem } from '../../floor/fields.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { servedYet } from '../../floor/served-yet.js';
import { HttpError } from '../../http/errors.js';
import { readBody } from '../../http/input.js';
import { ref, type JsonSchema } from '../../http/json-schema.js';
import { pathParam } from '../../http/path-params.js';
import type { Clients } from '../../clients.js';
import type { CallSettings } from '@corridor/grpc';
import { present, webhookJson } from './render.js';
import { recordWebhookChange } from './secret-audit.js';

/** Endpoint health (decision 0068): enabling a disabled URL, with or without its backlog. */

export const EnableUrlBody = z.strictObject({
  replay: z.boolean({ error: typeProblem('true or false') }).optional(),
});

/** `{kind}` of the path: one of the registration's URL fields, else 422 naming it (seed part 7). */
export function urlKindOf(value: string) {
  if ((DESTINATIONS.words as readonly string[]).includes(value)) return DESTINATIONS.toProto(value);
  throw new HttpError(422, 'VALIDATION_FAILED', `kind must be one of ${DESTINATIONS.words.join(', ')}`, {
    kind: [`must be one of ${DESTINATIONS.words.join(', ')}, got ${JSON.stringify(value)}`],
  });
}

/**
 * The call, answered as the route's JSON and audited. A notification released before 0068 serves no
 * EnableWebhookUrl: 503, this route only, until it is upgraded (the skew rule).
 */
export async function enableUrl(
  context: { clients: Clients; logger: RouteContext['logger']; call: CallSettings },
  businessId: string,
  request: { webhookId: string; kind: string; body: z.output<typeof EnableUrlBody> },
  by: string,
) {
  const urlKind = urlKindOf(request.kind);
  const replay = request.body.replay ?? true;
  const response = await servedYet(
    context.clients.notification.enableWebhookUrl({ webhookId: request.webhookId, urlKind, replay }, context.call),
    'endpoint health',
  );
  const webhook = present(response.webhook, 'webhook');
  await recordWebhookChange(context, businessId, {
    action: 'webhook.url_enabled',
    target: webhook.id,
    details: `${request.kind} enabled ${by}: ${replay ? `${response.queued} held deliveries queued` : 'held deliveries ended, not replayed'}`,
  });
  return { queued: response.queued, webhook: webhookJson(response) };
}

async function enableWebhookUrl(context: RouteContext): Promise<void> {
  const { req, res, auth } = context;
  const body = readBody(EnableUrlBody, req.body);
  const data = await enableUrl(
    context,
    auth.caller.businessId,
    { webhookId: pathParam(req, 'id'), kind: pathParam(req, 'kind'), body },
    `through the API (client ${auth.caller.clientId})`,
  );
  res.json({ message: 'webhook url enabled', data });
}

export const enableUrlBody: JsonSchema = {
  type: 'object',
  description:
    'Optional. replay (true when omitted) queues every delivery held while the URL was disabled, in sequence order, each with its original event id, delivery id and exact body, so a receiver deduplicates (decision 0068); false ends them failed, never attempted (POST /webhook/deliveries/replay can send them later).',
  additionalProperties: false,
  properties: {
    replay: { type: 'boolean', default: true, description: 'queue the backlog held while disabled' },
  },
  examples: [{ replay: true }],
};

const enabledUrl: JsonSchema = {
  type: 'object',
  description: 'What enabling queued, and the registration with each URL’s health',
  required: ['queued', 'webhook'],
  additionalProperties: false,
  properties: {
    queued: { type: 'integer', minimum: 0, description: 'held deliveries queued, sent from now in sequence order' },
    webhook: { $ref: ref('schemas', 'Webhook').$ref },
  },
};

/** components.schemas of the route. */
export const endpointSchemaComponents: Record<string, JsonSchema> = { EnabledWebhookUrl: enabledUrl };

/** A working call, as the README's examples make it. */
const CURL =
  ' For example: `curl -sS --fail-with-body -X POST "$BASE/api/external/webhook/$WEBHOOK_ID/endpoint/collection_url/enable" -H "Authorization: Bearer $TOKEN" -H "content-type: application/json" -d \'{"replay":true}\'` answers `{"message":"webhook url enabled","data":{"queued":…,"webhook":{…}}}`.';

export const ENDPOINT_ROUTES: readonly PublicRoute[] = [
  {
    method: 'post',
    path: '/api/external/webhook/{id}/endpoint/{kind}/enable',
    scope: 'webhook:write',
    operationId: 'enableWebhookUrl',
    summary:
      'Enable a disabled webhook URL (decision 0068): attempts resume, and with replay (the default) every delivery held while it was disabled is queued in sequence order',
    requestBody: enableUrlBody,
    requestBodyRequired: false,
    responses: {
      200: {
        description: `How many held deliveries were queued, and the registration with each URL’s health.${CURL}`,
        schema: {
          type: 'object',
          required: ['message', 'data'],
          additionalProperties: false,
          properties: {
            message: { type: 'string', const: 'webhook url enabled' },
            data: { $ref: ref('schemas', 'EnabledWebhookUrl').$ref },
          },
        },
      },
      404: { description: 'This business has no registration with this id (WEBHOOK_NOT_FOUND)' },
      422: {
        description:
          'kind is not collection_url, payout_url or kyc_url, or replay is not a boolean, or the body has an unknown property',
      },
      503: { description: 'The service that keeps endpoint health is being upgraded: retry shortly' },
    },
    handle: enableWebhookUrl,
  },
];
