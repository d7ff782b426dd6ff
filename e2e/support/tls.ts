/**
 * HTTPS for browser tests that need an address the page reaches over https: (a CSP `https:`
 * source never matches the http://127.0.0.1 stubs). A self-signed certificate made at test time
 * for made-up host names, and the Chromium flags that resolve those names to 127.0.0.1 and trust
 * that one certificate (by its public key), not every certificate.
 */
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificate {
  key: string;
  cert: string;
  /** The host names it is made for. */
  hosts: readonly string[];
  /** Launch flags for Chromium: the hosts resolve to 127.0.0.1 and this certificate is trusted. */
  chromiumFlags: string[];
}

/** A fresh key and self-signed certificate for `hosts` (names under .test, which no DNS serves). */
export function testCertificate(hosts: readonly string[]): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'chat-site-tls-'));
  try {
    const [keyPath, certPath] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
        ...['-keyout', keyPath, '-out', certPath, '-days', '1', '-subj', `/CN=${hosts[0]}`],
        ...['-addext', `subjectAltName=${hosts.map((host) => `DNS:${host}`).join(',')}`],
      ],
      { stdio: 'pipe' },
    );
    const [key, cert] = [readFileSync(keyPath, 'utf8'), readFileSync(certPath, 'utf8')];
    const spki = new X509Certificate(cert).publicKey.export({ type: 'spki', format: 'der' });
    const spkiHash = createHash('sha256').update(spki).digest('base64');
    return {
      key,
      cert,
      hosts,
      chromiumFlags: [
        `--host-resolver-rules=${hosts.map((host) => `MAP ${host} 127.0.0.1`).join(', ')}`,
        `--ignore-certificate-errors-spki-list=${spkiHash}`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
