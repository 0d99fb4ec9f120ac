import { baseConfigShape, env, grpcClientConfigShape, loadConfig, z } from '@corridor/config';

export const gatewayConfigShape = {
  ...baseConfigShape,
  ...grpcClientConfigShape,
  /** Address both listeners bind; 0.0.0.0 in a cluster, loopback on a laptop. */
  GATEWAY_BIND_HOST: z.string().min(1).default('127.0.0.1'),
  GATEWAY_PUBLIC_PORT: env.port(8080),
  GATEWAY_ADMIN_PORT: env.port(8081),
  /** Bearer token of the admin listener (the back office); long and random. */
  ADMIN_TOKEN: env.secret(32),
  IDENTITY_GRPC_ADDRESS: env.grpcTarget('127.0.0.1:50051'),
  CUSTOMER_GRPC_ADDRESS: env.grpcTarget('127.0.0.1:50052'),
  NOTIFICATION_GRPC_ADDRESS: env.grpcTarget('127.0.0.1:50053'),
  PAYMENTS_GRPC_ADDRESS: env.grpcTarget('127.0.0.1:50054'),
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  /** Largest JSON body accepted; larger gets 413. */
  BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/, 'must look like 100kb or 1mb')
    .default('1mb'),
  /**
   * Which proxies' X-Forwarded-For is believed for the caller's address (IP allow-lists):
   * "false" (the socket's address), a hop count, or express's list form ("loopback, 10.0.0.0/8").
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value) => (value === 'false' ? false : value === 'true' ? true : value)),
  /** /oauth/token requests per minute per client_id (failed ones count). */
  TOKEN_REQUESTS_PER_MINUTE: env.positiveInt(30),
  /** /oauth/token requests per minute per caller address, whatever client_id they name. */
  TOKEN_REQUESTS_PER_MINUTE_PER_ADDRESS: env.positiveInt(600),
  /** Prefix of every Redis key, so deployments sharing a Redis never share a counter or cache entry. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, ".", "_" and "-" only')
    .default('corridor'),
  /**
   * Where the verification page's browser uploads go: the origin of customer-kyb's presigned URLs (its
   * S3_PUBLIC_ENDPOINT, else S3_ENDPOINT). The page's Content-Security-Policy allows it alone.
   */
  VERIFICATION_UPLOAD_ORIGIN: z.url().default('http://127.0.0.1:9000'),
  /**
   * The environment's dashboard origin: an invitation the back office makes in the sandbox is
   * answered with its link, `${DASHBOARD_URL}/invitation/<token>` (decision 0028).
   */
  DASHBOARD_URL: z
    .url({ message: 'must be an http(s) URL, e.g. http://127.0.0.1:8090' })
    .regex(/^https?:\/\/[^/]+\/?$/, 'must be an http(s) origin without a path, e.g. http://127.0.0.1:8090')
    .default('http://127.0.0.1:8090'),
};

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

export const loadGatewayConfig = (source: NodeJS.ProcessEnv = process.env) =>
  loadConfig('gateway', gatewayConfigShape, source);
