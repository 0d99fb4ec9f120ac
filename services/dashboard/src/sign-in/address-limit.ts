import { createHash } from 'node:crypto';
import type { RedisClientType } from 'redis';

/**
 * Failed sign-ins per caller address, in Redis so every replica counts together: guessing across
 * many emails from one address stops here, while identity locks out each email on its own.
 */
export class SignInAddressLimit {
  constructor(
    private readonly redis: RedisClientType,
    private readonly keyPrefix: string,
    private readonly environment: string,
    private readonly failures: number,
    private readonly windowSeconds: number,
  ) {}

  private key(address: string): string {
    const hash = createHash('sha256').update(address).digest('hex').slice(0, 32);
    return `${this.keyPrefix}:dashboard:${this.environment}:sign-in-failures:${hash}`;
  }

  /** Seconds until the address may try again; 0 when it may now. */
  async waitSeconds(address: string): Promise<number> {
    const key = this.key(address);
    const used = Number((await this.redis.get(key)) ?? 0);
    if (used < this.failures) return 0;
    const ttl = await this.redis.ttl(key);
    return ttl > 0 ? ttl : this.windowSeconds;
  }

  async recordFailure(address: string): Promise<void> {
    const key = this.key(address);
    // The window starts at the first failure and is not stretched by later ones.
    await this.redis.multi().incr(key).expire(key, this.windowSeconds, 'NX').exec();
  }
}
