import { importJWK, type CryptoKey, type JWK } from 'jose';
import type { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import type { ClientOf } from '@corridor/grpc';
import type { Logger } from '@corridor/logging';

/** How long an unknown key id waits before asking identity again (a flood of forged kids costs one call). */
const UNKNOWN_KID_REFETCH_MS = 10_000;
const REFRESH_MS = 10 * 60_000;

/**
 * Identity's public signing keys and the issuer/audience of this environment, fetched over gRPC at
 * start and refreshed in the background: verifying a token never calls identity.
 */
export class TokenKeys {
  issuer = '';
  audience = '';
  private keys = new Map<string, CryptoKey | Uint8Array>();
  private lastFetch = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly identity: ClientOf<typeof IdentityService>,
    private readonly logger: Logger,
  ) {}

  get loaded(): boolean {
    return this.keys.size > 0;
  }

  /** Whether identity still publishes this key (a withdrawn key's tokens must stop verifying). */
  publishes(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  /** Loads the keys, retrying in the background until identity answers. */
  start(): void {
    const tick = async () => {
      try {
        await this.fetch();
      } catch (error) {
        this.logger.warn({ err: error }, 'could not load token signing keys from identity; retrying');
      }
      this.timer = setTimeout(tick, this.loaded ? REFRESH_MS : 1_000);
      this.timer.unref();
    };
    void tick();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  async fetch(): Promise<void> {
    this.lastFetch = Date.now();
    const response = await this.identity.getSigningKeys({});
    const keys = new Map<string, CryptoKey | Uint8Array>();
    for (const key of response.keys) keys.set(key.keyId, await importJWK(JSON.parse(key.publicJwk) as JWK, 'EdDSA'));
    this.keys = keys;
    this.issuer = response.issuer;
    this.audience = response.audience;
  }

  /** The key for a key id; an unknown id triggers at most one refetch per UNKNOWN_KID_REFETCH_MS. */
  async key(keyId: string): Promise<CryptoKey | Uint8Array | undefined> {
    const known = this.keys.get(keyId);
    if (known || Date.now() - this.lastFetch < UNKNOWN_KID_REFETCH_MS) return known;
    try {
      await this.fetch();
    } catch (error) {
      this.logger.warn({ err: error }, 'refetching signing keys failed');
    }
    return this.keys.get(keyId);
  }
}
