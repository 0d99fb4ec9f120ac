import { createTestCertificates, WebhookReceiver, type TestCertificates } from '../../packages/testing/dist/index.js';
import { businessBody, ownerBody } from '../../test/dist/support/customers.js';
import { jwtParts, Platform } from '../../test/dist/support/platform.js';
import type { ReadingCaller } from './ceilings.js';
import type { Target } from './load.js';
import { preparePayments, type PaymentsUnderLoad } from './payments-under-load.js';
import { PAYOUT_BENCH_ENV, preparePayouts, type PayoutsUnderLoad } from './payouts-under-load.js';

/** The gateway, identity and payments, started for the bench, with businesses ready to be called. */
export interface CorridorUnderLoad {
  /** GET /healthz: the gateway with no authentication and nothing behind it. */
  healthzRequest: Target;
  /** GET /api/external/customer/{id}: a FULL business with two owners, through gRPC to customer-kyb. */
  customerReadRequest: Target;
  /** POST /oauth/token with the business's client credentials. */
  tokenRequest: Target;
  /** GET /api/external/whoami with a token of that business. */
  whoamiRequest: Target;
  /** The same, to a second gateway started with OTEL_SDK_DISABLED: what tracing costs. */
  untracedWhoamiRequest: Target;
  /**
   * The same, to a third gateway with tracing on but no span sampled (OTEL_TRACES_SAMPLER=always_off):
   * what the instrumentation costs before a span is recorded, which no sampling ratio removes.
   */
  unsampledWhoamiRequest: Target;
  /** A second business, funded, for the swap and wallet phases. */
  payments: PaymentsUnderLoad;
  /** A third business, funded in NGN, for the payout phases; its webhooks go to `receiver`. */
  payouts: PayoutsUnderLoad;
  /** A token of the first reading business with customer:write, for the platform's day. */
  customerWriter: { url: string; authorization: string };
  /** The platform itself, for the money phases' businesses and its processes and databases. */
  platform: Platform;
  /** The HTTPS receiver on 127.0.0.1 notification may deliver to (WEBHOOK_ALLOW_CIDRS), and its test CA. */
  receiver: WebhookReceiver;
  certificates: TestCertificates;
  /** What the request parts (ceilings.ts) call with: the reading businesses, their cache and database. */
  readingCallers: ReadingCaller[];
  redisKeyPrefix: string;
  customerDatabaseUrl: string;
  /** What identity's grant (ceilings.ts) is called with: its database, its master key, credentials. */
  identityDatabaseUrl: string;
  identitySecretKey: string;
  tokenCredentials: { client_id: string; client_secret: string };
  stop(): Promise<void>;
}

/**
 * Businesses the read phases rotate through: identity allows a business at most 100,000 requests a
 * minute, fewer than a quiet 2-core machine answers whoami in 8 s (about 20,000/s); the whoami,
 * untraced whoami and customer phases fall within one minute of each other.
 */
const READING_BUSINESSES = 8;

interface ReadingBusiness {
  credentials: Awaited<ReturnType<Platform['createCredentials']>>;
  token: string;
  writer: string;
  customerId: string;
  customerPath: string;
}

/** The caller as the gateway reads it from the token's claims (sub, client_id, gen). */
function callerOf(reader: ReadingBusiness): ReadingCaller {
  const claims = jwtParts(reader.token).payload;
  const { sub, client_id: clientId, gen } = claims;
  if (typeof sub !== 'string' || typeof clientId !== 'string' || typeof gen !== 'number') {
    throw new Error(`a reading token without sub, client_id or gen: ${JSON.stringify(claims)}`);
  }
  return { businessId: sub, clientId, generation: gen, customerId: reader.customerId };
}

/** Far above what 2 cores can serve, so the limiters count but never refuse. */
const TOKEN_REQUESTS_PER_MINUTE = 10_000_000;
/** identity's maximum per_minute; per_hour at most 60 times that. */
const BUSINESS_RATE_LIMITS = { per_minute: 100_000, per_hour: 6_000_000 };

async function expectOk(response: Response, what: string): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
}

function accessToken(body: unknown): string {
  if (typeof body === 'object' && body && 'access_token' in body && typeof body.access_token === 'string')
    return body.access_token;
  throw new Error(`POST /oauth/token answered without access_token: ${JSON.stringify(body)}`);
}

/** A FULL business customer with two owners (no files: a read shows them as null either way); its id. */
async function createCustomer(platform: Platform, token: string): Promise<string> {
  const body = businessBody({
    kyb_scope: 'FULL',
    owners: [ownerBody({ ownership_percentage: 60 }), ownerBody({ ownership_percentage: 40 })],
  });
  const created = await expectOk(
    await platform.api('/api/external/customer', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    'creating a customer',
  );
  const id = (created as { data?: { id?: unknown } }).data?.id;
  if (typeof id !== 'string') throw new Error(`POST /customer answered without data.id: ${JSON.stringify(created)}`);
  return id;
}

/** A business with its limits raised, a reading token and a FULL customer with two owners, each tried once. */
async function readingBusiness(platform: Platform, index: number): Promise<ReadingBusiness> {
  const business = await platform.createBusiness(`Bench Platform ${index + 1}`);
  await expectOk(
    await platform.admin(`/admin/businesses/${business.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ rate_limits: BUSINESS_RATE_LIMITS }),
    }),
    'raising the rate limits',
  );
  const credentials = await platform.createCredentials(business.id, { bundles: ['full-access'] });
  const token = accessToken(await expectOk(await platform.requestToken(credentials, 'customer:read'), 'a token'));
  await expectOk(await platform.api('/api/external/whoami', token), 'whoami');
  const writer = accessToken(await expectOk(await platform.requestToken(credentials, 'customer:write'), 'a token'));
  const customerId = await createCustomer(platform, writer);
  const customerPath = `/api/external/customer/${customerId}`;
  await expectOk(await platform.api(customerPath, token), 'a customer read');
  return { credentials, token, writer, customerId, customerPath };
}

function customerDatabaseUrl(platform: Platform): string {
  if (!platform.customerDb) throw new Error('the bench platform runs customer-kyb');
  return platform.customerDb.url;
}

/**
 * Real processes on free ports with a database and topics of their own (test/support's Platform),
 * so the bench never touches what `npm start` runs; `everyService` is added to each one's
 * environment (the profiler's NODE_OPTIONS). Each request is tried once before any load:
 * a phase that measured 401s would be a fast, meaningless figure.
 */
export async function startCorridor(everyService: Record<string, string> = {}): Promise<CorridorUnderLoad> {
  const certificates = await createTestCertificates();
  const receiver = await WebhookReceiver.start({ certificates });
  const platform = new Platform({
    gatewayEnv: {
      ...everyService,
      TOKEN_REQUESTS_PER_MINUTE: String(TOKEN_REQUESTS_PER_MINUTE),
      TOKEN_REQUESTS_PER_MINUTE_PER_ADDRESS: String(TOKEN_REQUESTS_PER_MINUTE),
    },
    identityEnv: everyService,
    customerKybEnv: everyService,
    // Deliveries to the bench's receiver on 127.0.0.1 (decision 0009's test-only settings); the seed's retry ladder.
    notificationEnv: {
      ...everyService,
      WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
      WEBHOOK_EXTRA_CA_FILE: certificates.caFile,
    },
    paymentsEnv: { ...everyService, ...PAYOUT_BENCH_ENV },
  });
  try {
    await platform.start();
    const readers = await Promise.all(
      Array.from({ length: READING_BUSINESSES }, (_, index) => readingBusiness(platform, index)),
    );
    const [first] = readers;
    if (!first) throw new Error('no reading business');
    const untraced = await platform.startGateway({ OTEL_SDK_DISABLED: 'true' });
    await expectOk(await untraced.api('/api/external/whoami', first.token), 'whoami without tracing');
    const unsampled = await platform.startGateway({ OTEL_TRACES_SAMPLER: 'always_off' });
    await expectOk(await unsampled.api('/api/external/whoami', first.token), 'whoami with no span sampled');
    const payments = await preparePayments(platform, BUSINESS_RATE_LIMITS);
    const payouts = await preparePayouts(platform, BUSINESS_RATE_LIMITS, receiver.url('/payouts'));

    const rotation = (path: (reader: ReadingBusiness) => string) =>
      readers.map((reader) => ({ path: path(reader), headers: { authorization: `Bearer ${reader.token}` } }));
    const whoami = rotation(() => '/api/external/whoami');
    return {
      healthzRequest: { url: `${platform.publicUrl}/healthz` },
      customerReadRequest: {
        url: `${platform.publicUrl}${first.customerPath}`,
        rotation: rotation((reader) => reader.customerPath),
      },
      tokenRequest: {
        url: `${platform.publicUrl}/oauth/token`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: first.credentials.client_id,
          client_secret: first.credentials.client_secret,
          scope: 'customer:read',
        }).toString(),
      },
      whoamiRequest: { url: `${platform.publicUrl}/api/external/whoami`, rotation: whoami },
      untracedWhoamiRequest: { url: `${untraced.publicUrl}/api/external/whoami`, rotation: whoami },
      unsampledWhoamiRequest: { url: `${unsampled.publicUrl}/api/external/whoami`, rotation: whoami },
      payments,
      payouts,
      customerWriter: { url: `${platform.publicUrl}/api/external/customer`, authorization: `Bearer ${first.writer}` },
      platform,
      receiver,
      certificates,
      readingCallers: readers.map(callerOf),
      redisKeyPrefix: platform.redisKeyPrefix,
      customerDatabaseUrl: customerDatabaseUrl(platform),
      identityDatabaseUrl: platform.db.url,
      identitySecretKey: platform.identitySecretKey,
      tokenCredentials: first.credentials,
      stop: async () => {
        await Promise.allSettled([platform.stop(), receiver.stop()]);
      },
    };
  } catch (error) {
    await Promise.allSettled([platform.stop(), receiver.stop()]);
    throw error;
  }
}
