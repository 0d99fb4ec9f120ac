import {
  createTestDatabase,
  freePort,
  logged,
  startService,
  type ServiceProcess,
  type TestDatabase,
} from '../../packages/testing/dist/index.js';
import { jsonOf } from '../../test/dist/support/customers.js';
import type { GatewayProcess, Platform } from '../../test/dist/support/platform.js';
import type { WebhookJson } from '../../test/dist/support/webhooks.js';

const SCOPES = ['customer:read', 'webhook:read', 'webhook:write'];

/**
 * The registration's URLs: loopback, where nothing listens on 443. No delivery falls due during the
 * run (the seeded pending ones wait 30 days), and one that did would fail there, not leave the machine.
 */
const LOOPBACK_URLS = {
  collection_url: 'https://127.0.0.1/hooks/collection',
  payout_url: 'https://127.0.0.1/hooks/payout',
};

/** notification's environment that lets LOOPBACK_URLS be registered (test-only, as the Platform's receivers). */
export const LOOPBACK_WEBHOOKS_ENV = { WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32' };

/** A business of the platform with a token for the list routes and a webhook registration. */
export interface Tenant {
  businessId: string;
  token: string;
  /** Its registration's id: the deliveries' endpoint_id. */
  endpointId: string;
}

/** A business with raised limits and a token (WebhookApi.caller), and a registration made through POST /webhook. */
export async function createTenant(platform: Platform): Promise<Tenant> {
  const { businessId, token } = await platform.webhooks.caller(SCOPES);
  const registered = await jsonOf<{ data: WebhookJson }>(
    await platform.webhooks.call(token, 'POST', '/webhook', LOOPBACK_URLS),
    201,
    'register webhook',
  );
  return { businessId, token, endpointId: registered.data.id };
}

/**
 * The admin review queue lists every business's customers, so "small" needs a platform of its own:
 * a second customer-kyb on a database of its own, behind a second gateway of the same platform.
 * Each resource is handed to `track` the moment it exists, so a failure part-way leaves nothing unstopped.
 */
export async function startSmallCustomerPlatform(
  platform: Platform,
  track: (resource: { db?: TestDatabase; customerKyb?: ServiceProcess }) => void,
): Promise<{ db: TestDatabase; gateway: GatewayProcess }> {
  const db = await createTestDatabase('bench_small_kyb');
  track({ db });
  const address = `127.0.0.1:${await freePort()}`;
  const env = platform.customerKybEnv({ CUSTOMER_GRPC_ADDRESS: address, DATABASE_URL: db.url });
  const migrate = await startService({ service: 'customer-kyb', script: 'dist/migrate.js', args: ['up'], env });
  if ((await migrate.exited) !== 0) throw new Error(`customer-kyb migrations failed:\n${migrate.output()}`);
  const customerKyb = await startService({ service: 'customer-kyb', env, ready: logged('customer-kyb listening') });
  track({ customerKyb });
  // Stopped with the platform.
  const gateway = await platform.startGateway({ CUSTOMER_GRPC_ADDRESS: address });
  return { db, gateway };
}
