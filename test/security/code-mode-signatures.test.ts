/**
 * The TypeScript signatures code mode derives from tool schemas (describe_tool's `typescript`,
 * tools.describe's `signature`) come from upstream servers: hostile input. Through the real
 * protocol, against a server whose tools declare a reference bomb, a reference cycle, 2,000
 * long property names, 300 levels of nesting and a 5,000-value enum: each answer comes, and
 * each signature stays within its bound. One tool uses every mapping rule once, checked
 * exactly (docs/code-mode.md, "Types").
 */
import { join } from 'node:path';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ran, runCode } from '../support/code-mode.js';
import { connectHttp, meta, ROOT, startSwitchboard, stdioServer, type Running } from '../support/harness.js';

const HOSTILE = join(ROOT, 'dist/test/fixtures/hostile-schema-server.js');
/** plugins/code-mode/signature.ts's MAX_SIGNATURE_CHARS, plus the tool's name. */
const BOUND = 8192;

const describe_ = (c: Client, name: string) => meta<{ typescript: string }>(c, 'describe_tool', { name });

describe('security: TypeScript signatures of hostile schemas stay bounded', function () {
  this.timeout(90_000);
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard({
      'config.yaml': 'plugins:\n  code-mode: true\n',
      'mcpservers/hostile.yaml': stdioServer('hostile', HOSTILE),
    });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('maps each rule: enums, required and optional, arrays, oneOf, $ref, allOf, additionalProperties, a type list, unknown', async () => {
    const { typescript } = await describe_(client, 'x_hostile_shapes');
    expect(typescript).to.equal(
      'tools.x_hostile_shapes(args: { mode: "fast" | "slow"; items: { id: string; tags?: string[] }[]; limit?: number; filter?: string | null; ' +
        'labels?: { [key: string]: string }; "dash-name"?: boolean; both?: { id: string; tags?: string[] } & { extra?: 1 }; meta?: unknown }): ' +
        'Promise<{ count: number; ids?: string[] | null }>',
    );
  });

  it('a reference that fans out 30 ways over 10 levels stops at the node budget', async () => {
    const { typescript } = await describe_(client, 'x_hostile_ref_bomb');
    expect(typescript.length).to.be.at.most(BOUND + 'x_hostile_ref_bomb'.length);
    expect(typescript).to.match(/^tools\.x_hostile_ref_bomb\(args: \{ root\?: \{ p0\?: /);
  });

  it('a reference cycle ends at the first repeat, as unknown', async () => {
    const { typescript } = await describe_(client, 'x_hostile_ref_cycle');
    expect(typescript).to.equal('tools.x_hostile_ref_cycle(args: { head?: { value?: string; next?: unknown } }): Promise<unknown>');
  });

  it('2,000 long property names: the first members, then an index signature for the rest', async () => {
    const { typescript } = await describe_(client, 'x_hostile_wide');
    expect(typescript.length).to.be.at.most(BOUND + 'x_hostile_wide'.length);
    expect(typescript).to.match(/^tools\.x_hostile_wide\(args: \{ p0_x+\?: string; p1_x+\?: string; .*; \[key: string\]: unknown \}\): Promise<unknown>$/);
  });

  it('300 levels of nesting end at the depth limit', async () => {
    const { typescript } = await describe_(client, 'x_hostile_deep');
    expect(typescript).to.equal(`tools.x_hostile_deep(args: ${'{ x?: '.repeat(9)}unknown${' }'.repeat(9)}): Promise<unknown>`);
  });

  it('an enum of 5,000 values is the type of its values', async () => {
    const { typescript } = await describe_(client, 'x_hostile_many_values');
    expect(typescript).to.equal('tools.x_hostile_many_values(args: { pick?: string }): Promise<unknown>');
  });

  it('inside a script, tools.describe and tools.search give the same bounded signatures', async () => {
    const code = `
      const names = ['x_hostile_ref_bomb', 'x_hostile_wide', 'x_hostile_deep', 'x_hostile_ref_cycle'];
      const described = await Promise.all(names.map((n) => tools.describe(n)));
      return described.map((d) => d.signature.length);
    `;
    const lengths = ran(await runCode(client, code)).result as number[];
    for (const n of lengths) expect(n).to.be.at.most(BOUND + 30);
    const listed = await meta<{ tools: { typescript?: string }[] }>(client, 'list_tools', { limit: 50 });
    // list_tools stays as the interface has it: no signatures in pages of summaries.
    expect(listed.tools.filter((t) => t.typescript !== undefined)).to.deep.equal([]);
  });
});
