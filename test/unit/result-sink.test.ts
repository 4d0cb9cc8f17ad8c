/**
 * A relayed result answered at once (kernel/tools.ts, ResultSink): the layers a call_tool
 * result passes on its way up hand it to the caller's sink the moment the upstream's answer is
 * read, each with the change it makes to the result anyway, and only where the result is the
 * tool's own. The real path, from a client's POST to its answer: test/e2e/answer-at-once.test.ts.
 */
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { Cancellation } from '../../kernel/cancellation.js';
import { Catalogue } from '../../kernel/catalogue.js';
import { createHooks } from '../../kernel/hooks.js';
import { ToolInvoker } from '../../kernel/invoke.js';
import { createLogger } from '../../kernel/log.js';
import { SecretScrubber } from '../../kernel/secrets/scrubber.js';
import type { Session } from '../../kernel/sessions.js';
import type { CallContext, ResultSink, ToolDefinition } from '../../kernel/tools.js';
import { DirectCalls } from '../../plugins/upstreams/client/direct-calls.js';
import { earlyComplete } from '../../plugins/upstreams/client/modern-results.js';

const call = (): CallContext => ({
  request: { session: {} as Session, headers: {}, slots: new Map() },
  cancellation: new Cancellation(),
  depth: 0,
});

/** A tool that hands `result` to whatever sink it is given before answering with it. */
function relaying(name: string, result: CallToolResult, relaysResult: boolean): ToolDefinition & { sinks: (ResultSink | undefined)[] } {
  const sinks: (ResultSink | undefined)[] = [];
  return {
    name,
    kind: 'tool',
    server: 's',
    description: name,
    inputSchema: { type: 'object' },
    ...(relaysResult ? { relaysResult: true as const } : {}),
    sinks,
    invoke: (_args, _call, sink) => {
      sinks.push(sink);
      sink?.(result);
      return Promise.resolve(result);
    },
  };
}

function invoker(secrets?: SecretScrubber): { catalogue: Catalogue; invoker: ToolInvoker } {
  const hooks = createHooks();
  const log = createLogger({ level: 'error', sink: { write: () => undefined } });
  const catalogue = new Catalogue(hooks, log);
  return { catalogue, invoker: new ToolInvoker(catalogue, hooks, log, secrets) };
}

/** DirectCalls over a transport that only records what it sends. */
function directCalls(): { direct: DirectCalls; sent: JSONRPCMessage[] } {
  const sent: JSONRPCMessage[] = [];
  const transport = { start: async () => undefined, close: async () => undefined, send: async (m: JSONRPCMessage) => void sent.push(m) };
  return { direct: new DirectCalls(transport), sent };
}

describe('a relayed result answered at once (ResultSink)', () => {
  describe('the invoker', () => {
    it('gives the sink only to a tool that relays its result as it is, and never unasked', async () => {
      const { catalogue, invoker: tools } = invoker();
      const relay = relaying('x_s_relay', { content: [{ type: 'text', text: 'r' }] }, true);
      const composed = relaying('x_s_composed', { content: [{ type: 'text', text: 'c' }] }, false);
      catalogue.replaceSource('server:s', [relay, composed]);
      const heard: CallToolResult[] = [];
      const sink: ResultSink = (r) => void heard.push(r);
      await tools.call('x_s_relay', {}, call(), sink);
      await tools.call('x_s_composed', {}, call(), sink);
      await tools.call('x_s_relay', {}, call());
      expect(relay.sinks.map((s) => s !== undefined)).to.deep.equal([true, false]);
      expect(composed.sinks).to.deep.equal([undefined]);
      expect(heard).to.deep.equal([{ content: [{ type: 'text', text: 'r' }] }]);
    });

    it('hands the sink what the call returns: known secrets scrubbed out', async () => {
      const secrets = new SecretScrubber();
      secrets.add('hunter2-hunter2');
      const { catalogue, invoker: tools } = invoker(secrets);
      catalogue.replaceSource('server:s', [relaying('x_s_leak', { content: [{ type: 'text', text: 'token hunter2-hunter2' }] }, true)]);
      const heard: CallToolResult[] = [];
      const returned = await tools.call('x_s_leak', {}, call(), (r) => void heard.push(r));
      expect(heard).to.have.length(1);
      expect(JSON.stringify(heard[0])).not.to.include('hunter2-hunter2');
      expect(heard[0]).to.deep.equal(returned);
    });
  });

  describe('a direct call', () => {
    it('hands the result on while its answer is taken, before the call settles', async () => {
      const { direct, sent } = directCalls();
      const heard: string[] = [];
      const id = direct.nextId();
      const calling = direct.call(id, { name: 't' }, new Cancellation(), 60_000, undefined, () => void heard.push('early'));
      void calling.then(() => heard.push('settled'));
      expect(sent).to.have.length(1);
      expect(direct.take({ jsonrpc: '2.0', id, result: { content: [] } })).to.equal(true);
      expect(heard).to.deep.equal(['early']);
      await calling;
      expect(heard).to.deep.equal(['early', 'settled']);
    });

    it('hands on neither an error answer nor a result that is not an object, and a failing sink fails nothing', async () => {
      const { direct } = directCalls();
      const heard: unknown[] = [];
      const failed = direct.nextId();
      const refused = direct.call(failed, {}, new Cancellation(), 60_000, undefined, (r) => void heard.push(r));
      direct.take({ jsonrpc: '2.0', id: failed, error: { code: -32000, message: 'no' } });
      await refused.catch(() => undefined);
      const odd = direct.nextId();
      const oddCall = direct.call(odd, {}, new Cancellation(), 60_000, undefined, (r) => void heard.push(r));
      direct.take({ jsonrpc: '2.0', id: odd, result: 'a string' } as unknown as JSONRPCMessage);
      expect(await oddCall).to.equal('a string');
      expect(heard).to.deep.equal([]);
      const throwing = direct.nextId();
      const thrown = direct.call(throwing, {}, new Cancellation(), 60_000, undefined, () => {
        throw new Error('the sink broke');
      });
      direct.take({ jsonrpc: '2.0', id: throwing, result: { content: [] } });
      expect(await thrown).to.deep.equal({ content: [] });
    });
  });

  describe("a modern upstream's result", () => {
    it('is handed on complete, as callTool returns it, leaving the answer itself to be judged', () => {
      const heard: CallToolResult[] = [];
      const early = earlyComplete((r) => void heard.push(r));
      const answer = { resultType: 'complete', ttlMs: 5, content: [], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'up' }, trace: 'x' } };
      early(answer);
      expect(heard).to.deep.equal([{ content: [], _meta: { trace: 'x' } }]);
      expect(answer.resultType).to.equal('complete');
      expect(answer._meta).to.have.property('io.modelcontextprotocol/serverInfo');
    });

    it('is not handed on while it asks for input: the call goes on to its next round', () => {
      const heard: CallToolResult[] = [];
      earlyComplete((r) => void heard.push(r))({ resultType: 'input_required', requestState: 's' });
      expect(heard).to.deep.equal([]);
    });
  });
});
