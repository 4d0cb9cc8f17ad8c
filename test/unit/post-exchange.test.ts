/**
 * One POST's exchange when the client cancels some of its requests: a cancelled request is not
 * answered, and the POST ends once every other request is (a batch of a 2025-03-26 session, or
 * a single request), on a real node:http response read with fetch.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { StreamKeepAlive } from '../../lib/http/stream-keep-alive.js';
import { PostExchange } from '../../plugins/transport-streamable-http/post-exchange.js';

const answer = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { n: id } });

describe('a POST exchange whose requests are cancelled', () => {
  let server: Server;
  let url: string;
  /** Runs `drive` on the exchange of the next POST, made for `ids` (a batch when more than one). */
  let next: (exchange: PostExchange) => void;
  const keptAlive = new StreamKeepAlive(3_600_000);

  before(async () => {
    server = createServer((req, res) => {
      const ids = JSON.parse(req.headers['x-ids'] as string) as number[];
      next(new PostExchange(res, ids, ids.length > 1, {}, () => undefined, keptAlive));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => {
    keptAlive.stop();
    server.close();
  });

  async function exchange(ids: number[], drive: (exchange: PostExchange) => void): Promise<{ type: string | null; body: string }> {
    next = drive;
    const res = await fetch(url, { method: 'POST', headers: { 'x-ids': JSON.stringify(ids) } });
    return { type: res.headers.get('content-type'), body: await res.text() };
  }

  it('a batch with one request cancelled and the other answered ends with that one answer, in JSON', async () => {
    const r = await exchange([1, 2], (e) => {
      e.cancel(1);
      e.respond(answer(2));
    });
    expect(r.type).to.equal('application/json');
    expect(JSON.parse(r.body)).to.deep.equal([answer(2)]);
  });

  it("an answer that comes after its request's cancellation is not sent, nor counted for another request", async () => {
    const r = await exchange([1, 2], (e) => {
      e.cancel(1);
      e.respond(answer(1));
      // The exchange still waits for request 2: answered, it ends with that answer only.
      setImmediate(() => e.respond(answer(2)));
    });
    expect(JSON.parse(r.body)).to.deep.equal([answer(2)]);
  });

  it('every request cancelled: an event stream with nothing in it, ended at once', async () => {
    const r = await exchange([7], (e) => e.cancel(7));
    expect(r.type).to.equal('text/event-stream');
    expect(r.body).to.equal('');
  });

  it('cancelled once it is a stream: the events already sent, then the end', async () => {
    const progress: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } };
    const r = await exchange([3], (e) => {
      e.notify(progress);
      e.cancel(3);
      e.cancel(3);
    });
    expect(r.type).to.equal('text/event-stream');
    expect(r.body).to.equal(`event: message\ndata: ${JSON.stringify(progress)}\n\n`);
  });

  it('a cancellation naming a request of another exchange changes nothing here', async () => {
    const r = await exchange([4], (e) => {
      e.cancel(5);
      e.respond(answer(4));
    });
    expect(JSON.parse(r.body)).to.deep.equal(answer(4));
  });
});
