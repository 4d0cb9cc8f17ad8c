/**
 * Icons (MCP 2025-11-25, SEP-973) through the aggregator: an upstream's icons on tools,
 * resources, resource templates and prompts reach describe_tool, list_tools, filter_tools and
 * the native lists; a hostile upstream's unsafe ones do not (plugins/upstreams/icons.ts);
 * Switchboard's own serverInfo carries its icon and website, over HTTP and stdio alike.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Icon } from '@modelcontextprotocol/sdk/types.js';
import { CLI, connectHttp, makeConfigDir, meta, ROOT, startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';
import { GOOD_ICONS, HOSTILE_RESOURCE_ICONS_KEPT, HOSTILE_TOOL_ICONS_KEPT } from '../fixtures/rich-server-data.js';

const RICH = join(ROOT, 'dist/test/fixtures/rich-server.js');

type Entry = { name: string; icons?: Icon[] } & Record<string, unknown>;

/** What serverInfo must say of Switchboard, whichever transport asks. */
function expectSwitchboardIdentity(info: { icons?: Icon[]; websiteUrl?: string } | undefined): void {
  expect(info?.websiteUrl).to.equal('https://switchboard.dev');
  const icons = info?.icons ?? [];
  expect(icons.map((i) => i.theme)).to.deep.equal(['light', 'dark']);
  for (const icon of icons) {
    expect(icon.mimeType).to.equal('image/svg+xml');
    expect(icon.sizes).to.deep.equal(['any']);
    const prefix = 'data:image/svg+xml;base64,';
    expect(icon.src.startsWith(prefix), icon.src.slice(0, 40)).to.equal(true);
    const svg = Buffer.from(icon.src.slice(prefix.length), 'base64').toString('utf8');
    expect(svg).to.match(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/s);
    // An icon is an image: nothing in it runs or fetches.
    expect(svg).not.to.match(/<script|\son\w+=|href=/i);
  }
}

describe('icons through the aggregator', () => {
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard(
      {
        'mcpservers/rich.yaml': stdioServer('rich', RICH),
        'mcpservers/t.yaml': stdioServer('t', TEST_SERVER),
      },
      { env: { SWITCHBOARD_LOG_LEVEL: 'debug' } },
    );
    client = await connectHttp(sb.url);
  });

  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it("serverInfo carries Switchboard's icon, one per theme, and its website", () => {
    expectSwitchboardIdentity(client.getServerVersion());
  });

  it('serverInfo says the same over stdio, where a data: icon needs no server to fetch it from', async () => {
    const dir = await makeConfigDir({ 'config.yaml': 'aggregator:\n  transport: stdio\n' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--config-path', dir], stderr: 'pipe' });
    const stdio = new Client({ name: 'icons-stdio', version: '1.0.0' });
    await stdio.connect(transport);
    try {
      expectSwitchboardIdentity(stdio.getServerVersion());
    } finally {
      await stdio.close();
    }
  });

  it("describe_tool shows a tool's icons as its server gave them", async () => {
    const d = await meta<Entry>(client, 'describe_tool', { name: 'x_rich_report' });
    expect(d.icons).to.deep.equal(GOOD_ICONS);
  });

  it('list_tools and filter_tools entries carry icons when the tool has some, and are unchanged when it has none', async () => {
    const listed = await meta<{ tools: Entry[] }>(client, 'list_tools', { limit: 200 });
    const report = listed.tools.find((t) => t.name === 'x_rich_report');
    expect(report?.icons).to.deep.equal(GOOD_ICONS);
    // Byte for byte what an entry without icons has always been.
    const plain = listed.tools.find((t) => t.name === 'x_rich_plain');
    expect(JSON.stringify(plain)).to.equal('{"name":"x_rich_plain","summary":"Answer plainly; no icons.","kind":"tool","server":"rich"}');
    const ping = listed.tools.find((t) => t.name === 'x_t_ping');
    expect(JSON.stringify(ping)).to.equal('{"name":"x_t_ping","summary":"Answer pong.","kind":"tool","server":"t","annotations":{"readOnlyHint":true}}');

    const filtered = await meta<{ tools: Entry[] }>(client, 'filter_tools', { pattern: 'x_rich_*', limit: 10 });
    expect(Object.fromEntries(filtered.tools.map((t) => [t.name, t.icons]))).to.deep.equal({
      x_rich_flood: undefined,
      x_rich_hostile: HOSTILE_TOOL_ICONS_KEPT,
      x_rich_plain: undefined,
      x_rich_report: GOOD_ICONS,
    });
    const ranked = await meta<{ tools: Entry[] }>(client, 'filter_tools', { query: 'report items structured', include_schema: true, limit: 1 });
    expect(ranked.tools[0]?.name).to.equal('x_rich_report');
    expect(ranked.tools[0]?.icons).to.deep.equal(GOOD_ICONS);
  });

  it("keeps a hostile server's https: and data: image icons only, at most four, without fields MCP does not define", async () => {
    const hostile = await meta<Entry>(client, 'describe_tool', { name: 'x_rich_hostile' });
    expect(hostile.icons).to.deep.equal(HOSTILE_TOOL_ICONS_KEPT);
    const flood = await meta<Entry>(client, 'describe_tool', { name: 'x_rich_flood' });
    expect(flood).not.to.have.property('icons');
  });

  it('says at debug level which icon it dropped and why', async () => {
    await sb.waitForLog(/dropping icon 0 of tool 'hostile': its src is a javascript: URI/);
    await sb.waitForLog(/dropping icon 2 of tool 'hostile': its src is a file: URI/);
    await sb.waitForLog(/dropping icon 4 of tool 'hostile': 127\.0\.0\.1 is not a public address/);
    await sb.waitForLog(/dropping icon 8 of tool 'hostile': 127\.0\.0\.1 is not a public address/);
    await sb.waitForLog(/dropping icon 9 of tool 'hostile': 'printer\.localhost' is the client's own machine/);
    await sb.waitForLog(/dropping icon 10 of tool 'hostile': its src carries credentials/);
    await sb.waitForLog(/dropping icon 11 of tool 'hostile': its data: URI is of type 'text\/html', not an image type/);
    await sb.waitForLog(/dropping icon 13 of tool 'hostile': its src is 5022 characters, more than 4096/);
    await sb.waitForLog(/dropping 1 icon\(s\) of tool 'hostile': at most 4 are kept/);
    await sb.waitForLog(/dropping the icons of tool 'flood': not a list/);
    await sb.waitForLog(/dropping icon 0 of resource 'test:\/\/evil': its src is a javascript: URI/);
  });

  it('native resources/list, resources/templates/list and prompts/list keep icons, the safe ones only', async () => {
    const { resources } = await client.listResources();
    const byUri = Object.fromEntries(resources.map((r) => [r.uri, r]));
    expect(byUri['test://reports/1']?.icons).to.deep.equal(GOOD_ICONS);
    expect(byUri['test://evil']?.icons).to.deep.equal(HOSTILE_RESOURCE_ICONS_KEPT);
    expect(byUri['test://greeting']).not.to.have.property('icons');

    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.find((t) => t.uriTemplate === 'test://reports/{id}')?.icons).to.deep.equal(GOOD_ICONS);

    const { prompts } = await client.listPrompts();
    const byName = Object.fromEntries(prompts.map((p) => [p.name, p]));
    expect(byName.x_rich_brief?.icons).to.deep.equal(GOOD_ICONS);
    expect(byName.x_rich_evil_prompt?.icons).to.deep.equal(HOSTILE_RESOURCE_ICONS_KEPT);
    expect(byName.x_t_summarize).not.to.have.property('icons');
  });

  it('list_resources and list_prompts (the meta-tools) carry the same icons', async () => {
    const r = await meta<{ resources: { uri: string; icons?: Icon[] }[] }>(client, 'list_resources');
    expect(r.resources.find((x) => x.uri === 'test://evil')?.icons).to.deep.equal(HOSTILE_RESOURCE_ICONS_KEPT);
    const p = await meta<{ prompts: { name: string; icons?: Icon[] }[] }>(client, 'list_prompts');
    expect(p.prompts.find((x) => x.name === 'x_rich_brief')?.icons).to.deep.equal(GOOD_ICONS);
  });
});
