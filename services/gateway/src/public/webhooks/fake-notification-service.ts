import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  NotificationService,
  WebhookConfigSchema,
  type WebhookConfig,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { startFakeGrpcService } from '../fake-grpc-service.js';

export type { Answer, ReceivedCall } from '../fake-grpc-service.js';

/** notification's answers as the gateway receives them, for the specs of the webhook routes. */

export const BUSINESS_ID = '4b8f3c2e-0000-4000-8000-00000000b001';
export const WEBHOOK_ID = '5d0e6f1a-0000-4000-8000-00000000e001';
export const SIGNING_SECRET = 'whsec_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkYz1';
export const CREATED = new Date('2026-11-21T09:00:00.000Z');
export const UPDATED = new Date('2026-11-21T10:30:00.000Z');

type WebhookOverrides = Partial<Omit<WebhookConfig, '$typeName' | '$unknown'>>;

export function webhookConfig(overrides: WebhookOverrides = {}): WebhookConfig {
  return create(WebhookConfigSchema, {
    id: WEBHOOK_ID,
    businessId: BUSINESS_ID,
    collectionUrl: 'https://platform.example/hooks/collections',
    payoutUrl: 'https://platform.example/hooks/payouts',
    kycUrl: '',
    signingSecret: SIGNING_SECRET,
    signingSecretLast4: SIGNING_SECRET.slice(-4),
    createdAt: timestampFromDate(CREATED),
    updatedAt: timestampFromDate(UPDATED),
    ...overrides,
  });
}

/**
 * notification answering canned messages. By default every method answers the registration with
 * its secret, as a careless service might: GET must still leave it out.
 */
export function startFakeNotificationService() {
  return startFakeGrpcService(NotificationService, () => () => ({ webhook: webhookConfig() }));
}
