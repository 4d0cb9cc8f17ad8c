/**
 * Before `serve` starts anything: is the port it will listen on free? The listener opens
 * only after every upstream has been started (architecture.md, boot step 7), so a second
 * `serve` on a busy port would start (and download) all of them before failing with
 * EADDRINUSE. One bind and close, before the kernel boots, says it at once. The port can be
 * taken between this probe and the real listen; the listener's own error still covers that.
 */
import { createServer } from 'node:net';
import { readSettings } from '../../kernel/config/pipeline.js';

/** undefined when the port is free (or the settings cannot be read: boot reports that); else what to say. */
export async function busyPort(configPath: string, overrides: { host?: string; port?: number }): Promise<string | undefined> {
  let host: string;
  let port: number;
  try {
    const a = (await readSettings(configPath)).settings.aggregator;
    // Over stdio nothing listens.
    if (a.transport === 'stdio') return undefined;
    host = overrides.host ?? a.host;
    port = overrides.port ?? a.port;
  } catch {
    return undefined;
  }
  if (port === 0) return undefined;
  const code = await new Promise<string | undefined>((resolve) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code));
    probe.listen(port, host, () => probe.close(() => resolve(undefined)));
  });
  if (code !== 'EADDRINUSE') return undefined;
  return `port ${port} on ${host} is already in use: is Switchboard already running? ('switchboard list servers' talks to it); to run another, use --port (0 picks a free one). Nothing was started`;
}
