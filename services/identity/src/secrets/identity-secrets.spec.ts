import { IdentitySecrets } from './identity-secrets.js';

describe('IdentitySecrets', () => {
  const secrets = new IdentitySecrets('a'.repeat(64));

  it('hashes a client secret with a keyed HMAC: same key same hash, other key other hash', () => {
    const hash = secrets.hashClientSecret('cs_test_abc');
    expect(hash).toHaveLength(32);
    expect(secrets.hashClientSecret('cs_test_abc').equals(hash)).toBe(true);
    expect(new IdentitySecrets('b'.repeat(64)).hashClientSecret('cs_test_abc').equals(hash)).toBe(false);
  });

  it('matches only the exact secret', () => {
    const hash = secrets.hashClientSecret('cs_test_abc');
    expect(secrets.clientSecretMatches('cs_test_abc', hash)).toBe(true);
    expect(secrets.clientSecretMatches('cs_test_abd', hash)).toBe(false);
    expect(secrets.clientSecretMatches('', hash)).toBe(false);
  });

  it('seals and opens data; another master key or a flipped byte cannot open it', () => {
    const sealed = secrets.encrypt(Buffer.from('private key'));
    expect(secrets.decrypt(sealed).toString()).toBe('private key');
    expect(() => new IdentitySecrets('b'.repeat(64)).decrypt(sealed)).toThrow();
    const tampered = Buffer.from(sealed);
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 1) ^ 1, tampered.length - 1);
    expect(() => secrets.decrypt(tampered)).toThrow();
  });
});
