import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  CLI,
  connectHttpWithHeaders,
  errorCode,
  eventually,
  EVERYTHING,
  makeConfigDir,
  meta,
  metaRaw,
  startSwitchboard,
  stdioServer,
  TEST_SERVER,
  text,
  type Running,
} from '../support/harness.js';

const PRESETS = `toolsetPresets:
  fixture-safe:
    description: The fixture without its dangerous tool
    include:
      - server: fixture
    exclude:
      - tool: x_fx_crash
  adders-and-pingers:
    include:
      - pattern: "x_fx_[ap]*"
  readers:
    include:
      - readOnly: true
  team:
    description: Composed
    include:
      - preset: adders-and-pingers
      - server: everything
    exclude:
      - pattern: "*get-*"
  late:
    include:
      - pattern: "x_late_*"
`;

interface Listed {
  tools: { name: string }[];
  total: number;
  toolset?: string[];
}

describe('toolsets: presets and X-Service-Toolset, enforced on execution', () => {
  let sb: Running;
  let client: Client;
  let setHeaders: (h: Record<string, string>) => void;

  const names = async (args: Record<string, unknown> = {}) => (await meta<Listed>(client, 'list_tools', { limit: 500, ...args })).tools.map((t) => t.name);

  before(async () => {
    sb = await startSwitchboard({
      'config.yaml': PRESETS,
      'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING, ['stdio']),
      'mcpservers/fixture.yaml': stdioServer('fixture', TEST_SERVER, [], 'toolPrefix: fx\n'),
    });
    ({ client, setHeaders } = await connectHttpWithHeaders(sb.url));
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });
  afterEach(() => setHeaders({}));

  it('changes nothing without the header', async () => {
    const all = await names();
    expect(all).to.include.members(['x_fx_ping', 'x_fx_crash', 'x_everything_echo']);
  });

  it('narrows every discovery meta-tool to a server rule with exclude winning', async () => {
    setHeaders({ 'X-Service-Toolset': 'preset:fixture-safe' });
    const listed = await meta<Listed>(client, 'list_tools', { limit: 500 });
    expect(listed.toolset).to.deep.equal(['preset:fixture-safe']);
    const n = listed.tools.map((t) => t.name);
    expect(n).to.include('x_fx_ping');
    expect(n).to.not.include('x_fx_crash');
    expect(n.every((t) => t.startsWith('x_fx_'))).to.equal(true);
    const filtered = await meta<Listed>(client, 'filter_tools', { pattern: 'x_*', limit: 500 });
    expect(filtered.tools.map((t) => t.name).sort()).to.deep.equal([...n].sort());
    const servers = await meta<{ servers: { name: string }[] }>(client, 'list_servers');
    expect(servers.servers.map((s) => s.name)).to.deep.equal(['fixture']);
    const described = await metaRaw(client, 'describe_tool', { name: 'x_everything_echo' });
    expect(errorCode(described)).to.equal('OUTSIDE_TOOLSET');
  });

  it('selects by glob pattern', async () => {
    setHeaders({ 'X-Service-Toolset': 'preset:adders-and-pingers' });
    expect((await names()).sort()).to.deep.equal(['x_fx_add', 'x_fx_ping']);
  });

  it('selects read-only tools with readOnly: true and with the built-in read-only preset', async () => {
    setHeaders({ 'X-Service-Toolset': 'preset:readers' });
    const n = await names();
    expect(n).to.include.members(['x_fx_ping', 'x_fx_add']);
    expect(n).to.not.include('x_fx_slow');
    setHeaders({ 'X-Service-Toolset': 'preset:read-only' });
    expect((await names()).sort()).to.deep.equal([...n].sort());
  });

  it('composes presets, and the composition also honours exclude', async () => {
    setHeaders({ 'X-Service-Toolset': 'preset:team' });
    const n = await names();
    expect(n).to.include.members(['x_fx_add', 'x_fx_ping', 'x_everything_echo']);
    expect(n.some((t) => t.includes('get-'))).to.equal(false);
    expect(n).to.not.include('x_fx_slow');
  });

  it('unions inline selectors of several kinds', async () => {
    setHeaders({ 'X-Service-Toolset': ' tool:x_everything_echo , server:fixture ' });
    const n = await names();
    expect(n).to.include.members(['x_everything_echo', 'x_fx_crash']);
    expect(n.filter((t) => t.startsWith('x_everything_'))).to.deep.equal(['x_everything_echo']);
  });

  it('built-ins: none shows nothing, full shows everything', async () => {
    const all = await names();
    setHeaders({ 'X-Service-Toolset': 'preset:none' });
    expect(await names()).to.deep.equal([]);
    const { tools } = await client.listTools();
    expect(tools).to.have.length(13);
    setHeaders({ 'X-Service-Toolset': 'preset:full' });
    expect(await names()).to.deep.equal(all);
  });

  it('refuses call_tool outside the toolset with the decided message', async () => {
    setHeaders({ 'X-Service-Toolset': 'preset:adders-and-pingers, server:nowhere' });
    const refused = await callTool(client, 'x_everything_echo', { message: 'hi' });
    expect(refused.isError).to.equal(true);
    expect(errorCode(refused)).to.equal('OUTSIDE_TOOLSET');
    expect(text(refused)).to.equal("Tool 'x_everything_echo' is outside the toolset [preset:adders-and-pingers, server:nowhere]");
    const allowed = await callTool(client, 'x_fx_add', { a: 2, b: 2 });
    expect(text(allowed)).to.equal('4');
    const batch = await meta<{ results: { isError?: boolean }[] }>(client, 'call_tools', {
      calls: [{ name: 'x_fx_ping' }, { name: 'x_everything_echo', arguments: { message: 'x' } }],
    });
    expect(batch.results.map((r) => r.isError === true)).to.deep.equal([false, true]);
  });

  it('reads the header per request, not per session', async () => {
    setHeaders({ 'X-Service-Toolset': 'server:fixture' });
    expect((await callTool(client, 'x_everything_echo', { message: 'a' })).isError).to.equal(true);
    setHeaders({});
    expect(text(await callTool(client, 'x_everything_echo', { message: 'b' }))).to.equal('Echo: b');
  });

  it('resolves the filter_tools toolset argument within the header, never wider', async () => {
    setHeaders({ 'X-Service-Toolset': 'server:fixture' });
    const outside = await meta<Listed & { toolset_unmatched: string[]; presets: unknown[] }>(client, 'filter_tools', {
      toolset: ['server:everything'],
      limit: 50,
    });
    expect(outside.tools).to.deep.equal([]);
    expect(outside.toolset).to.deep.equal(['server:everything']);
    expect(outside.toolset_unmatched).to.deep.equal(['server:everything']);
    expect(outside.presets).to.be.an('array');
    const inside = await meta<Listed & { toolset_unmatched: string[] }>(client, 'filter_tools', { toolset: ['tool:x_fx_ping', 'preset:none'], limit: 50 });
    expect(inside.tools.map((t) => t.name)).to.deep.equal(['x_fx_ping']);
    expect(inside.toolset_unmatched).to.deep.equal(['preset:none']);
  });

  it('echoes the header in filter_tools and lists presets on request', async () => {
    setHeaders({ 'X-Service-Toolset': 'preset:readers' });
    const r = await meta<{ toolset: string[]; presets: { name: string; built_in: boolean; description: string }[] }>(client, 'filter_tools', {
      include_presets: true,
    });
    expect(r.toolset).to.deep.equal(['preset:readers']);
    expect(
      r.presets
        .filter((p) => p.built_in)
        .map((p) => p.name)
        .sort(),
    ).to.deep.equal(['full', 'none', 'read-only']);
    expect(r.presets.find((p) => p.name === 'team')).to.deep.equal({ name: 'team', description: 'Composed', built_in: false });
  });

  for (const [header, reason] of [
    ['', /empty/],
    ['preset:nope', /unknown preset 'nope'/],
    ['toolset:mine', /reserved/],
    ['label:team=a', /'label:' selects only inside presets/],
    [Array.from({ length: 33 }, (_, i) => `tool:t${i}`).join(','), /33 selectors, at most 32/],
    ['server', /malformed/],
    ['colour:blue', /unknown kind 'colour'/],
    ['server:a,,server:b', /empty selector/],
  ] as const) {
    it(`refuses an invalid toolset on every meta-tool call: '${header.slice(0, 30)}'`, async () => {
      setHeaders({ 'X-Service-Toolset': header });
      for (const [tool, args] of [
        ['list_tools', {}],
        ['call_tool', { name: 'x_fx_ping' }],
        ['describe_tool', { name: 'x_fx_ping' }],
        ['filter_tools', {}],
      ] as const) {
        const r = await metaRaw(client, tool, args);
        expect(r.isError, tool).to.equal(true);
        expect(errorCode(r), tool).to.equal('INVALID_TOOLSET');
        expect(text(r), tool).to.match(reason);
      }
    });
  }

  it('rejects invalid inline selectors in the filter_tools argument too', async () => {
    const r = await metaRaw(client, 'filter_tools', { toolset: ['label:x=y'] });
    expect(errorCode(r)).to.equal('INVALID_TOOLSET');
    const tooMany = await metaRaw(client, 'filter_tools', { toolset: Array.from({ length: 33 }, (_, i) => `tool:t${i}`) });
    expect(errorCode(tooMany)).to.equal('INVALID_ARGUMENTS');
  });

  it('evaluates presets against the live catalogue: a server added later is covered at once', async () => {
    setHeaders({ 'X-Service-Toolset': 'preset:late' });
    expect(await names()).to.deep.equal([]);
    const file = join(sb.configDir, 'mcpservers', 'late.yaml');
    await writeFile(`${file}.tmp`, stdioServer('late', TEST_SERVER));
    await rename(`${file}.tmp`, file);
    const n = await eventually(
      () => names(),
      (x) => x.includes('x_late_ping'),
      15_000,
      50,
    );
    expect(n.every((t) => t.startsWith('x_late_'))).to.equal(true);
  });

  it('reloads presets with config.yaml', async () => {
    await writeFile(join(sb.configDir, 'config.yaml'), `${PRESETS}  fresh:\n    include:\n      - tool: x_fx_ping\n`);
    setHeaders({ 'X-Service-Toolset': 'preset:fresh' });
    const n = await eventually(
      () => names(),
      (x) => x.length === 1,
      15_000,
      50,
    );
    expect(n).to.deep.equal(['x_fx_ping']);
  });
});

describe('toolsets: invalid presets stop startup, naming the preset', function () {
  // Each case is a preset of its own in one config.yaml: startup and check report every broken
  // preset, one line each, so one `serve` and one `check` (about 2 CPU-s each) answer all seven
  // cases instead of fourteen processes. Each case still fails alone when its refusal goes:
  // its own line, naming its preset, must be there. `line` is the case's line in its snippet.
  this.timeout(60_000);
  const cases: [string, string, RegExp | ((line: number) => RegExp), number?][] = [
    [
      'a built-in is redefined',
      '  read-only:\n    include:\n      - server: a\n',
      (line) =>
        new RegExp(`config\\.yaml:${line}:\\d+: toolsetPresets\\.read-only: preset 'read-only': 'read-only' is a built-in preset and cannot be redefined`),
      1,
    ],
    [
      'a rule has no key',
      '  empty-rule:\n    include:\n      - {}\n',
      /toolsetPresets\.empty-rule\.include\.0: preset 'empty-rule': a rule must set exactly one key; it sets none/,
    ],
    [
      'a rule has two keys',
      '  greedy:\n    include:\n      - server: a\n        tool: b\n',
      /preset 'greedy': a rule must set exactly one key; it sets tool, server/,
    ],
    [
      'a pattern is invalid',
      '  broken:\n    include:\n      - pattern: "x_[ab"\n',
      (line) => new RegExp(`config\\.yaml:${line}:\\d+: toolsetPresets\\.broken\\.include\\.0\\.pattern: preset 'broken': unclosed '\\['`),
      3,
    ],
    ['an unknown preset is composed', '  team:\n    include:\n      - preset: ghost\n', /preset 'team': composes unknown preset 'ghost'/],
    ['composition cycles', '  a:\n    include:\n      - preset: b\n  b:\n    include:\n      - preset: a\n', /preset 'a': composition cycle: a -> b -> a/],
    [
      'a preset is composed in exclude',
      '  x:\n    exclude:\n      - preset: read-only\n',
      /preset 'x': composition \(preset\) is allowed in include rules only/,
    ],
  ];
  // config.yaml's line of each case's first line (line 1 is `toolsetPresets:`).
  const firstLines: number[] = [];
  let yaml = 'toolsetPresets:\n';
  for (const [, snippet] of cases) {
    firstLines.push(yaml.split('\n').length);
    yaml += snippet;
  }
  let serve: { status: number | null; stderr: string };
  let check: { status: number | null; stderr: string };
  before(async () => {
    const dir = await makeConfigDir({ 'config.yaml': yaml });
    serve = spawnSync(process.execPath, [CLI, 'serve', '--config-path', dir, '--port', '0'], { encoding: 'utf8', timeout: 20_000 });
    check = spawnSync(process.execPath, [CLI, 'check', '--config-path', dir], { encoding: 'utf8', timeout: 20_000 });
  });
  it('serve and check both exit 1', () => {
    expect(serve.status, serve.stderr).to.equal(1);
    expect(serve.stderr).to.not.include('listening');
    expect(check.status, check.stderr).to.equal(1);
  });
  cases.forEach(([what, , expected, line], i) => {
    it(`when ${what}`, () => {
      const re = typeof expected === 'function' ? expected(firstLines[i]! + line! - 1) : expected;
      expect(serve.stderr).to.match(re);
      expect(check.stderr).to.match(re);
    });
  });
});
