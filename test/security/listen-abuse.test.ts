/**
 * `subscriptions/listen` as an attacker would use it (2026-07-28 clients): a flood of
 * listens from one caller, a listen that never reads what it is sent, and a subscription
 * list as long as a body may be. Limits set small here (transport-streamable-http's
 * `listen` options) so the bounds are reached in a test's time.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectHttp, eventually, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';
import { isMethod, openListen, type RawListen } from '../support/listen-wire.js';

const PER_CALLER = 4;

describe('subscriptions/listen under abuse: floods, readers that never read, huge subscription lists', function () {
  this.timeout(60_000);
  let sb: Running;
  let legacy: Client;
  const open: RawListen[] = [];

  before(async () => {
    sb = await startSwitchboard({
      'config.yaml': `plugins:\n  transport-streamable-http:\n    options:\n      listen: { maxPerCaller: ${PER_CALLER}, maxOpen: 64, keepAliveSeconds: 0.2, stallSeconds: 1 }\n`,
      'mcpservers/t.yaml': stdioServer('t', TEST_SERVER),
    });
    legacy = await connectHttp(sb.url);
    await eventually(
      () => legacy.callTool({ name: 'describe_tool', arguments: { name: 'x_t_grow' } }),
      (r) => r.isError !== true,
      20_000,
    );
  });

  afterEach(() => {
    for (const l of open.splice(0)) l.close();
  });

  after(async () => {
    await legacy?.close();
    await sb?.stop();
  });

  /** Opens listens until one is acknowledged (the places freed by closed ones come back as their sockets close). */
  const listenWhenFree = (notifications: Record<string, unknown>, id: string) =>
    eventually(
      async () => {
        const l = await openListen(sb.url, notifications, { id });
        open.push(l);
        return l;
      },
      (l) => l.refusal === undefined,
      10_000,
    );

  it(`a flood of 60 listens from one caller: ${PER_CALLER} are served, the rest refused at once with LISTEN_LIMIT; a closed one frees its place`, async () => {
    const all = await Promise.all(Array.from({ length: 60 }, (_, i) => openListen(sb.url, { toolsListChanged: true }, { id: `flood-${i}` })));
    open.push(...all);
    const served = all.filter((l) => l.refusal === undefined);
    const refused = all.filter((l) => l.refusal !== undefined);
    expect(served).to.have.length(PER_CALLER);
    expect(refused).to.have.length(60 - PER_CALLER);
    const e = refused[0]!.refusal!.error!;
    expect(e.data).to.deep.equal({ code: 'LISTEN_LIMIT', limit: PER_CALLER, scope: 'caller' });
    expect(e.message).to.include(`${PER_CALLER} subscriptions/listen streams`);
    // The caller's other requests are still served, and its listens still hear changes.
    expect(text(await callTool(legacy, 'x_t_ping'))).to.match(/^pong/);
    await callTool(legacy, 'x_t_grow');
    for (const l of served) await l.next(isMethod('notifications/tools/list_changed'));
    served[0]!.close();
    const again = await listenWhenFree({ toolsListChanged: true }, 'after-close');
    await again.next(isMethod('notifications/subscriptions/acknowledged'));
  });

  it('a listen that never reads: it is sent no more than the sockets take, then dropped after stallSeconds; a reader meanwhile gets keep-alives', async () => {
    // A 256 KiB id rides in every notification's _meta: a few changes fill what the sockets hold.
    const stalled = await openListen(sb.url, { toolsListChanged: true }, { id: 'x'.repeat(256 * 1024), read: false });
    open.push(stalled);
    expect(stalled.refusal).to.equal(undefined);
    const reader = await listenWhenFree({ toolsListChanged: true }, 'reader');
    // The caller's other places taken: a new listen is accepted only once the stalled one is dropped.
    for (const id of ['fill-1', 'fill-2']) await listenWhenFree({ toolsListChanged: true }, id);
    const probe = async () => {
      const l = await openListen(sb.url, { toolsListChanged: true }, { id: 'probe' });
      open.push(l);
      return l.refusal === undefined;
    };
    expect(await probe()).to.equal(false);
    // The server's FIN waits behind the data the client never reads: it is the freed place that shows the drop.
    let dropped = false;
    let rounds = 0;
    while (!dropped && rounds < 60) {
      rounds++;
      await callTool(legacy, 'x_t_grow');
      // One change at a time: the next grow once the reader heard this one (changes are debounced).
      await eventually(
        async () => reader.messages.filter(isMethod('notifications/tools/list_changed')).length,
        (n) => n >= rounds,
        10_000,
      );
      dropped = await probe();
    }
    if (!dropped) dropped = await eventually(probe, (d) => d, 10_000).catch(() => false);
    expect(dropped, `still held after ${rounds} changes`).to.equal(true);
    expect(reader.keepAlives).to.be.greaterThan(0);
  });

  it('a subscription list longer than 256 URIs is refused whole, naming the limit; 256 URIs no server serves are acknowledged as none, then the listen ends', async () => {
    const uris = (n: number) => Array.from({ length: n }, (_, i) => `nowhere://${'p'.repeat(2000)}/${i}`);
    const huge = await openListen(sb.url, { resourceSubscriptions: uris(257) }, { id: 'huge' });
    open.push(huge);
    expect(huge.refusal?.error?.code).to.equal(-32602);
    expect(huge.refusal?.error?.message).to.include('257 URIs, more than the 256 one listen may watch');
    const most = await openListen(sb.url, { resourceSubscriptions: uris(256) }, { id: 'most' });
    open.push(most);
    const ack = await most.next(isMethod('notifications/subscriptions/acknowledged'));
    expect(ack.params?.notifications).to.deep.equal({});
    // Nothing left to hear: the listen's result (its graceful end), then the stream closes.
    const end = await most.next((m) => m.id === 'most');
    expect((end.result?._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/subscriptionId']).to.equal('most');
    await most.ended;
  });
});
