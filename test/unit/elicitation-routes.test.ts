import { expect } from 'chai';
import type { ClientChannel } from '../../kernel/index.js';
import { ElicitationRoutes, MAX_ROUTES, ROUTE_TTL_MS } from '../../plugins/upstreams/client/elicitation-routes.js';
import { MAX_ELICITATIONS, readUrlElicitations } from '../../plugins/upstreams/client/url-elicitation-check.js';
import { refusal } from '../../plugins/upstreams/client/relay-admission.js';
import { MAX_WAITING, SignInElicitations, WAIT_MS } from '../../plugins/auth-client/sign-in-elicitations.js';

/** A client that records what it was told; the expiry and bound rules need a clock, not a session. */
function recordingClient(told: string[] = []): ClientChannel {
  return {
    capabilities: () => ({ elicitation: { url: {} } }),
    request: () => Promise.resolve({ action: 'accept' }),
    log: () => Promise.resolve(),
    notify: (_method, params) => {
      told.push(String(params.elicitationId));
      return Promise.resolve();
    },
  };
}

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined } as never;

describe('URL-mode elicitation bookkeeping: bounded, expiring, once', () => {
  it('routes a completion once, under the id the client was given', () => {
    const routes = new ElicitationRoutes();
    const client = recordingClient();
    const id = routes.open('up-1', client);
    expect(id).to.not.equal('up-1');
    expect(routes.complete('up-1')).to.deep.equal({ id, client });
    expect(routes.complete('up-1')).to.equal(undefined);
    expect(routes.complete('never-opened')).to.equal(undefined);
  });

  it('forgets a route after its TTL, and keeps at most MAX_ROUTES (the oldest go first)', () => {
    let now = 0;
    const routes = new ElicitationRoutes(() => now);
    const client = recordingClient();
    routes.open('old', client);
    now = ROUTE_TTL_MS;
    expect(routes.complete('old')).to.equal(undefined);

    for (let i = 0; i < MAX_ROUTES + 50; i++) routes.open(`id-${i}`, client);
    expect(routes.size).to.equal(MAX_ROUTES);
    expect(routes.complete('id-0')).to.equal(undefined);
    expect(routes.complete(`id-${MAX_ROUTES + 49}`)).to.not.equal(undefined);
  });

  it("keeps core_auth_login's waiting clients bounded and expiring too, and tells each once", () => {
    let now = 0;
    const told: string[] = [];
    const waiting = new SignInElicitations(silent, () => now);
    const client = recordingClient(told);
    const first = waiting.expect(client);
    waiting.completed(first);
    waiting.completed(first);
    expect(told).to.deep.equal([first]);

    const late = waiting.expect(client);
    now = WAIT_MS;
    waiting.completed(late);
    expect(told).to.deep.equal([first]);

    const ids = Array.from({ length: MAX_WAITING + 1 }, () => waiting.expect(client));
    waiting.completed(ids[0]!);
    expect(told).to.deep.equal([first]);
    waiting.completed(ids[MAX_WAITING]!);
    expect(told).to.deep.equal([first, ids[MAX_WAITING]]);
  });

  it("refuses a -32042 answer's pages when there are too many, none, or one is not a web page", () => {
    const page = (url: string, id = 'p') => ({ mode: 'url', elicitationId: id, url, message: 'm' });
    expect(readUrlElicitations({ elicitations: [] })).to.equal('its data carries no elicitations');
    expect(readUrlElicitations(undefined)).to.equal('its data carries no elicitations');
    expect(readUrlElicitations({ elicitations: Array.from({ length: MAX_ELICITATIONS + 1 }, () => page('https://a.example')) })).to.equal(
      `it asks for ${MAX_ELICITATIONS + 1} pages, more than the limit of ${MAX_ELICITATIONS}`,
    );
    expect(readUrlElicitations({ elicitations: [page('https://a.example'), page('vbscript:x')] })).to.equal(
      "elicitations[1]: url has the scheme 'vbscript'; only http and https are relayed",
    );
    expect(readUrlElicitations({ elicitations: [page('https://a.example', 'x'.repeat(257))] })).to.equal(
      'elicitations[0]: elicitationId is 257 characters, more than the limit of 256',
    );
    expect(readUrlElicitations({ elicitations: [{ ...page('https://a.example'), message: 'm'.repeat(4097) }] })).to.equal(
      'elicitations[0]: message is 4097 characters, more than the limit of 4096',
    );
    expect(readUrlElicitations({ elicitations: [page('https://a.example/x')] })).to.deep.equal([page('https://a.example/x')]);
  });

  it('judges a relayed request by the capability and by what it asks beyond it', () => {
    expect(refusal('s', 'roots/list', undefined, {})?.code).to.equal(-32601);
    expect(refusal('s', 'roots/list', undefined, { roots: {} })).to.equal(undefined);
    expect(refusal('s', 'sampling/createMessage', { toolChoice: { mode: 'none' } }, { sampling: {} })?.message).to.include("'sampling.tools'");
    expect(refusal('s', 'sampling/createMessage', { tools: [] }, { sampling: { tools: {} } })).to.equal(undefined);
    expect(refusal('s', 'elicitation/create', { mode: 'telepathy' }, { elicitation: { form: {}, url: {} } })?.message).to.equal(
      `elicitation/create from 's' has mode "telepathy"; the modes are 'form' and 'url'`,
    );
    expect(refusal('s', 'elicitation/create', { message: 'm', requestedSchema: {} }, { elicitation: {} })).to.equal(undefined);
  });
});
