/**
 * The kernel's subscriptions/listen streams (kernel/mcp/server/listens.ts) without a network:
 * what a stream whose client does not read is left holding, and how a change outside a
 * caller's view is told apart from one inside it.
 */
import { expect } from 'chai';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogueEntry } from '../../kernel/catalogue.js';
import { createHooks } from '../../kernel/hooks.js';
import { Listens, type ListenStream } from '../../kernel/mcp/server/listens.js';
import type { Session } from '../../kernel/sessions.js';

function entry(name: string, server: string): CatalogueEntry {
  return {
    name,
    server,
    description: name,
    kind: 'tool',
    inputSchema: { type: 'object' },
    source: `server:${server}`,
    summary: name,
    discovery: { name, summary: name, kind: 'tool' },
  } as unknown as CatalogueEntry;
}

class FakeStream implements ListenStream {
  readonly written: JSONRPCMessage[] = [];
  reading = true;
  ended = false;
  write(message: JSONRPCMessage): boolean {
    this.written.push(message);
    return this.reading;
  }
  end(): void {
    this.ended = true;
  }
}

describe('listens: bounded streams and per-view list changes', () => {
  let catalogue: CatalogueEntry[];
  const hooks = createHooks();
  // A toolset header narrows to one server, as the toolsets plugin's tap does.
  const views = new Map<string, { selectors: string[]; includes: (e: CatalogueEntry) => boolean }>();
  hooks.onRequest.tap('toolset', (request) => {
    const server = request.headers['x-toolset'];
    if (typeof server !== 'string') return;
    if (!views.has(server)) views.set(server, { selectors: [`server:${server}`], includes: (e) => e.server === server });
    request.view = views.get(server)!;
  });
  const listens = new Listens({
    hooks,
    catalogue: () => catalogue,
    capabilities: () => ({ tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true } }),
    resources: () => undefined,
    sessionFor: () =>
      ({
        id: `s-${Math.random()}`,
        transport: 'streamable-http',
        createdAt: new Date(),
        slots: new Map(),
        subscriptions: new Set(),
        stateless: true,
      }) as unknown as Session,
  });
  const envelope = { protocolVersion: '2026-07-28', clientCapabilities: {} };
  const open = async (id: string, headers: Record<string, string> = {}, who = '10.0.0.1') => {
    const stream = new FakeStream();
    const outcome = await listens.listen(
      { id, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true } } },
      envelope,
      { kind: 'streamable-http', headers, clientAddress: who },
      stream,
      { perCaller: 4, total: 8 },
    );
    if (outcome.kind !== 'open') throw new Error(JSON.stringify(outcome.message));
    return { stream, handle: outcome.handle };
  };
  const methods = (s: FakeStream) => s.written.map((m) => (m as { method?: string }).method);

  beforeEach(() => {
    catalogue = [entry('x_a_one', 'a'), entry('x_b_one', 'b')];
  });

  it('a client that stops reading is left one pending notification per kind, whatever the number of changes, sent when it reads again', async () => {
    const { stream, handle } = await open('slow');
    stream.reading = false;
    for (let i = 0; i < 10_000; i++) {
      catalogue = [...catalogue.slice(0, 1), entry(`x_b_${i}`, 'b')];
      await listens.listChanged('tools');
      await listens.listChanged('prompts');
      await listens.listChanged('resources');
    }
    // The acknowledgement and the first change were written (the second filled the buffer); everything after waits, coalesced.
    expect(methods(stream)).to.deep.equal(['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed']);
    stream.reading = true;
    handle.drained();
    expect(methods(stream).slice(2)).to.have.members([
      'notifications/tools/list_changed',
      'notifications/prompts/list_changed',
      'notifications/resources/list_changed',
    ]);
    expect(stream.written).to.have.length(5);
    handle.closed();
  });

  it('tools/list_changed reaches a listen only when its view of the catalogue changed', async () => {
    const narrow = await open('narrow', { 'x-toolset': 'a' });
    const whole = await open('whole');
    // Server b lists again: its entries are replaced, server a's stay as they are (catalogue.ts replaces one source at a time).
    const a = catalogue[0]!;
    catalogue = [a, entry('x_b_two', 'b')];
    await listens.listChanged('tools');
    expect(methods(narrow.stream)).to.deep.equal(['notifications/subscriptions/acknowledged']);
    expect(methods(whole.stream)).to.deep.equal(['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed']);
    catalogue = [entry('x_a_one', 'a'), entry('x_a_two', 'a'), catalogue[1]!];
    await listens.listChanged('tools');
    expect(methods(narrow.stream)).to.deep.equal(['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed']);
    narrow.handle.closed();
    whole.handle.closed();
  });

  it('a caller holds at most perCaller listens; a closed one frees its place; graceful end writes the result', async () => {
    const held = await Promise.all([1, 2, 3, 4].map((i) => open(`l${i}`, {}, '10.0.0.9')));
    const stream = new FakeStream();
    const refused = await listens.listen(
      { id: 'l5', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } },
      envelope,
      { kind: 'streamable-http', headers: {}, clientAddress: '10.0.0.9' },
      stream,
      { perCaller: 4, total: 8 },
    );
    expect(refused.kind).to.equal('refused');
    expect(stream.written).to.deep.equal([]);
    held[0]!.handle.closed();
    const fifth = await open('l5', {}, '10.0.0.9');
    fifth.handle.end();
    expect(fifth.stream.written.at(-1)).to.deep.include({ id: 'l5' });
    expect(fifth.stream.ended).to.equal(true);
    for (const h of held.slice(1)) h.handle.closed();
    expect(listens.size).to.equal(0);
  });
});
