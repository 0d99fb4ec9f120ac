import { NotificationService } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import type { MikroORM } from '@corridor/db';
import { permissionDenied, registration, type CallContext } from '@corridor/grpc';
import type { NotificationContext } from './context.js';
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
  });
}
