import { DEFAULT_OUTBOX_RETENTION_MS } from '@corridor/bus';
import {
  baseConfigShape,
  databaseConfigShape,
  env,
  grpcClientConfigShape,
  kafkaConfigShape,
  loadConfig,
  outboxConfigShape,
  z,
} from '@corridor/config';

export const customerKybConfigShape = {
  ...baseConfigShape,
  CUSTOMER_GRPC_ADDRESS: env.address('127.0.0.1:50052'),
  ...databaseConfigShape('corridor_customer_kyb'),
  ...kafkaConfigShape,
  ...outboxConfigShape(DEFAULT_OUTBOX_RETENTION_MS),
  ...grpcClientConfigShape,
  /** identity, for a business's kyb_minimal_allowed (seed 5) at customer create. */
  IDENTITY_GRPC_ADDRESS: env.grpcTarget('127.0.0.1:50051'),
  /** The S3 API customer-kyb talks to (S3Proxy locally, the cloud's object storage in a cluster). */
  S3_ENDPOINT: z.url().default('http://127.0.0.1:9000'),
  /**
   * The endpoint written into presigned upload URLs, which platforms must reach; defaults to
   * S3_ENDPOINT. Differs when the service reaches storage on an internal address.
   */
  S3_PUBLIC_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name')
    .default('corridor-files'),
  /** Path-style URLs (http://host/bucket/key): S3Proxy and most self-hosted stores need them. */
  S3_FORCE_PATH_STYLE: env.boolean(true),
  S3_ACCESS_KEY_ID: z.string().min(1),
  S3_SECRET_ACCESS_KEY: env.secret(8),
  /** Largest file a presigned upload accepts (10 MiB). */
  FILE_MAX_BYTES: env.positiveInt(10 * 1024 * 1024),
  /** How long a presigned upload URL works. */
  FILE_UPLOAD_URL_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(900),
  /** A merchant KYC session's deadline after creation (seed 3.4, decision 0016): 24 h. */
  KYC_SESSION_TTL_MS: env.positiveInt(24 * 3_600_000),
  /** How often the sweep expires sessions past their deadline (and gives the sandbox's verdicts). */
  KYC_SWEEP_INTERVAL_MS: env.positiveInt(1_000),
  /** Sandbox: how long after creation a session with a magic customer_reference decides itself. */
  SANDBOX_KYC_VERDICT_MS: env.positiveInt(5_000),
};

export type CustomerKybConfig = ReturnType<typeof loadCustomerKybConfig>;

export function loadCustomerKybConfig(source: NodeJS.ProcessEnv = process.env) {
  return loadConfig('customer-kyb', customerKybConfigShape, source);
}
