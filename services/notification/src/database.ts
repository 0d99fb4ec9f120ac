import type { ServiceDatabaseOptions } from '@corridor/db';
import { WebhookEndpoint } from './webhooks/webhook-endpoint.entity.js';
import { migrations } from './migrations/index.js';

export function notificationDatabase(databaseUrl: string): ServiceDatabaseOptions {
  return { databaseUrl, entities: [WebhookEndpoint], migrations };
}
