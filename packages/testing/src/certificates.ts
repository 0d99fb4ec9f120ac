import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway CA and a server certificate it signed, for HTTPS receivers in tests. */
export interface TestCertificates {
  /** The CA a client must trust (the notification service's WEBHOOK_EXTRA_CA_FILE). */
  caPem: string;
  /** The leaf: SANs `127.0.0.1` (IP) and `localhost` (DNS). */
  certPem: string;
  /** The leaf's private key, PKCS#8. */
  keyPem: string;
  /** A temporary file holding `caPem`, removed when the process exits. */
  caFile: string;
}

const temporaryFolders: string[] = [];
process.once('exit', () => {
  for (const folder of temporaryFolders) rmSync(folder, { recursive: true, force: true });
});

const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const HOUR_MS = 3_600_000;

function toPem(label: string, der: ArrayBuffer): string {
  const lines =
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** A positive serial number that no other test certificate shares. */
const serialNumber = () => `01${randomBytes(15).toString('hex')}`;

/**
 * Makes a new CA and a leaf for 127.0.0.1 and localhost. Every call makes an independent CA, so a
 * second call gives certificates the first one's CA does not trust (the "TLS error" tests).
 */
export async function createTestCertificates(): Promise<TestCertificates> {
  // Loaded here, not at the top: @peculiar/x509 needs a Reflect polyfill installed globally first,
  // and only suites that make certificates should pay for it.
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  const { subtle } = globalThis.crypto;
  x509.cryptoProvider.set(globalThis.crypto);

  // An hour's slack either way absorbs clock differences; a day is longer than any test run.
  const notBefore = new Date(Date.now() - HOUR_MS);
  const notAfter = new Date(Date.now() + 24 * HOUR_MS);
  const caName = `CN=Corridor Test CA ${randomBytes(4).toString('hex')}`;

  const caKeys = await subtle.generateKey(ECDSA_P256, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: caName,
    notBefore,
    notAfter,
    signingAlgorithm: ECDSA_P256,
    keys: caKeys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const leafKeys = await subtle.generateKey(ECDSA_P256, true, ['sign', 'verify']);
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: 'CN=localhost',
    issuer: ca.subject,
    notBefore,
    notAfter,
    signingAlgorithm: ECDSA_P256,
    publicKey: leafKeys.publicKey,
    signingKey: caKeys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'dns', value: 'localhost' },
      ]),
      await x509.SubjectKeyIdentifierExtension.create(leafKeys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const caPem = ca.toString('pem') + '\n';
  const folder = mkdtempSync(join(tmpdir(), 'corridor-test-ca-'));
  temporaryFolders.push(folder);
  const caFile = join(folder, 'ca.pem');
  writeFileSync(caFile, caPem);
  return {
    caPem,
    certPem: leaf.toString('pem') + '\n',
    keyPem: toPem('PRIVATE KEY', await subtle.exportKey('pkcs8', leafKeys.privateKey)),
    caFile,
  };
}
