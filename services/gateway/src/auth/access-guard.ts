import { createHash } from 'node:crypto';
import { AccessCache } from '@corridor/access-cache';
import type { RedisClientType } from 'redis';
import { HttpError } from '../http/errors.js';

/**
 * Per-request checks that must hold across every gateway replica at once, in ONE Redis round trip:
 * the credential generation (rotation and revocation), the business policy (api_enabled, limits,
 * IP allow-list) and both rate-limit windows (seed part 8), counted atomically.
 *
 * Redis holds caches of identity's truth (@corridor/access-cache), filled from identity on a miss
 * and pushed by the admin API and the dashboard on every change.
 */

export { CACHE_TTL_SECONDS, REVOKED_GENERATION } from '@corridor/access-cache';

// Redis Cluster runs a script only when every key it touches is in KEYS and all of them hash to one
// slot: a business's keys share the hash tag {<business id>} (businessKeys), and the rate-limit
// windows are fields of one hash, reset in place when the window changes.

// KEYS: credential, business, rate-limit windows. ARGV: token generation.
// Fixed windows aligned to the clock of Redis (TIME), so replicas never disagree on the window.
const GUARD_SCRIPT = `
local gen = redis.call('GET', KEYS[1])
if not gen then return {'miss_credential'} end
local policy = redis.call('HMGET', KEYS[2], 'api_enabled', 'per_minute', 'per_hour', 'ip_allowlist')
if not policy[1] then return {'miss_business'} end
if tonumber(gen) ~= tonumber(ARGV[1]) then return {'revoked', gen} end
if policy[1] ~= '1' then return {'api_disabled'} end
local now = tonumber(redis.call('TIME')[1])
local minute = math.floor(now / 60)
local hour = math.floor(now / 3600)
local windows = redis.call('HMGET', KEYS[3], 'minute', 'minute_used', 'hour', 'hour_used')
local used_minute = 0
if tonumber(windows[1]) == minute then used_minute = tonumber(windows[2]) end
local used_hour = 0
if tonumber(windows[3]) == hour then used_hour = tonumber(windows[4]) end
local per_minute = tonumber(policy[2])
local per_hour = tonumber(policy[3])
local minute_reset = 60 - (now % 60)
local hour_reset = 3600 - (now % 3600)
local verdict = 'ok'
-- The hour first: when both are spent only the end of the hour frees a request, so Retry-After
-- must name it (the minute's reset would send the client back to another 429).
if used_hour >= per_hour then verdict = 'limited_hour'
elseif used_minute >= per_minute then verdict = 'limited_minute'
else
  used_minute = used_minute + 1
  used_hour = used_hour + 1
  redis.call('HSET', KEYS[3], 'minute', minute, 'minute_used', used_minute, 'hour', hour, 'hour_used', used_hour)
  redis.call('EXPIRE', KEYS[3], hour_reset + 60)
end
return {verdict, per_minute, used_minute, minute_reset, per_hour, used_hour, hour_reset, policy[4]}
`;

// KEYS: the subject's minute window (a hash). ARGV: limit.
const TOKEN_LIMIT_SCRIPT = `
local now = tonumber(redis.call('TIME')[1])
local minute = math.floor(now / 60)
local window = redis.call('HMGET', KEYS[1], 'minute', 'used')
local used = 0
if tonumber(window[1]) == minute then used = tonumber(window[2]) end
if used >= tonumber(ARGV[1]) then return {0, 60 - (now % 60)} end
redis.call('HSET', KEYS[1], 'minute', minute, 'used', used + 1)
redis.call('EXPIRE', KEYS[1], 120)
return {1, 60 - (now % 60)}
`;

export interface WindowUsage {
  limit: number;
  used: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
}

export type GuardVerdict =
  | { kind: 'miss_credential' | 'miss_business' | 'api_disabled' }
  | { kind: 'revoked'; cachedGeneration: number }
  | {
      kind: 'ok' | 'limited_minute' | 'limited_hour';
      minute: WindowUsage;
      hour: WindowUsage;
      ipAllowlist: string[];
    };

/** Thrown when Redis cannot answer: the gateway then refuses to serve (fail closed, decision 0007). */
export class GuardUnavailable extends HttpError {
  constructor(cause: unknown) {
    super(
      503,
      'RATE_LIMITER_UNAVAILABLE',
      'Corridor cannot check revocation and rate limits right now, so it serves no request; retry shortly',
    );
    this.name = 'GuardUnavailable';
    this.cause = cause;
  }
}

export class AccessGuard extends AccessCache {
  constructor(redis: RedisClientType, environment: string, keyPrefix = 'corridor', timeoutMs?: number) {
    super(redis, environment, keyPrefix, (cause) => new GuardUnavailable(cause), timeoutMs);
  }

  async check(clientId: string, businessId: string, generation: number): Promise<GuardVerdict> {
    const keys = this.businessKeys(businessId);
    const reply = await this.run(
      GUARD_SCRIPT,
      [keys.credential(clientId), keys.business, keys.windows],
      [String(generation)],
    );
    const kind = String(reply[0]);
    if (kind === 'miss_credential' || kind === 'miss_business' || kind === 'api_disabled') return { kind };
    if (kind === 'revoked') return { kind, cachedGeneration: Number(reply[1]) };
    const [, perMinute, usedMinute, minuteReset, perHour, usedHour, hourReset, allowlist] = reply;
    return {
      kind: kind as 'ok' | 'limited_minute' | 'limited_hour',
      minute: { limit: Number(perMinute), used: Number(usedMinute), resetSeconds: Number(minuteReset) },
      hour: { limit: Number(perHour), used: Number(usedHour), resetSeconds: Number(hourReset) },
      ipAllowlist: JSON.parse(String(allowlist ?? '[]')) as string[],
    };
  }

  /**
   * /oauth/token: a fixed per-minute budget per `subject` (a client_id, or a caller address so that
   * made-up client_ids cannot load identity without bound). Failed attempts count too.
   */
  async admitTokenRequest(subject: string, perMinute: number): Promise<{ admitted: boolean; resetSeconds: number }> {
    const subjectHash = createHash('sha256').update(subject).digest('hex').slice(0, 32);
    const key = `${this.keyPrefix}:rl:${this.environment}:token:${subjectHash}`;
    const [admitted, reset] = await this.run(TOKEN_LIMIT_SCRIPT, [key], [String(perMinute)]);
    return { admitted: Number(admitted) === 1, resetSeconds: Number(reset) };
  }
}
