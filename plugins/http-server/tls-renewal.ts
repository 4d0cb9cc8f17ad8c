/**
 * A certificate renewed in place is served without a restart. cert-manager renews into a
 * Secret volume (the kubelet swaps the mounted files), certbot's hooks copy over the old
 * files; Switchboard read them once at startup and went on serving the old certificate until
 * it expired, when every client refused it.
 *
 * The files are read again every `tlsReloadSeconds` (polled, for the reasons of
 * plugins/upstreams/secret-rotation.ts: a Secret volume swaps a symlink two levels up). A new
 * pair that works together is handed to the listener (`setSecureContext`): handshakes from
 * then on get it, connections already open keep theirs. A pair that does not work together
 * (a writer between the certificate and its key) is left alone; said once it is seen twice in
 * a row, while the previous certificate stays in service.
 */
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Server as HttpsServer } from 'node:https';
import { isAbsolute, resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import type { Logger, Settings } from '../../kernel/index.js';
import type { TlsMaterial } from './tls.js';

/** Default of the http-server option `tlsReloadSeconds`. */
export const TLS_RELOAD_SECONDS = 60;

/** When the certificate stops being valid, as its own words say (undefined when it cannot be read). */
function validTo(cert: Buffer): string | undefined {
  try {
    return new X509Certificate(cert).validTo;
  } catch {
    return undefined;
  }
}

export class TlsRenewal {
  private timer: NodeJS.Timeout | undefined;
  /** The unusable pair seen last, so it is said once it is seen twice (a writer caught halfway is not). */
  private unusable: { pair: string; said: boolean } | undefined;

  constructor(
    private readonly server: HttpsServer,
    private readonly tls: NonNullable<Settings['aggregator']['tls']>,
    private readonly configPath: string,
    private serving: TlsMaterial,
    private readonly log: Logger,
  ) {}

  start(everyMs: number): void {
    if (everyMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.look(), everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private path(field: 'certFile' | 'keyFile'): string {
    const file = this.tls[field];
    return isAbsolute(file) ? file : resolve(this.configPath, file);
  }

  private async look(): Promise<void> {
    let cert: Buffer;
    let key: Buffer;
    try {
      [cert, key] = await Promise.all([readFile(this.path('certFile')), readFile(this.path('keyFile'))]);
    } catch {
      // Between a removal and its replacement: the next look reads what is there then.
      return;
    }
    if (cert.equals(this.serving.cert) && key.equals(this.serving.key)) {
      this.unusable = undefined;
      return;
    }
    try {
      createSecureContext({ cert, key });
    } catch (err) {
      const pair = `${cert.toString('base64')}:${key.toString('base64')}`;
      if (this.unusable?.pair !== pair) {
        this.unusable = { pair, said: false };
        return;
      }
      if (!this.unusable.said) {
        this.unusable.said = true;
        this.log.warn(
          `aggregator.tls: the certificate and key in ${this.tls.certFile} and ${this.tls.keyFile} changed but are not usable together (${(err as Error).message}): still serving the previous certificate`,
        );
      }
      return;
    }
    this.server.setSecureContext({ cert, key });
    this.serving = { cert, key };
    this.unusable = undefined;
    const until = validTo(cert);
    this.log.info(`aggregator.tls: ${this.tls.certFile} was renewed: serving it to new connections${until ? ` (valid until ${until})` : ''}`);
  }
}
