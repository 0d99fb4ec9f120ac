import { create } from '@bufbuild/protobuf';
import {
  EnableWebhookUrlResponseSchema,
  NotificationService,
  RecordListenAttemptResponseSchema,
  RegisterWebhookResponseSchema,
  RotateWebhookSecretResponseSchema,
  ReplayDeliveryResponseSchema,
  ReplayFailedDeliveriesResponseSchema,
  TriggerMockWebhookResponseSchema,
  type WebhookConfig,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import type { EntityManager, MikroORM } from '@corridor/db';
import { invalidArgument, permissionDenied, registration, type CallContext } from '@corridor/grpc';
import { WebhookDestination } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { DESTINATION_WORDS } from './deliveries/delivery-proto.js';
import { runIdempotent, runIdempotentOutsideTransaction } from '@corridor/idempotency';
import type { NotificationContext } from './context.js';
import type { UrlKind } from './health/url-health.js';
import {
  getDelivery,
  listDeliveries,
  replayDelivery,
  replayFailedDeliveries,
  triggerMockWebhook,
} from './deliveries/delivery-api.js';
import { listenDeliveries, recordListenAttempt } from './deliveries/listen-api.js';
import { getEvent, listEvents } from './history/history-api.js';
import { getWebhook } from './webhooks/get-webhook.js';
import { registerWebhook } from './webhooks/register-webhook.js';
import { endSecretOverlap, rotateSigningSecret } from './webhooks/rotate-signing-secret.js';
import { enableWebhookUrl } from './webhooks/enable-webhook-url.js';
import { updateWebhook } from './webhooks/update-webhook.js';
import { WebhookEndpoint } from './webhooks/webhook-endpoint.entity.js';

/**
 * How long an Idempotency-Key claimed for an attempt (replay, mock) is held without an answer
 * before a retry may take it: far longer than an attempt (WEBHOOK_TIMEOUT_MS, 30 s by default).
 */
const ATTEMPT_CLAIM_TTL_MS = 5 * 60_000;

/** The platform's business, named by the gateway in metadata; without one nothing is served. */
function businessOf({ caller }: CallContext): string {
  if (!caller.businessId) throw permissionDenied('NO_BUSINESS', 'the call names no business');
  return caller.businessId;
}

/** The registration's signing secret, unsealed as PUT /webhook/{id} shows it; '' if it is gone. */
async function signingSecretOf(em: EntityManager, context: NotificationContext, businessId: string, id: string) {
  const endpoint = await em.findOne(WebhookEndpoint, { id, businessId });
  return endpoint ? context.secrets.unseal(endpoint.signingSecretSealed, endpoint.id) : '';
}

/**
 * The gRPC edge of notification: thin, one fork of the entity manager per call. Every public POST
 * claims its Idempotency-Key (DESIGN.md) in notification's database.
 */
export function notificationServiceRegistration({ orm, context }: { orm: MikroORM; context: NotificationContext }) {
  const em = () => orm.em.fork();

  /**
   * An idempotent call whose answer shows the signing secret it made. The stored answer leaves the
   * secret out: it is kept sealed only (decision 0009). A replay shows the registration's current
   * secret from its sealed copy, as the first answer did.
   */
  async function answerShowingSecret(
    call: CallContext,
    route: string,
    schema: typeof RegisterWebhookResponseSchema | typeof RotateWebhookSecretResponseSchema,
    effect: (tx: EntityManager) => Promise<WebhookConfig>,
  ): Promise<{ webhook?: WebhookConfig }> {
    let secret: string | undefined;
    const stored: { webhook?: WebhookConfig } = await runIdempotent(em(), call, route, schema, async (tx) => {
      const webhook = await effect(tx);
      secret = webhook.signingSecret;
      return create(schema, { webhook: { ...webhook, signingSecret: '' } });
    });
    const { webhook } = stored;
    if (!webhook) return stored;
    secret ??= await signingSecretOf(em(), context, businessOf(call), webhook.id);
    return { webhook: { ...webhook, signingSecret: secret } };
  }

  return registration(NotificationService, {
    async registerWebhook(request, call) {
      return answerShowingSecret(call, 'RegisterWebhook', RegisterWebhookResponseSchema, (tx) =>
        registerWebhook(tx, context, businessOf(call), request),
      );
    },
    async updateWebhook(request, call) {
      return { webhook: await updateWebhook(em(), context, businessOf(call), request) };
    },
    async rotateWebhookSecret(request, call) {
      return answerShowingSecret(call, 'RotateWebhookSecret', RotateWebhookSecretResponseSchema, (tx) =>
        rotateSigningSecret(tx, context, businessOf(call), request),
      );
    },
    async endWebhookSecretOverlap(request, call) {
      return { webhook: await endSecretOverlap(em(), context, businessOf(call), request.webhookId) };
    },
    // An Idempotency-Key replay answers as the first call did (how many it queued).
    async enableWebhookUrl(request, call) {
      if (request.urlKind === WebhookDestination.UNSPECIFIED) {
        throw invalidArgument('kind is required: collection_url, payout_url or kyc_url', {
          kind: ['must be one of collection_url, payout_url, kyc_url'],
        });
      }
      // The worker is woken once the queue is committed, or it would look before it is there.
      let queuedAny = false;
      const queue = { ...context, wakeWorker: () => void (queuedAny = true) };
      const answer = await runIdempotent(em(), call, 'EnableWebhookUrl', EnableWebhookUrlResponseSchema, async (tx) => {
        const { webhook, queued } = await enableWebhookUrl(tx, queue, businessOf(call), {
          webhookId: request.webhookId,
          urlKind: DESTINATION_WORDS.toWord(request.urlKind, 'url kind') as UrlKind,
          ...(request.replay === undefined ? {} : { replay: request.replay }),
        });
        return create(EnableWebhookUrlResponseSchema, { webhook, queued });
      });
      if (queuedAny) context.wakeWorker?.();
      return answer;
    },
    async getWebhook(_request, call) {
      return { webhook: await getWebhook(em(), businessOf(call)) };
    },
    async listDeliveries(request, call) {
      return listDeliveries(em(), businessOf(call), request);
    },
    async getDelivery(request, call) {
      return { delivery: await getDelivery(em(), businessOf(call), request.deliveryId) };
    },
    async listEvents(request, call) {
      return listEvents(em(), businessOf(call), request);
    },
    async getEvent(request, call) {
      return { event: await getEvent(em(), businessOf(call), request) };
    },
    // An attempt waits on the platform's receiver for up to 30 s: it runs outside the key's
    // transaction (which would hold a pooled connection that long), the key claimed before it.
    async replayDelivery(request, call) {
      const attempt = async () =>
        create(ReplayDeliveryResponseSchema, await replayDelivery(em(), context, businessOf(call), request.deliveryId));
      return runIdempotentOutsideTransaction(em(), call, 'ReplayDelivery', ReplayDeliveryResponseSchema, attempt, {
        claimTtlMs: ATTEMPT_CLAIM_TTL_MS,
      });
    },
    async replayFailedDeliveries(request, call) {
      // The worker is woken once the replays are committed, or it would look before they are there.
      let queuedAny = false;
      const queue = { ...context, wakeWorker: () => void (queuedAny = true) };
      const answer = await runIdempotent(
        em(),
        call,
        'ReplayFailedDeliveries',
        ReplayFailedDeliveriesResponseSchema,
        async (tx) =>
          create(ReplayFailedDeliveriesResponseSchema, {
            queued: await replayFailedDeliveries(tx, queue, businessOf(call), request),
          }),
      );
      if (queuedAny) context.wakeWorker?.();
      return answer;
    },
    async triggerMockWebhook(request, call) {
      const attempt = async () =>
        create(TriggerMockWebhookResponseSchema, await triggerMockWebhook(em(), context, businessOf(call), request));
      return runIdempotentOutsideTransaction(
        em(),
        call,
        'TriggerMockWebhook',
        TriggerMockWebhookResponseSchema,
        attempt,
        {
          claimTtlMs: ATTEMPT_CLAIM_TTL_MS,
        },
      );
    },
    async listenDeliveries(request, call) {
      return listenDeliveries(em(), context, businessOf(call), request);
    },
    // A listener that lost the answer reports again under the same Idempotency-Key: one attempt.
    async recordListenAttempt(request, call) {
      return runIdempotent(em(), call, 'RecordListenAttempt', RecordListenAttemptResponseSchema, async (tx) =>
        create(RecordListenAttemptResponseSchema, {
          attempt: await recordListenAttempt(tx, context, businessOf(call), request),
        }),
      );
    },
  });
}
