import type {
  ListenDeliveriesRequest,
  RecordListenAttemptRequest,
  WebhookAttempt,
  WebhookDelivery,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { invalidArgument, notFound, permissionDenied } from '@corridor/grpc';
import { FieldProblems, firstProblemMessage, isUuid } from '@corridor/validation';
import { signWebhook } from '@corridor/webhook-signature';
import type { EntityManager } from '@mikro-orm/core';
import type { NotificationContext } from '../context.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';
import { toAttemptProto, toDeliveryProto } from './delivery-proto.js';
import { DeliveryRepository, LISTEN_ID_BEFORE_ALL, type ListenPosition } from './delivery-repository.js';
import { RESPONSE_BODY_LIMIT } from './send-webhook.js';

/** A listener reads at most this many deliveries a call; a full page tells it to ask again at once. */
export const LISTEN_PAGE_LIMIT = 100;
/** What a listener may say happened, at most: far beyond what a local handler should take. */
const MAX_LISTEN_DURATION_MS = 10 * 60_000;
const ERROR_MESSAGE_LIMIT = 1_000;

export const LISTEN_SANDBOX_ONLY_MESSAGE =
  'corridor listen forwards sandbox webhooks to a developer’s machine; production has none unless notification sets WEBHOOK_LISTEN_IN_PRODUCTION=true';

/**
 * A position as the stream's event id: `<xid>_<uuid>`, opaque to clients (decision 0034). Kept
 * plain text: it travels in an SSE `id:` line and a Last-Event-ID header, both single-line ASCII.
 */
export const formatPosition = ({ xid, id }: ListenPosition) => `${xid}_${id}`;

export function parsePosition(text: string): ListenPosition | undefined {
  const match = /^(\d{1,20})_([0-9a-fA-F-]{36})$/.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  if (match[2] !== LISTEN_ID_BEFORE_ALL && !isUuid(match[2])) return undefined;
  // xid8 is a 64-bit unsigned number.
  if (BigInt(match[1]) > 0xffff_ffff_ffff_ffffn) return undefined;
  return { xid: match[1], id: match[2].toLowerCase() };
}

function refuseOutsideSandbox(context: NotificationContext): void {
  if (context.environment !== 'sandbox' && !context.listenInProduction) {
    throw permissionDenied('SANDBOX_ONLY', LISTEN_SANDBOX_ONLY_MESSAGE);
  }
}

/** The first `limit` bytes of `text` as UTF-8, never cutting a character in two. */
function capBytes(text: string, limit: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return text;
  let end = limit;
  // A continuation byte (10xxxxxx) would start mid-character: back up to the character's start.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

export interface ListenedDelivery {
  delivery: WebhookDelivery;
  position: string;
  headers: Record<string, string>;
}

/**
 * GET /webhook/listen's source (decision 0034): the business's deliveries after the position, oldest
 * first, each signed now as an attempt made now would be. The secret never leaves this service.
 */
export async function listenDeliveries(
  em: EntityManager,
  context: NotificationContext,
  businessId: string,
  request: Pick<ListenDeliveriesRequest, 'afterPosition' | 'limit'>,
): Promise<{ deliveries: ListenedDelivery[]; position: string }> {
  refuseOutsideSandbox(context);
  const repository = new DeliveryRepository(em);
  if (request.afterPosition === '') {
    return { deliveries: [], position: formatPosition(await repository.listenStart()) };
  }
  const after = parsePosition(request.afterPosition);
  if (!after) {
    throw invalidArgument('last_event_id must be an event id this stream sent', {
      last_event_id: ['must be an event id this stream sent'],
    });
  }
  const limit = request.limit === 0 ? LISTEN_PAGE_LIMIT : Math.min(request.limit, LISTEN_PAGE_LIMIT);
  const rows = await repository.listenAfter({ businessId, after, limit });
  if (rows.length === 0) return { deliveries: [], position: request.afterPosition };

  const endpoints = new Map<string, { endpoint: WebhookEndpoint; secret: string[] } | undefined>();
  const registrationOf = async (endpointId: string) => {
    if (!endpoints.has(endpointId)) {
      const endpoint = await em.findOne(WebhookEndpoint, { id: endpointId, businessId });
      endpoints.set(
        endpointId,
        endpoint ? { endpoint, secret: context.secrets.inForce(endpoint, endpoint.id, context.now()) } : undefined,
      );
    }
    return endpoints.get(endpointId);
  };
  const timestamp = Math.floor(context.now().getTime() / 1000);
  const deliveries: ListenedDelivery[] = [];
  for (const { delivery, position } of rows) {
    const registration = await registrationOf(delivery.endpointId);
    // No registration, no secret to sign with: passed over, as the worker could not send it either.
    if (!registration) continue;
    deliveries.push({
      delivery: toDeliveryProto(delivery, registration.endpoint),
      position: formatPosition(position),
      headers: signWebhook({
        secret: registration.secret,
        body: delivery.body,
        timestamp,
        webhookId: delivery.id,
        sequence: delivery.sequence ?? undefined,
      }),
    });
  }
  const last = rows.at(-1);
  return { deliveries, position: last ? formatPosition(last.position) : request.afterPosition };
}

/**
 * POST /webhook/deliveries/{id}/listen-attempts (decision 0034): what the developer's local URL
 * answered, recorded as an attempt `listen`. A 2xx is `succeeded`; another status `failed`
 * (http_status); no status `failed` (connect: the local URL could not be reached or gave no answer).
 */
export async function recordListenAttempt(
  em: EntityManager,
  context: NotificationContext,
  businessId: string,
  request: Pick<
    RecordListenAttemptRequest,
    'deliveryId' | 'statusCode' | 'durationMs' | 'errorMessage' | 'responseBody'
  >,
): Promise<WebhookAttempt> {
  refuseOutsideSandbox(context);
  const noDelivery = notFound('DELIVERY_NOT_FOUND', `webhook delivery ${request.deliveryId} not found`);
  if (!isUuid(request.deliveryId)) throw noDelivery;
  const problems = new FieldProblems();
  const status = request.statusCode;
  if (status !== undefined && (status < 100 || status > 599)) {
    problems.add('status_code', 'must be an HTTP status from 100 to 599');
  }
  if (request.durationMs > MAX_LISTEN_DURATION_MS) {
    problems.add('duration_ms', `must be at most ${MAX_LISTEN_DURATION_MS}`);
  }
  if (status === undefined && request.errorMessage.trim() === '') {
    problems.add('error', 'is required when no status_code came back');
  }
  if (!problems.isEmpty) throw invalidArgument(firstProblemMessage(problems.errors), problems.errors);

  const succeeded = status !== undefined && status >= 200 && status < 300;
  const now = context.now();
  const attempt = await new DeliveryRepository(em).recordListenAttempt({
    businessId,
    deliveryId: request.deliveryId,
    startedAt: new Date(now.getTime() - request.durationMs),
    now,
    result: {
      durationMs: request.durationMs,
      outcome: succeeded ? 'succeeded' : 'failed',
      statusCode: status ?? null,
      errorClass: succeeded ? null : status === undefined ? 'connect' : 'http_status',
      errorMessage: succeeded
        ? null
        : request.errorMessage.trim() !== ''
          ? request.errorMessage.slice(0, ERROR_MESSAGE_LIMIT)
          : `the local URL answered ${status}`,
      responseBody: request.responseBody === '' ? null : capBytes(request.responseBody, RESPONSE_BODY_LIMIT),
    },
  });
  if (!attempt) throw noDelivery;
  return toAttemptProto(attempt);
}
