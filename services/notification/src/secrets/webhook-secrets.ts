import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomInt } from 'node:crypto';

/**
 * Decision 0009: `whsec_` and 43 characters. Decision 0065: issued as letters and digits only, which
 * every base64 decoder reads as 32 bytes (the Standard Webhooks key); the ones issued before are
 * base64url and may hold `-` or `_`.
 */
const SIGNING_SECRET_PREFIX = 'whsec_';
export const SIGNING_SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{43}$/;
const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 43 characters of 62: 256 bits. */
const SECRET_LENGTH = 43;

/** Opened secrets kept at most; past it the memory starts over (registrations are one per business). */
const MAX_OPENED = 10_000;

/** A new webhook signing secret (seed 4.3, 6.4), made once per registration. */
export function generateSigningSecret(): string {
  const characters = Array.from({ length: SECRET_LENGTH }, () => SECRET_ALPHABET[randomInt(SECRET_ALPHABET.length)]);
  return `${SIGNING_SECRET_PREFIX}${characters.join('')}`;
}

/** A registration's sealed secrets: the current one, and the one a rotation replaced while its overlap lasts. */
export interface SealedSigningSecrets {
  signingSecretSealed: Uint8Array;
  previousSigningSecretSealed?: Uint8Array | null;
  previousSigningSecretExpiresAt?: Date | null;
}

/** What GET shows of a secret, so a platform can tell which one it holds. */
export const lastFour = (secret: string): string => secret.slice(-4);

/**
 * Seals webhook signing secrets at rest with a key derived from notification's one master key
 * (NOTIFICATION_SECRET_KEY). Signing needs the secret itself, so it is encrypted, not hashed.
 */
export class WebhookSecrets {
  private readonly encryptionKey: Buffer;
  /** Opened secrets by endpoint and sealed bytes: every attempt signs, few registrations exist (issue 35). */
  private readonly opened = new Map<string, string>();

  constructor(masterKey: string) {
    this.encryptionKey = Buffer.from(
      hkdfSync('sha256', masterKey, 'corridor-notification', 'webhook-signing-secret-encryption', 32),
    );
  }

  /**
   * AES-256-GCM; output is iv (12) | tag (16) | ciphertext. `boundTo` (the endpoint id) is
   * authenticated data: a sealed secret copied onto another row does not open there.
   */
  seal(secret: string, boundTo: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    cipher.setAAD(Buffer.from(boundTo));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
  }

  /**
   * The secrets that sign a delivery made at `now`, newest first: the current one, and the previous
   * one until its overlap ends (decision 0065).
   */
  inForce(endpoint: SealedSigningSecrets, endpointId: string, now: Date): string[] {
    const current = this.unseal(endpoint.signingSecretSealed, endpointId);
    const { previousSigningSecretSealed: previous, previousSigningSecretExpiresAt: until } = endpoint;
    if (!previous || !until || until.getTime() <= now.getTime()) return [current];
    return [current, this.unseal(previous, endpointId)];
  }

  /** Throws when the data was changed, sealed for another endpoint, or under another master key. */
  unseal(stored: Uint8Array, boundTo: string): string {
    const sealed = Buffer.from(stored);
    // Keyed by the sealed bytes too: a registration sealed anew is opened anew.
    const key = `${boundTo}:${sealed.toString('base64')}`;
    let secret = this.opened.get(key);
    if (secret === undefined) {
      secret = this.open(sealed, boundTo);
      if (this.opened.size >= MAX_OPENED) this.opened.clear();
      this.opened.set(key, secret);
    }
    return secret;
  }

  private open(sealed: Buffer, boundTo: string): string {
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    decipher.setAAD(Buffer.from(boundTo));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
  }
}
