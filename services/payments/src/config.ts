import { DEFAULT_OUTBOX_RETENTION_MS, DEFAULT_PROCESSED_EVENT_RETENTION_MS } from '@corridor/bus';
import {
  baseConfigShape,
  databaseConfigShape,
  env,
  eventConsumerConfigShape,
  grpcClientConfigShape,
  kafkaConfigShape,
  loadConfig,
  outboxConfigShape,
  z,
} from '@corridor/config';

export const paymentsConfigShape = {
  ...baseConfigShape,
  PAYMENTS_GRPC_ADDRESS: env.address('127.0.0.1:50054'),
  ...databaseConfigShape('corridor_payments'),
  ...kafkaConfigShape,
  ...outboxConfigShape(DEFAULT_OUTBOX_RETENTION_MS),
  /** Its customer projection's consumer group defaults to `<KAFKA_TOPIC_PREFIX>payments`. */
  ...eventConsumerConfigShape(DEFAULT_PROCESSED_EVENT_RETENTION_MS),
  ...grpcClientConfigShape,
  /** identity, to refuse a back-office adjustment of a business that does not exist. */
  IDENTITY_GRPC_ADDRESS: env.address('127.0.0.1:50051'),
  /**
   * customer-kyb, asked when the customer projection has not seen a customer or holds a status that
   * would refuse the request: the platform reads its own writes (decision 0033).
   */
  CUSTOMER_GRPC_ADDRESS: env.address('127.0.0.1:50052'),
  /** How long a rate quote can be named by a swap (decision 0011). */
  QUOTE_TTL_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
  /** FX spread of a business without one of its own, in basis points off the mid-rate. */
  DEFAULT_SPREAD_BPS: z.coerce.number().int().min(0).max(5_000).default(50),
  /**
   * Sub-accounts per system account (fees, FX liquidity, rounding, funding): a business always
   * posts to the same one, so unrelated businesses do not queue on one hot row (decision 0011).
   */
  LEDGER_SYSTEM_SHARDS: z.coerce.number().int().min(1).max(256).default(8),
  /** How often the payout worker looks for due payouts (submit, or ask the rail). */
  PAYOUT_POLL_INTERVAL_MS: env.positiveInt(500),
  /** A payout claim lapses after this; a crashed worker's payouts are then taken over. */
  PAYOUT_LEASE_MS: env.positiveInt(15_000),
  /** The sandbox rail (decision 0013): when an ordinary payout settles, a "delayed" one, a "reversed" one is returned. */
  SANDBOX_RAIL_SETTLE_MS: env.positiveInt(1_000),
  SANDBOX_RAIL_DELAY_MS: env.positiveInt(10_000),
  SANDBOX_RAIL_REVERSE_MS: env.positiveInt(2_000),
  /** A money request not paid within this expires (seed 3.5: 48 hours); shorter in tests. */
  COLLECTION_EXPIRY_MS: env.positiveInt(48 * 3_600_000),
  /** The sandbox's block time: a crypto deposit gains one confirmation this often (decision 0015). */
  SANDBOX_CRYPTO_BLOCK_MS: env.positiveInt(1_000),
  /** How often the expiry sweep, the confirmation sweep and the refund worker look for what is due. */
  COLLECTION_SWEEP_INTERVAL_MS: env.positiveInt(1_000),
};

export type PaymentsConfig = ReturnType<typeof loadPaymentsConfig>;

export function loadPaymentsConfig(source: NodeJS.ProcessEnv = process.env) {
  const loaded = loadConfig('payments', paymentsConfigShape, source);
  return { ...loaded, KAFKA_GROUP_ID: loaded.KAFKA_GROUP_ID ?? `${loaded.KAFKA_TOPIC_PREFIX}payments` };
}
