import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Everything secret identity derives from its one master key (IDENTITY_SECRET_KEY): the pepper that
 * keys client-secret hashes and the key that encrypts signing keys at rest. Separate HKDF labels
 * keep the two uses independent.
 */
export class IdentitySecrets {
  private readonly pepper: Buffer;
  private readonly encryptionKey: Buffer;

  constructor(masterKey: string) {
    const derive = (label: string) => Buffer.from(hkdfSync('sha256', masterKey, 'corridor-identity', label, 32));
    this.pepper = derive('client-secret-pepper');
    this.encryptionKey = derive('signing-key-encryption');
  }

  /**
   * HMAC-SHA256 with the pepper. The secret is 256 random bits, so a slow KDF buys nothing and
   * would cost every token request; the pepper makes a leaked table useless without the key.
   */
  hashClientSecret(secret: string): Buffer {
    return createHmac('sha256', this.pepper).update(secret).digest();
  }

  /** Constant-time comparison of a presented secret against the stored hash. */
  clientSecretMatches(secret: string, storedHash: Uint8Array): boolean {
    const presented = this.hashClientSecret(secret);
    return presented.length === storedHash.length && timingSafeEqual(presented, storedHash);
  }

  /** AES-256-GCM; output is iv (12) | tag (16) | ciphertext. */
  encrypt(plaintext: Buffer): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
  }

  decrypt(stored: Uint8Array): Buffer {
    const sealed = Buffer.from(stored);
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
  }
}
