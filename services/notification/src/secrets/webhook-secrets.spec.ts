import { generateSigningSecret, lastFour, SIGNING_SECRET_PATTERN, WebhookSecrets } from './webhook-secrets.js';

describe('webhook signing secrets', () => {
  const secrets = new WebhookSecrets('a'.repeat(64));
  const endpointId = '2f1c7a52-8d4e-4c35-9a51-3f0d7f1b6e21';

  it('are whsec_ and 32 random bytes in base64url, never the same twice', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(SIGNING_SECRET_PATTERN);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64url')).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(secret);
    expect(lastFour(secret)).toBe(secret.slice(secret.length - 4));
  });

  it('seal and unseal round trip, and the sealed bytes do not contain the secret', () => {
    const secret = generateSigningSecret();
    const sealed = secrets.seal(secret, endpointId);
    expect(sealed.includes(Buffer.from(secret))).toBe(false);
    expect(sealed.includes(Buffer.from(secret.slice(6)))).toBe(false);
    expect(secrets.unseal(sealed, endpointId)).toBe(secret);
    // A fresh IV each time: sealing the same secret twice gives different bytes.
    expect(secrets.seal(secret, endpointId).equals(sealed)).toBe(false);
  });

  it('a flipped byte anywhere (iv, tag or ciphertext) cannot be unsealed', () => {
    const sealed = secrets.seal(generateSigningSecret(), endpointId);
    for (const index of [0, 12, 28, sealed.length - 1]) {
      const tampered = Buffer.from(sealed);
      tampered.writeUInt8(tampered.readUInt8(index) ^ 1, index);
      expect(() => secrets.unseal(tampered, endpointId)).toThrow();
    }
  });

  it('another master key, or another endpoint, cannot unseal it', () => {
    const sealed = secrets.seal(generateSigningSecret(), endpointId);
    expect(() => new WebhookSecrets('b'.repeat(64)).unseal(sealed, endpointId)).toThrow();
    expect(() => secrets.unseal(sealed, '00000000-0000-4000-8000-000000000000')).toThrow();
  });
});
