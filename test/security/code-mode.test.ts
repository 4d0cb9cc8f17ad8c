/**
 * run_code's script is hostile input. Through the real protocol: escapes to the host
 * (constructor.constructor, globals), prototype pollution of the bridge, huge strings and
 * arguments, deep recursion, promise and call floods, reentrancy into run_code, and core tools
 * the caller may not call (a toolset; the built-in roles with OAuth for a non-administrator).
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { failedCalls, limitOf, ran, runCode } from '../support/code-mode.js';
import { callTool, connectHttp, errorCode, EVERYTHING, startSwitchboard, stdioServer, text, type Running } from '../support/harness.js';
import { mcpClient, protectedForSuite, registerClient, signIn, type OAuthSetup } from '../support/oauth-setup.js';

const OPTIONS = { cpuMs: 1000, wallMs: 6000, memoryBytes: 16 << 20, stackBytes: 256 << 10, maxCalls: 10, maxScriptsPerCaller: 4, workers: 1 };
const CODE_MODE = `plugins:\n  code-mode:\n    enabled: true\n    options: ${JSON.stringify(OPTIONS)}\n`;

describe('security: run_code scripts are hostile input', function () {
  this.timeout(90_000);
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard({
      'config.yaml': `aggregator:\n  limits:\n    maxArgumentBytes: 65536\n${CODE_MODE}`,
      'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING),
    });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('has no host: no process, require, module loading, network, timers or bridge functions in scope', async () => {
    const code = `
      const g = [].constructor.constructor('return this')();
      const names = ['process', 'require', 'module', 'fetch', 'XMLHttpRequest', 'setTimeout', 'setInterval', 'queueMicrotask', 'WebAssembly', 'std', 'os', 'host', 'log', '__sb_host', 'Buffer'];
      const present = names.filter((n) => typeof g[n] !== 'undefined');
      let reached;
      try { reached = tools.list.constructor('return typeof process')(); } catch (e) { reached = e.name; }
      let imported;
      try { await import('fs'); imported = 'yes'; } catch (e) { imported = e.name; }
      return { present, reached, imported, same: g === globalThis };
    `;
    const out = ran(await runCode(client, code));
    expect(out.result).to.deep.include({ present: [], reached: 'undefined', same: true });
    expect((out.result as { imported: string }).imported).to.not.equal('yes');
  });

  it('polluting prototypes and JSON spoils only the script: the bridge and the next script are untouched', async () => {
    const code = `
      Object.prototype.polluted = 'yes';
      Array.prototype.map = () => { throw new Error('hijacked'); };
      JSON.stringify = () => '{"message":"forged"}';
      JSON.parse = () => ({ ok: true, value: 'forged' });
      const args = Object.assign(Object.create({ inherited: 1 }), { message: 'real' });
      args['__proto__'] = { admin: true };
      return await tools.x_everything_echo(args);
    `;
    const out = ran(await runCode(client, code));
    expect(out.result).to.equal('Echo: real');
    const next = ran(await runCode(client, 'return [({}).polluted, typeof Array.prototype.map, JSON.stringify({a: 1})]'));
    expect(next.result).to.deep.equal([null, 'function', '{"a":1}']);
    // A key __proto__ sent as data reaches the host as data and is refused by the tool's schema like any extra key.
    const forged = await runCode(client, `return await tools.call('x_everything_echo', JSON.parse('{"message":"m","__proto__":{"admin":true}}'))`);
    expect(text(forged)).to.not.match(/admin/);
  });

  it('huge strings end at the memory limit, and huge arguments at maxArgumentBytes', async () => {
    expect(limitOf(await runCode(client, "return 'x'.repeat(1 << 28).length;"))).to.equal('memoryBytes');
    const r = ran(await runCode(client, "try { await tools.x_everything_echo({ message: 'y'.repeat(100000) }); } catch (e) { return e.code; }"));
    expect(r.result).to.equal('TOO_LARGE');
  });

  it('tools.search reads a query of at most 4,096 characters, as filter_tools does: a longer one is refused before it is read', async () => {
    const r = ran(
      await runCode(
        client,
        "const at = await tools.search('echo '.repeat(819) + 'x', 1); try { await tools.search('echo '.repeat(20000), 1); } catch (e) { return [at.length, e.code, e.message]; }",
      ),
    );
    const [found, code, message] = r.result as [number, string, string];
    expect(found).to.equal(1);
    expect(code).to.equal('INVALID_ARGUMENTS');
    expect(message).to.match(/query must NOT have more than 4096 characters/);
  });

  it('deep recursion ends at the stack limit, also when the script catches the overflow and recurses again', async () => {
    expect(limitOf(await runCode(client, 'function f() { return f() + 1; } return f();'))).to.equal('stackBytes');
    // Each caught overflow builds its error at full depth, between two looks of the interrupt
    // handler: the wall-time backstop (the worker replaced) ends it when the CPU count cannot.
    // The script's own timeoutSeconds lowers that backstop below the configured 6 s, which is
    // set for the floods below: the worker spins until it, and the suite's cores with it.
    const caught = await runCode(client, 'function f() { try { return f() + 1; } catch (e) { return f(); } } return f();', { timeoutSeconds: 2 });
    expect(['stackBytes', 'cpuMs', 'wallMs']).to.include(limitOf(caught));
  });

  it('promise floods end at a limit; a call flood makes no more calls than maxCalls', async () => {
    // On a loaded machine the worker may get less than cpuMs of CPU within wallMs: the
    // wall-time backstop then ends the flood first (seen once in the parallel pass).
    const floodLimits = ['cpuMs', 'memoryBytes', 'wallMs'];
    expect(floodLimits).to.include(limitOf(await runCode(client, 'for (;;) Promise.resolve().then(() => 0);')));
    // A reaction that queues the next one forever, holding nothing: only the CPU budget can end it.
    const endless = await runCode(client, 'const spin = () => { Promise.resolve().then(spin); }; spin(); await new Promise(() => {});');
    expect(['cpuMs', 'wallMs']).to.include(limitOf(endless));
    // Each resolved with the next, nothing awaiting the first: garbage the engine's collector may
    // or may not reclaim before the memory fills, so either budget may end it, but one does.
    expect(floodLimits).to.include(limitOf(await runCode(client, 'const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {});')));
    const flood = await runCode(client, "for (let i = 0; i < 100000; i++) tools.x_everything_echo({ message: 'f' }); await new Promise(() => {});");
    expect(limitOf(flood)).to.equal('maxCalls');
    expect(failedCalls(flood).length).to.be.at.most(OPTIONS.maxCalls);
  });

  it('run_code cannot reenter itself: it is no catalogue tool', async () => {
    const out = ran(
      await runCode(
        client,
        "let code; try { await tools.call('run_code', { code: 'return 1' }); } catch (e) { code = e.code; } return [typeof tools.run_code, code];",
      ),
    );
    expect(out.result).to.deep.equal(['undefined', 'TOOL_NOT_FOUND']);
  });

  it('a script that awaits forever ends at once rather than holding its slot to the wall time', async () => {
    const r = await runCode(client, 'await new Promise(() => {});');
    expect(errorCode(r), text(r)).to.equal('CODE_FAILED');
    expect(text(r)).to.match(/nothing can settle/);
  });

  it('a toolset without core tools leaves them out of the API and refuses them through tools.call', async () => {
    const narrowed = await connectHttp(sb.url, { 'X-Service-Toolset': 'server:everything' });
    try {
      const code =
        "let code; try { await tools.call('core_config_get', {}); } catch (e) { code = e.code; } return [tools.list().filter((n) => n.startsWith('core_')).length, code];";
      expect(ran(await runCode(narrowed, code)).result).to.deep.equal([0, 'OUTSIDE_TOOLSET']);
    } finally {
      await narrowed.close();
    }
  });
});

describe('security: a chain of promise reactions that fills the memory ends at memoryBytes', function () {
  this.timeout(90_000);
  // CPU to spare, so that running out of memory (about a second of CPU on an idle machine) is
  // what ends each flood here, whatever the machine.
  const ROOMY = { ...OPTIONS, cpuMs: 30_000, wallMs: 60_000 };
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard({ 'config.yaml': `plugins:\n  code-mode:\n    enabled: true\n    options: ${JSON.stringify(ROOMY)}\n` });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  // Each reaction resolves its promise with the next one, and the script awaits the first, so the
  // chain holds memory until an allocation fails inside a reaction. That failure rejects only the
  // chain's own promises (with null: QuickJS cannot allocate its error either), and the chain is
  // freed at once; the sandbox watches a flood while it grows (sandbox-worker.ts, JOBS_PER_LOOK)
  // to say why it ended.
  it('awaited: the script ends with memoryBytes, not "thrown: null"', async () => {
    expect(limitOf(await runCode(client, 'const spin = () => Promise.resolve().then(spin); await spin();'))).to.equal('memoryBytes');
  });

  it('a script that throws null itself, or awaits forever without a flood, is still told so', async () => {
    const thrown = await runCode(client, 'throw null;');
    expect(errorCode(thrown), text(thrown)).to.equal('CODE_FAILED');
    expect(text(thrown)).to.match(/thrown: null/);
    const waiting = await runCode(client, 'await new Promise(() => {});');
    expect(text(waiting)).to.match(/nothing can settle/);
    expect(ran(await runCode(client, 'return 1 + 1')).result).to.equal(2);
  });
});

describe('security: run_code runs with the caller’s rights (built-in roles, OAuth)', function () {
  this.timeout(90_000);
  const setup = protectedForSuite({
    serverYaml: `        scopes: [openid, profile, email, groups, offline_access]\nauthorization:\n  admins: ['group:platform']\n${CODE_MODE}`,
  });
  let bob: Client;

  before(async () => {
    const s: OAuthSetup = setup();
    s.idp.signInAs('bob');
    try {
      bob = await mcpClient(s.sb.url, (await signIn(s.base, await registerClient(s.base))).access_token);
    } finally {
      s.idp.signInAs('alice');
    }
  });
  after(async () => {
    await bob?.close();
  });

  it("a non-administrator's script does not see admin core tools, is refused them as unknown, and the denial is audited", async () => {
    const code = `
      let refused;
      try { await tools.call('core_mcpserver_create', { name: 'evil', type: 'stdio', command: ['sh'] }); } catch (e) { refused = e.code; }
      return { listed: 'core_mcpserver_create' in tools, refused, pings: typeof tools.x_tools_ping };
    `;
    expect(ran(await runCode(bob, code)).result).to.deep.equal({ listed: false, refused: 'TOOL_NOT_FOUND', pings: 'function' });
    await setup().sb.waitForLog(/audit: denied bob@example\.com call on tool 'core_mcpserver_create' \[rule: built-in:admins-only\]/);
    // The same call straight through call_tool answers the same: run_code adds no right.
    expect(errorCode(await callTool(bob, 'core_mcpserver_create', { name: 'evil', type: 'stdio', command: ['sh'] }))).to.equal('TOOL_NOT_FOUND');
  });
});
