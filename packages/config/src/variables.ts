import { z } from 'zod';

/** Reusable variable types, so every service spells the same thing the same way. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback),
  positiveInt: (fallback: number) => z.coerce.number().int().positive().default(fallback),
  /** "true"/"false"/"1"/"0"; anything else is an error rather than silently false. */
  boolean: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0'], { message: 'must be true, false, 1 or 0' })
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1'),
  url: () => z.url(),
  /**
   * CORRIDOR_ENVIRONMENT: required, no default. A production process missing it must not start as
   * sandbox (simulations on, sandbox tokens), so every deployment and local start names it.
   */
  environment: () =>
    z.enum(['sandbox', 'production'], {
      error: (issue) =>
        issue.input === undefined
          ? 'is required: sandbox or production (no default, so a production process never starts as sandbox)'
          : 'must be sandbox or production',
    }),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** host:port with a numeric port. */
  address: (fallback: string) =>
    z
      .string()
      .regex(/^[^\s:]+:\d{1,5}$/, 'must be host:port')
      .default(fallback),
  /**
   * Where a gRPC client calls a service: one host:port (a DNS name balances across its records), or
   * several replicas' ip:port separated by commas, which the client balances round-robin.
   */
  grpcTarget: (fallback: string) =>
    z
      .string()
      .default(fallback)
      .refine((value) => {
        const addresses = value.split(',').map((address) => address.trim());
        if (addresses.length === 1) return /^[^\s:,]+:\d{1,5}$/.test(value);
        return addresses.every((address) => /^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/.test(address));
      }, 'must be host:port, or several IPv4 ip:port separated by commas (one per replica)'),
  /** Comma-separated list of host:port. */
  brokers: (fallback: string) =>
    z
      .string()
      .default(fallback)
      .transform((s) =>
        s
          .split(',')
          .map((b) => b.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^[^\s:]+:\d{1,5}$/, 'each broker must be host:port')).min(1)),
  /** Prepended to every topic name, so environments sharing a cluster never share a topic. */
  topicPrefix: () =>
    z
      .string()
      .regex(/^[a-z0-9._-]*$/, 'lowercase letters, digits, ".", "_" and "-" only')
      .default(''),
  secret: (minLength: number) => z.string().min(minLength, `must be at least ${minLength} characters`),
};
