/**
 * A 2026-07-28 client's `requestState` (multi round-trip, kernel/mcp/server/input-rounds.ts)
 * comes back from the client: an altered or forged one, one presented for another tool, or
 * one whose call has already ended must answer nothing to the upstream's pending question.
 */
import { expect } from 'chai';
import { startAskingServers, type AskingServers } from '../support/asking-servers.js';
import { callOnWire } from '../support/modern-wire.js';

describe('requestState of input_required rounds cannot be forged, moved or replayed', function () {
  this.timeout(60_000);
  let servers: AskingServers | undefined;
  let url: string;

  before(async () => {
    servers = await startAskingServers();
    url = servers.sb.url;
  });

  after(() => servers?.stop([]));

  it('an altered state, the state of another tool and a spent state are each -32602; the rightful retry still works once', async () => {
    const first = await callOnWire(url, 1, 'x_ask_ask_name');
    const key = Object.keys(first.result!.inputRequests!)[0]!;
    const state = first.result!.requestState!;
    const answer = (name: string) => ({ [key]: { action: 'accept', content: { name } } });

    const altered = `${state.slice(0, -6)}${state.slice(-6).split('').reverse().join('')}`;
    const refused = await callOnWire(url, 2, 'x_ask_ask_name', { inputResponses: answer('mallory'), requestState: altered });
    expect(refused.error?.code).to.equal(-32602);
    expect(refused.error?.message).to.match(/not issued by this Switchboard/);

    const forged = Buffer.from(JSON.stringify({ run: 'x', caller: 'addr:127.0.0.1', tool: 'call_tool' })).toString('base64url');
    expect((await callOnWire(url, 3, 'x_ask_ask_name', { inputResponses: answer('mallory'), requestState: forged })).error?.code).to.equal(-32602);

    // The same sealed state presented on a call of another tool (the tool name is bound in).
    const moved = await fetchOtherTool(url, state, answer('mallory'));
    expect(moved.error?.code).to.equal(-32602);
    expect(moved.error?.message).to.match(/another caller or another tool/);

    const answered = await callOnWire(url, 5, 'x_ask_ask_name', { inputResponses: answer('cy'), requestState: state });
    expect(JSON.stringify(answered.result?.content)).to.include('hello cy');

    const spent = await callOnWire(url, 6, 'x_ask_ask_name', { inputResponses: answer('again'), requestState: state });
    expect(spent.error?.code).to.equal(-32602);
    expect(spent.error?.message).to.match(/ended/);
  });
});

/** A tools/call of `list_servers` (not call_tool) carrying a requestState issued for call_tool. */
async function fetchOtherTool(
  url: string,
  requestState: string,
  inputResponses: Record<string, unknown>,
): Promise<{ error?: { code: number; message: string } }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'list_servers',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: {
        name: 'list_servers',
        arguments: {},
        inputResponses,
        requestState,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
      },
    }),
  });
  return (await res.json()) as { error?: { code: number; message: string } };
}
