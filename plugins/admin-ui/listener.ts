/**
 * The admin UI's listener, opened, moved and closed as config.yaml says while Switchboard
 * runs (aggregator.admin.enabled, bindAddress, port): each change one log line. Changes are
 * applied one at a time in the order they came; a port that cannot be had leaves the UI
 * closed with an error naming it, and the next edit tries again.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isLoopback, type AggregatorSettings, type Logger } from '../../kernel/index.js';
import { closeListener, listen } from '../../lib/net/listener.js';
import { readTimeouts } from '../../lib/net/read-timeouts.js';

type AdminSettings = AggregatorSettings['admin'];
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Open {
  server: Server;
  /** What it was opened for: a change of any of these reopens it. */
  wanted: string;
  bindAddress: string;
  url: string;
}

const wantedOf = (a: AdminSettings): string | undefined => (a.enabled ? `${a.bindAddress}|${a.port}` : undefined);

export class AdminListener {
  private open: Open | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly settings: () => AggregatorSettings,
    /** Built on first use: a Switchboard whose admin UI stays off never builds the pages' app. */
    private readonly handler: () => Handler,
    private readonly log: Logger,
  ) {}

  /** The address the open listener is bound to (the configured one while none is open). */
  get bindAddress(): string {
    return this.open?.bindAddress ?? this.settings().admin.bindAddress;
  }

  /** Brings the listener to what the settings say; resolves once done (every earlier change first). */
  reconcile(): Promise<void> {
    const run = this.queue.then(() => this.apply());
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Applies the header and request timeouts a config.yaml edit changed to the open listener. */
  retime(): void {
    if (!this.open) return;
    const reading = readTimeouts(this.settings().limits);
    this.open.server.headersTimeout = reading.headersTimeout;
    this.open.server.requestTimeout = reading.requestTimeout;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.shut();
  }

  private async apply(): Promise<void> {
    const admin = this.settings().admin;
    const wanted = wantedOf(admin);
    if (wanted === this.open?.wanted) return;
    const was = this.open?.url;
    await this.shut();
    if (!wanted) {
      if (was) this.log.info(`admin UI closed (it was on ${was}; aggregator.admin.enabled is false)`);
      return;
    }
    const { bindAddress, port } = admin;
    if (!isLoopback(bindAddress))
      this.log.warn(
        `THE ADMIN UI HAS NO AUTHENTICATION and listens on ${bindAddress}:${port} (allowNonLoopback): anyone who reaches it can end sessions and reconnect servers`,
      );
    const handler = this.handler();
    const server = createServer(readTimeouts(this.settings().limits), handler);
    try {
      const bound = await listen(server, port, bindAddress, 'admin UI');
      const host = bindAddress.includes(':') ? `[${bindAddress}]` : bindAddress;
      this.open = { server, wanted, bindAddress, url: `http://${host}:${bound}/` };
      this.log.info(was ? `admin UI moved from ${was} to ${this.open.url}` : `admin UI on ${this.open.url}`);
    } catch (err) {
      server.close();
      throw err;
    }
  }

  private async shut(): Promise<void> {
    const open = this.open;
    this.open = undefined;
    if (open) await closeListener(open.server);
  }
}
