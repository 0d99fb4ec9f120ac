import { NotificationService } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import type { MikroORM } from '@corridor/db';
import { permissionDenied, registration, type CallContext } from '@corridor/grpc';
import type { NotificationContext } from './context.js';
import {
  getDelivery,
  listDeliveries,
  replayDelivery,
  replayFailedDeliveries,
  triggerMockWebhook,
} from './deliveries/delivery-api.js';
import { getWebhook } from './webhooks/get-webhook.js';
import { registerWebhook } from './webhooks/register-webhook.js';
import { updateWebhook } from './webhooks/update-webhook.js';

/** The platform's business, named by the gateway in metadata; without one nothing is served. */
function businessOf({ caller }: CallContext): string {
  if (!caller.businessId) throw permissionDenied('NO_BUSINESS', 'the call names no business');
  return caller.businessId;
}

/** The gRPC edge of notification: thin, one fork of the entity manager per call. */
export function notificationServiceRegistration({ orm, context }: { orm: MikroORM; context: NotificationContext }) {
  const em = () => orm.em.fork();
  return registration(NotificationService, {
    async registerWebhook(request, call) {
      return { webhook: await registerWebhook(em(), context, businessOf(call), request.body ?? {}) };
    },
    async updateWebhook(request, call) {
      const input = { webhookId: request.webhookId, body: request.body ?? {} };
      return { webhook: await updateWebhook(em(), context, businessOf(call), input) };
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
    async replayDelivery(request, call) {
      return replayDelivery(em(), context, businessOf(call), request.deliveryId);
    },
    async replayFailedDeliveries(request, call) {
      return { queued: await replayFailedDeliveries(em(), context, businessOf(call), request.body ?? {}) };
    },
    async triggerMockWebhook(request, call) {
      return triggerMockWebhook(em(), context, businessOf(call), request.body ?? {});
    },
  });
}
