import { createHash } from 'node:crypto';
import type { Business } from '@corridor/contracts/corridor/identity/v1/business_pb';
import type { Credential } from '@corridor/contracts/corridor/identity/v1/credential_pb';
import { withoutSpans } from '@corridor/telemetry/route';
import type { RedisClientType } from 'redis';

/**
 * The Redis cache of identity's truth that every gateway replica checks per request: each
 * credential's generation (rotation and revocation) and each business's policy. Gateways fill it
 * from identity on a miss; whoever changes a credential or a business (the gateway's admin API, the
 * dashboard) drops the entry before identity commits and stores the new state after. Writes keep the
 * highest generation / version, so a slow cache fill can never undo a newer rotation.
 */

/** A revoked credential's cached generation: higher than any real one, so no token matches it. */
export const REVOKED_GENERATION = 2 ** 31;
/** Cache entries expire so that a lost push is corrected from identity within this time. */
export const CACHE_TTL_SECONDS = 300;

// Redis Cluster runs a script only when every key it touches is in KEYS and all of them hash to one
// slot: a business's keys share the hash tag {<business id>} (businessKeys).

// KEYS: credential. ARGV: generation, ttl.
const STORE_CREDENTIAL_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if (not current) or tonumber(current) <= tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
end
return 1
`;

// KEYS: business. ARGV: version, ttl, api_enabled, per_minute, per_hour, ip_allowlist (JSON).
const STORE_BUSINESS_SCRIPT = `
local current = redis.call('HGET', KEYS[1], 'version')
if (not current) or tonumber(current) <= tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'version', ARGV[1], 'api_enabled', ARGV[3], 'per_minute', ARGV[4], 'per_hour', ARGV[5], 'ip_allowlist', ARGV[6])
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
return 1
`;

const FORGET_SCRIPT = `return redis.call('DEL', KEYS[1])`;

/** Redis did not answer: callers refuse to change anything rather than change what gateways cannot learn. */
export class AccessCacheUnavailable extends Error {
  constructor(cause: unknown) {
    super('the access cache (Redis) cannot be reached');
    this.name = 'AccessCacheUnavailable';
    this.cause = cause;
  }
}

export type ScriptReply = (string | number)[];

/** How long a request waits for Redis before it is refused (fail closed, decision 0007). */
const REDIS_TIMEOUT_MS = 1_000;

/** The keys of one business, all under the hash tag {<business id>}. */
export interface BusinessKeys {
  business: string;
  windows: string;
  credential(clientId: string): string;
}

export class AccessCache {
  private readonly shas = new Map<string, string>();

  constructor(
    protected readonly redis: RedisClientType,
    protected readonly environment: string,
    protected readonly keyPrefix = 'corridor',
    /** The error a call that Redis does not answer fails with; the gateway's is its HTTP 503. */
    private readonly unavailable: (cause: unknown) => Error = (cause) => new AccessCacheUnavailable(cause),
    private readonly timeoutMs = REDIS_TIMEOUT_MS,
  ) {}

  /**
   * The keys of one business: its policy, its credentials' generations and its rate-limit windows,
   * all under the hash tag {<business id>} so one script may use them together on Redis Cluster.
   */
  protected businessKeys(businessId: string): BusinessKeys {
    const tag = `${this.keyPrefix}:{${businessId}}`;
    return {
      business: `${tag}:biz`,
      windows: `${tag}:rl:${this.environment}`,
      credential: (clientId) => `${tag}:cred:${clientId}`,
    };
  }

  /** EVALSHA, loading the script once when Redis does not know it yet; bounded in time. */
  protected async run(script: string, keys: string[], args: string[]): Promise<ScriptReply> {
    let sha = this.shas.get(script);
    if (!sha) {
      sha = createHash('sha1').update(script).digest('hex');
      this.shas.set(script, sha);
    }
    const call = async (): Promise<ScriptReply> => {
      if (!this.redis.isReady) throw new Error('not connected');
      try {
        return (await this.redis.evalSha(sha, { keys, arguments: args })) as ScriptReply;
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return (await this.redis.eval(script, { keys, arguments: args })) as ScriptReply;
      }
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        // No Redis span of its own: every gateway request runs a script here, and a span per script
        // cost the gateway more than the script (issue 14). Its time is in the request's span.
        withoutSpans(call),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
        }),
      ]);
    } catch (error) {
      throw this.unavailable(error);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Drops the cached state before a change: if Redis cannot be reached the change is refused
   * instead of committed-but-not-applied; after the commit, store* pushes the new state.
   */
  async forgetCredential(businessId: string, clientId: string): Promise<void> {
    await this.run(FORGET_SCRIPT, [this.businessKeys(businessId).credential(clientId)], []);
  }

  async forgetBusiness(businessId: string): Promise<void> {
    await this.run(FORGET_SCRIPT, [this.businessKeys(businessId).business], []);
  }

  storeCredential(credential: Credential): Promise<void> {
    return this.storeCredentialGeneration(
      credential.businessId,
      credential.clientId,
      credential.revoked ? REVOKED_GENERATION : credential.generation,
    );
  }

  async storeCredentialGeneration(businessId: string, clientId: string, generation: number): Promise<void> {
    await this.run(
      STORE_CREDENTIAL_SCRIPT,
      [this.businessKeys(businessId).credential(clientId)],
      [String(generation), String(CACHE_TTL_SECONDS)],
    );
  }

  async storeBusiness(business: Business): Promise<void> {
    await this.run(
      STORE_BUSINESS_SCRIPT,
      [this.businessKeys(business.id).business],
      [
        String(business.version),
        String(CACHE_TTL_SECONDS),
        business.apiEnabled ? '1' : '0',
        String(business.rateLimits?.perMinute ?? 0),
        String(business.rateLimits?.perHour ?? 0),
        JSON.stringify(business.ipAllowlist),
      ],
    );
  }
}
export { connectRedis, redisReadiness } from './redis-connection.js';
