/**
 * A legacy client subscribed to resources, whose every POST and GET goes where the test says:
 * for cluster tests that put a session's stream on one replica and its requests on others.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { eventually } from './harness.js';

/** A subscribed client: where each of its POSTs and GETs goes is the test's choice. */
export interface Watcher {
  client: Client;
  /** Updates heard, by URI. */
  heard: Map<string, number>;
  /** The URL of every GET stream the server opened (200), in order. */
  streams: string[];
  /** Where the next POSTs go (in turn). */
  postTo(urls: readonly string[]): void;
  /** Ends the session (DELETE) and closes the client. */
  end(): Promise<void>;
}

/** A connected watcher: POSTs to `posts` in turn, its GET stream (each reconnect too) at `streamAt(attempt)`. */
export async function watcher(posts: readonly string[], streamAt: (attempt: number) => string): Promise<Watcher> {
  let targets = posts;
  let next = 0;
  const streams: string[] = [];
  const steered: typeof fetch = async (_input, init) => {
    if ((init?.method ?? 'GET') !== 'GET') return fetch(targets[next++ % targets.length]!, init);
    const url = streamAt(streams.length);
    const res = await fetch(url, init);
    if (res.status === 200) streams.push(url);
    return res;
  };
  const client = new Client({ name: 'watcher', version: '1.0.0' });
  const heard = new Map<string, number>();
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void heard.set(n.params.uri, (heard.get(n.params.uri) ?? 0) + 1));
  // Reconnects of the GET stream as the SDK does them, a few more tries for a loaded machine.
  const transport = new StreamableHTTPClientTransport(new URL(posts[0]!), {
    fetch: steered,
    reconnectionOptions: { initialReconnectionDelay: 200, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1.5, maxRetries: 20 },
  });
  await client.connect(transport);
  await eventually(
    async () => streams.length,
    (n) => n === 1,
    10_000,
    10,
  );
  return {
    client,
    heard,
    streams,
    postTo: (urls) => {
      targets = urls;
      next = 0;
    },
    end: async () => {
      await transport.terminateSession();
      await client.close();
    },
  };
}
