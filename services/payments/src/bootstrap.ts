import { deadLetterServiceRegistration, EventConsumer } from '@corridor/bus';
import { topicName } from '@corridor/contracts/events';
import { CustomerService } from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { createClient } from '@corridor/grpc';
import { pruneIdempotencyKeys, IDEMPOTENCY_KEY_RETENTION_MS } from '@corridor/idempotency';
import { startService } from '@corridor/runtime';
import { BusinessClock } from '@corridor/sandbox-clock';
import type { Telemetry } from '@corridor/telemetry';
import { expireDueCollections } from './collections/collect.js';
import { SandboxCollectionRail } from './collections/collection-rail.js';
import { confirmDueDeposits } from './collections/crypto.js';
import { decideDueRefunds } from './refunds/refunds.js';
import { loadPaymentsConfig } from './config.js';
import type { PaymentsContext } from './context.js';
import { customerEventConsumer } from './customers/customer-event-consumer.js';
import { customerKybSource } from './customers/customer-source.js';
import { paymentsDatabase } from './database.js';
import { LedgerAccounts } from './ledger/index.js';
import { paymentsServiceRegistrations } from './payments.grpc.js';
import { PayoutWorker } from './payouts/payout-worker.js';
import { SandboxRail } from './payouts/sandbox-rail.js';
import { pruneQuotes } from './reference/rates.js';

/** Retention sweeps run this often; each deletes a bounded batch. */
const PRUNE_INTERVAL_MS = 60_000;

export async function bootstrap({ telemetry }: { telemetry: Telemetry }): Promise<void> {
  const config = loadPaymentsConfig();
  const service = await startService({
    name: 'payments',
    log: { level: config.LOG_LEVEL },
    database: paymentsDatabase(config.DATABASE_URL),
    kafkaBrokers: config.KAFKA_BROKERS,
    outbox: {
      enabled: config.OUTBOX_RELAY_ENABLED,
      pollIntervalMs: config.OUTBOX_POLL_INTERVAL_MS,
      retentionMs: config.OUTBOX_RETENTION_MS,
    },
    eventConsumer: { processedEventRetentionMs: config.PROCESSED_EVENT_RETENTION_MS },
    telemetry,
  });
  const { orm, clock } = service;
  const identity = createClient(IdentityService, {
    address: config.IDENTITY_GRPC_ADDRESS,
    defaultTimeoutMs: config.GRPC_TIMEOUT_MS,
  });
  service.onStop('identity client', () => identity.close(), 'after-server');
  // Read-your-writes (decision 0033): asked when the customer projection cannot vouch for a customer.
  // Half the deadline: the request it serves has GRPC_TIMEOUT_MS in all, and customer-kyb not answering
  // in time is told as 503 (retry), not as the caller's own 504.
  const customerKyb = createClient(CustomerService, {
    address: config.CUSTOMER_GRPC_ADDRESS,
    defaultTimeoutMs: Math.max(100, Math.floor(config.GRPC_TIMEOUT_MS / 2)),
  });
  service.onStop('customer-kyb client', () => customerKyb.close(), 'after-server');

  const context: PaymentsContext = {
    environment: config.CORRIDOR_ENVIRONMENT,
    topic: topicName(config.KAFKA_TOPIC_PREFIX, 'payments'),
    now: clock,
    clock: new BusinessClock(clock, config.CORRIDOR_ENVIRONMENT),
    accounts: new LedgerAccounts(() => orm.em.fork(), config.LEDGER_SYSTEM_SHARDS),
    quoteTtlMs: config.QUOTE_TTL_SECONDS * 1000,
    defaultSpreadBps: config.DEFAULT_SPREAD_BPS,
    identity,
    customers: customerKybSource(customerKyb, { environment: config.CORRIDOR_ENVIRONMENT, logger: service.logger }),
    collectionRail: new SandboxCollectionRail({
      settleMs: config.SANDBOX_RAIL_SETTLE_MS,
      delayMs: config.SANDBOX_RAIL_DELAY_MS,
    }),
    collectionExpiryMs: config.COLLECTION_EXPIRY_MS,
    cryptoBlockMs: config.SANDBOX_CRYPTO_BLOCK_MS,
  };
  // Keys are kept 24 h (decision 0012), then deleted in bounded batches.
  service.every('idempotency key retention', PRUNE_INTERVAL_MS, async () => {
    await pruneIdempotencyKeys(orm.em.fork(), clock(), IDEMPOTENCY_KEY_RETENTION_MS);
  });
  service.every('rate quote retention', PRUNE_INTERVAL_MS, async () => {
    await pruneQuotes(orm.em.fork(), clock());
  });
  // The only rail so far (decision 0013); a real provider is another PayoutRail.
  const rail = new SandboxRail(() => orm.em.fork(), {
    settleMs: config.SANDBOX_RAIL_SETTLE_MS,
    delayMs: config.SANDBOX_RAIL_DELAY_MS,
    reverseMs: config.SANDBOX_RAIL_REVERSE_MS,
  });
  const payouts = new PayoutWorker({
    orm,
    context,
    rail,
    logger: service.logger,
    leaseMs: config.PAYOUT_LEASE_MS,
    pollIntervalMs: config.PAYOUT_POLL_INTERVAL_MS,
  });
  service.every('payout worker', config.PAYOUT_POLL_INTERVAL_MS, async () => {
    // Drain what is due before sleeping again.
    while ((await payouts.runOnce()) > 0);
  });
  // Money requests expire even when nobody reads them; refunds get the rail's answer (decision 0014).
  service.every('collection expiry', config.COLLECTION_SWEEP_INTERVAL_MS, async () => {
    while ((await expireDueCollections(orm.em.fork(), context)) > 0);
  });
  service.every('crypto confirmations', config.COLLECTION_SWEEP_INTERVAL_MS, async () => {
    while ((await confirmDueDeposits(orm.em.fork(), context)) > 0);
  });
  service.every('refund worker', config.COLLECTION_SWEEP_INTERVAL_MS, async () => {
    while ((await decideDueRefunds(orm.em.fork(), context)) > 0);
  });
  // What payments knows of customers comes from their events, never customer-kyb's database. One set of
  // options for the consumer and the retry of its dead letters (decision 0023).
  const consuming = customerEventConsumer({
    kafka: service.kafka,
    orm,
    groupId: config.KAFKA_GROUP_ID,
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    now: clock,
    logger: service.logger,
  });
  const customers = new EventConsumer(consuming);
  service.onStop('customer consumer', () => customers.stop(), 'before-server');
  await service.serve({
    address: config.PAYMENTS_GRPC_ADDRESS,
    services: [...paymentsServiceRegistrations({ orm, context, rail }), deadLetterServiceRegistration(consuming)],
    startWork: () => customers.start(),
  });
}
