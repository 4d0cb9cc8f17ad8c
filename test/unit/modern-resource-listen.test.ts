/**
 * Resource subscriptions to a 2026-07-28 upstream as one listen replaced when the URIs change
 * (plugins/upstreams/client/modern-resource-listen.ts), against a stand-in for the v2 client's
 * listen(): which listens are opened and closed, in what order, and what a subscriber is told.
 * End to end with a real server: test/e2e/modern-upstream-crossings.test.ts.
 */
import { expect } from 'chai';
import type { McpSubscription, SubscriptionFilter } from '@modelcontextprotocol/client';
import { ModernResourceListen } from '../../plugins/upstreams/client/modern-resource-listen.js';

interface Opened {
  uris: string[];
  closedLocally: boolean;
  /** The server ends this listen. */
  end(): void;
}

/** A stand-in for the v2 client's listen(): each call waits until `acknowledge` (honouring what `honour` keeps). */
class FakeServer {
  readonly opened: Opened[] = [];
  private waiting: (() => void)[] = [];
  honour: (uri: string) => boolean = () => true;

  listen = (filter: SubscriptionFilter): Promise<McpSubscription> => {
    const uris = filter.resourceSubscriptions ?? [];
    let settle: (how: 'local' | 'graceful' | 'remote') => void = () => undefined;
    const closed = new Promise<'local' | 'graceful' | 'remote'>((r) => (settle = r));
    const entry: Opened = { uris: [...uris], closedLocally: false, end: () => settle('remote') };
    this.opened.push(entry);
    const subscription: McpSubscription = {
      honoredFilter: { resourceSubscriptions: uris.filter((u) => this.honour(u)) },
      close: async () => {
        entry.closedLocally = true;
        settle('local');
      },
      closed,
    };
    return new Promise((resolve) => this.waiting.push(() => resolve(subscription)));
  };

  /** Acknowledges every listen waiting; resolves once the listener saw it. */
  async acknowledge(): Promise<void> {
    const all = this.waiting;
    this.waiting = [];
    for (const ack of all) ack();
    await new Promise((r) => setImmediate(r));
  }

  async untilWaiting(n: number): Promise<void> {
    while (this.waiting.length < n) await new Promise((r) => setImmediate(r));
  }
}

describe('resource subscriptions to a 2026-07-28 upstream: one listen, replaced when the URIs change', () => {
  it('the first URI opens a listen; the next one replaces it, the old one closed only once the new one is acknowledged', async () => {
    const server = new FakeServer();
    const listen = new ModernResourceListen(server, 1000, () => undefined);
    const a = listen.set('r://a', true);
    await server.untilWaiting(1);
    await server.acknowledge();
    await a;
    const b = listen.set('r://b', true);
    await server.untilWaiting(1);
    expect(server.opened[0]!.closedLocally).to.equal(false);
    await server.acknowledge();
    await b;
    expect(server.opened.map((o) => o.uris)).to.deep.equal([['r://a'], ['r://a', 'r://b']]);
    expect(server.opened.map((o) => o.closedLocally)).to.deep.equal([true, false]);
  });

  it('changes made while a replacement is being opened share the next one', async () => {
    const server = new FakeServer();
    const listen = new ModernResourceListen(server, 1000, () => undefined);
    const first = listen.set('r://1', true);
    await server.untilWaiting(1);
    const more = [listen.set('r://2', true), listen.set('r://3', true), listen.set('r://4', true)];
    await server.acknowledge();
    await first;
    await server.untilWaiting(1);
    await server.acknowledge();
    await Promise.all(more);
    expect(server.opened.map((o) => o.uris)).to.deep.equal([['r://1'], ['r://1', 'r://2', 'r://3', 'r://4']]);
  });

  it('a URI the server does not acknowledge is refused to its subscriber and left out of the next listen', async () => {
    const server = new FakeServer();
    server.honour = (uri) => uri !== 'r://secret';
    const listen = new ModernResourceListen(server, 1000, () => undefined);
    const refused = listen.set('r://secret', true).then(
      () => 'subscribed',
      (err: unknown) => (err as Error).message,
    );
    await server.untilWaiting(1);
    await server.acknowledge();
    expect(await refused).to.match(/did not acknowledge a subscription to 'r:\/\/secret'/);
    const ok = listen.set('r://open', true);
    await server.untilWaiting(1);
    await server.acknowledge();
    await ok;
    expect(server.opened.at(-1)!.uris).to.deep.equal(['r://open']);
  });

  it('the last URI gone closes the listen and opens none', async () => {
    const server = new FakeServer();
    const listen = new ModernResourceListen(server, 1000, () => undefined);
    const a = listen.set('r://a', true);
    await server.untilWaiting(1);
    await server.acknowledge();
    await a;
    await listen.set('r://a', false);
    expect(server.opened).to.have.length(1);
    expect(server.opened[0]!.closedLocally).to.equal(true);
  });

  it('a listen the server ends at once is not opened again: the connection is made again instead', async () => {
    const server = new FakeServer();
    let lost = 0;
    const listen = new ModernResourceListen(server, 1000, () => void lost++);
    const a = listen.set('r://a', true);
    await server.untilWaiting(1);
    await server.acknowledge();
    await a;
    server.opened[0]!.end();
    await new Promise((r) => setImmediate(r));
    expect(lost).to.equal(1);
    expect(server.opened).to.have.length(1);
  });
});
