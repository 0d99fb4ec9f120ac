import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Decision 0009: `whsec_` and 32 random bytes, base64url (43 characters). */
const SIGNING_SECRET_PREFIX = 'whsec_';
export const SIGNING_SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{43}$/;

/** Opened secrets kept at most; past it the memory starts over (registrations are one per business). */
const MAX_OPENED = 10_000;

/** A new webhook signing secret (seed 4.3, 6.4), made once per registration. */
export function generateSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
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
