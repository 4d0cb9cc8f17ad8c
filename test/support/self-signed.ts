/**
 * A throwaway TLS certificate for 127.0.0.1 (P-256, one day), made by Debian's openssl into
 * `dir` as cert.pem and key.pem, for tests that need a real HTTPS endpoint.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export function selfSignedCertificate(dir: string, commonName: string): { certFile: string; keyFile: string } {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  const made = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', certFile].concat([
      '-days',
      '1',
      '-subj',
      `/CN=${commonName}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ]),
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  return { certFile, keyFile };
}
