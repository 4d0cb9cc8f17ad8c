/**
 * reference-behaviour.md §6, §12 and §13, through the protocol: what core_workflow_validate
 * and core_mcpserver_validate answer, the phrases of every structural problem in create,
 * update and validate, list_core_tools' reply, and how core tools word argument errors.
 * Clients match phrases as case-insensitive substrings, so each assertion names its phrase.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectHttp, errorCode, meta, metaRaw, startSwitchboard, stdioServer, TEST_SERVER, text, type Running } from '../support/harness.js';

type Obj = Record<string, unknown>;
interface Report {
  valid: boolean;
  errors: string[];
  warnings: string[];
  tools?: { required: string[]; missing: string[]; available: boolean };
  message?: string;
}
interface CoreEntry {
  name: string;
  kind: string;
  description: string;
  summary: string;
  inputSchema?: Obj;
  annotations?: Obj;
}

const PING = { id: 'a', tool: 'x_fx_ping' };

/** A definition with exactly one structural problem, the phrase it must produce, and whether update can carry it (`steps` only). */
const WORKFLOW_PHRASES: { problem: string; steps: unknown[]; onFailure?: unknown[]; phrase: string }[] = [
  { problem: 'steps: []', steps: [], phrase: 'workflow must have at least one step' },
  { problem: 'an empty step id', steps: [PING, { id: '', tool: 'x_fx_ping' }], phrase: 'validation failed: steps: step 1: id cannot be empty' },
  { problem: 'a step without an id', steps: [{ tool: 'x_fx_ping' }], phrase: 'validation failed: steps: step 0: id cannot be empty' },
  { problem: 'a duplicate step id', steps: [PING, PING], phrase: "duplicate step ID 'a' found" },
  { problem: 'a step with none of tool/forEach/parallel', steps: [PING, { id: 'b' }], phrase: 'step 1 (b): one of tool, forEach, or parallel is required' },
  {
    problem: 'tool together with forEach',
    steps: [{ id: 'b', tool: 'x_fx_ping', forEach: { items: [1], steps: [{ id: 'c', tool: 'x_fx_ping' }] } }],
    phrase: 'tool is mutually exclusive with forEach/parallel',
  },
  {
    problem: 'tool together with parallel',
    steps: [{ id: 'b', tool: 'x_fx_ping', parallel: [{ id: 'c', tool: 'x_fx_ping' }] }],
    phrase: 'tool is mutually exclusive with forEach/parallel',
  },
  {
    problem: 'forEach together with parallel',
    steps: [{ id: 'b', forEach: { items: [1], steps: [{ id: 'c', tool: 'x_fx_ping' }] }, parallel: [{ id: 'd', tool: 'x_fx_ping' }] }],
    phrase: 'forEach and parallel are mutually exclusive',
  },
  {
    problem: 'forEach without items',
    steps: [{ id: 'l', forEach: { steps: [{ id: 'c', tool: 'x_fx_ping' }] } }],
    phrase: 'items is required and must be a template string',
  },
  {
    problem: 'forEach with an empty body',
    steps: [{ id: 'l', forEach: { items: [1], steps: [] } }],
    phrase: 'steps is required and must contain at least one sub-step',
  },
  { problem: 'forEach without a body', steps: [{ id: 'l', forEach: { items: [1] } }], phrase: 'steps is required and must contain at least one sub-step' },
  {
    problem: 'a loop body step without a tool',
    steps: [{ id: 'l', forEach: { items: [1], steps: [{ id: 'c' }] } }],
    phrase: 'sub-step 0 (c): tool is required',
  },
  {
    problem: 'a group member without a tool',
    steps: [{ id: 'g', parallel: [{ id: 'm1', tool: 'x_fx_ping' }, { id: 'm2' }] }],
    phrase: 'sub-step 1 (m2): tool is required',
  },
  { problem: 'an onFailure step without a tool', steps: [PING], onFailure: [{ id: 'undo' }], phrase: 'sub-step 0 (undo): tool is required' },
  {
    problem: 'duplicate sub-step ids',
    steps: [
      {
        id: 'g',
        parallel: [
          { id: 'm', tool: 'x_fx_ping' },
          { id: 'm', tool: 'x_fx_ping' },
        ],
      },
    ],
    phrase: "duplicate sub-step id 'm'",
  },
  {
    problem: 'a condition: template plus tool',
    steps: [PING, { id: 'b', tool: 'x_fx_ping', condition: { template: '{{ true }}', tool: 'x_fx_ping', expect: { success: true } } }],
    phrase: 'condition.template is mutually exclusive with tool/fromStep',
  },
  {
    problem: 'a condition: template plus fromStep',
    steps: [PING, { id: 'b', tool: 'x_fx_ping', condition: { template: '{{ true }}', from_step: 'a' } }],
    phrase: 'condition.template is mutually exclusive with tool/fromStep',
  },
  {
    problem: 'a condition with no form',
    steps: [PING, { id: 'b', tool: 'x_fx_ping', condition: { expect: { success: true } } }],
    phrase: 'condition requires exactly one of template, tool, or fromStep',
  },
  {
    problem: 'a condition: tool plus fromStep',
    steps: [PING, { id: 'b', tool: 'x_fx_ping', condition: { tool: 'x_fx_ping', fromStep: 'a', expect: { success: true } } }],
    phrase: 'condition: tool and fromStep are mutually exclusive',
  },
];

describe('checking definitions, list_core_tools and argument wording as the reference has them', () => {
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard({ 'mcpservers/fixture.yaml': stdioServer('fixture', TEST_SERVER, [], 'toolPrefix: fx\n') });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  /** The report of a validate call: the result's object, or the error's details when it failed. */
  const reportOf = (r: CallToolResult): Report =>
    (r.isError ? (r.structuredContent as { error: { details: Report } }).error.details : r.structuredContent) as Report;
  /** Asserts a refusal whose text carries `phrase` (ASCII case-insensitive, as clients match). */
  const says = (r: CallToolResult, phrase: string) => {
    expect(r.isError, text(r)).to.equal(true);
    expect(text(r).toLowerCase()).to.include(phrase.toLowerCase());
  };

  describe('§6.1 validate answers', () => {
    it('an invalid workflow is an error result: "Validation failed: " and every problem, the report in its details; nothing is created', async () => {
      const r = await callTool(client, 'core_workflow_validate', { name: 'v_bad', steps: [PING, PING, { id: 'b' }] });
      expect(r.isError).to.equal(true);
      expect(errorCode(r)).to.equal('VALIDATION_FAILED');
      const report = reportOf(r);
      expect(report.valid).to.equal(false);
      expect(report.errors).to.deep.equal(["duplicate step ID 'a' found", 'step 2 (b): one of tool, forEach, or parallel is required']);
      expect(report.warnings).to.deep.equal([]);
      expect(r.content).to.have.length(1);
      expect(text(r)).to.equal(`Validation failed: ${report.errors.join('; ')}`);
      expect(existsSync(join(sb.configDir, 'workflows', 'v_bad.yaml'))).to.equal(false);
      expect(errorCode(await callTool(client, 'core_workflow_get', { name: 'v_bad' }))).to.equal('NOT_FOUND');
    });

    it('a valid workflow succeeds with the report and "Validation successful for workflow <name>"; nothing is created', async () => {
      const r = await callTool(client, 'core_workflow_validate', { name: 'v_good', steps: [PING] });
      expect(r.isError, text(r)).to.not.equal(true);
      const report = reportOf(r);
      expect(report).to.deep.equal({
        valid: true,
        errors: [],
        warnings: [],
        tools: { required: ['x_fx_ping'], missing: [], available: true },
        message: 'Validation successful for workflow v_good',
      });
      // Clients read the first text content as JSON: exactly one, the same object.
      expect(r.content).to.have.length(1);
      expect(JSON.parse(text(r))).to.deep.equal(report);
      expect(existsSync(join(sb.configDir, 'workflows', 'v_good.yaml'))).to.equal(false);
    });

    it('a workflow whose tools are absent is valid: missing tools stay warnings', async () => {
      const r = await callTool(client, 'core_workflow_validate', { name: 'v_absent', steps: [{ id: 'a', tool: 'x_nowhere_tool' }] });
      expect(r.isError, text(r)).to.not.equal(true);
      const report = reportOf(r);
      expect(report).to.deep.include({ valid: true, errors: [], message: 'Validation successful for workflow v_absent' });
      expect(report.tools).to.deep.equal({ required: ['x_nowhere_tool'], missing: ['x_nowhere_tool'], available: false });
      expect(report.warnings.join()).to.include("tool 'x_nowhere_tool' is not in the catalogue");
    });

    it('core_mcpserver_validate: "Validation failed: …" as an error result, or "Validation successful for mcpserver <name>"; nothing is created', async () => {
      const bad = await callTool(client, 'core_mcpserver_validate', { name: 'v_srv', type: 'stdio' });
      expect(errorCode(bad)).to.equal('VALIDATION_FAILED');
      expect(text(bad)).to.equal('Validation failed: command is required for stdio type');
      expect(reportOf(bad)).to.deep.include({ valid: false, errors: ['command is required for stdio type'] });

      const good = await callTool(client, 'core_mcpserver_validate', { name: 'v_srv', type: 'streamable-http', url: 'https://mcp.example.com/mcp' });
      expect(good.isError, text(good)).to.not.equal(true);
      expect(reportOf(good)).to.deep.equal({ valid: true, errors: [], warnings: [], message: 'Validation successful for mcpserver v_srv' });
      expect(JSON.parse(text(good))).to.deep.equal(good.structuredContent);

      // Warnings alone never fail it.
      const warned = reportOf(await callTool(client, 'core_mcpserver_validate', { name: 'fixture', type: 'stdio', command: 'no-such-binary-here' }));
      expect(warned).to.deep.include({ valid: true, message: 'Validation successful for mcpserver fixture' });
      expect(warned.warnings.join('\n')).to.include('already exists').and.include("'no-such-binary-here' is not found");

      expect(existsSync(join(sb.configDir, 'mcpservers', 'v_srv.yaml'))).to.equal(false);
      const list = await meta<{ total: number }>(client, 'call_tool', { name: 'core_mcpserver_list', arguments: {} });
      expect(list.total).to.equal(1);
    });
  });

  describe('§6.2 workflow phrases in create, update and validate', () => {
    const stored = () => meta<Obj>(client, 'call_tool', { name: 'core_workflow_get', arguments: { name: 'phr_base' } });
    let original: Obj;
    before(async () => {
      const base = await callTool(client, 'core_workflow_create', { name: 'phr_base', steps: [PING] });
      expect(base.isError, text(base)).to.not.equal(true);
      original = await stored();
    });

    for (const row of WORKFLOW_PHRASES) {
      it(`${row.problem}: "${row.phrase}"`, async () => {
        const definition = { steps: row.steps, ...(row.onFailure ? { onFailure: row.onFailure } : {}) };
        const validated = await callTool(client, 'core_workflow_validate', { name: 'phr_probe', ...definition });
        says(validated, row.phrase);
        expect(text(validated)).to.match(/^Validation failed: /);

        // Create and update put "validation failed: " in front of the problem.
        const created = await callTool(client, 'core_workflow_create', { name: 'phr_probe', ...definition });
        expect(errorCode(created)).to.equal('VALIDATION_FAILED');
        expect(text(created)).to.match(/^validation failed: /);
        says(created, row.phrase);
        expect(existsSync(join(sb.configDir, 'workflows', 'phr_probe.yaml'))).to.equal(false);

        const updated = await callTool(client, 'core_workflow_update', { name: 'phr_base', ...definition });
        expect(errorCode(updated)).to.equal('VALIDATION_FAILED');
        expect(text(updated)).to.match(/^validation failed: /);
        says(updated, row.phrase);
      });
    }

    it('an update that fails leaves the stored definition as it was', async () => {
      expect(await stored()).to.deep.equal(original);
      expect((original.steps as Obj[]).map((s) => s.id)).to.deep.equal(['a']);
      expect(readFileSync(join(sb.configDir, 'workflows', 'phr_base.yaml'), 'utf8')).to.not.include('undo');
    });

    it('`name` and `steps` missing: "name argument is required", "steps argument is required"', async () => {
      for (const tool of ['core_workflow_validate', 'core_workflow_create']) {
        says(await callTool(client, tool, { steps: [PING] }), 'name argument is required');
        says(await callTool(client, tool, { name: 'phr_probe' }), 'steps argument is required');
      }
      says(await callTool(client, 'core_workflow_update', { steps: [PING] }), 'name argument is required');
    });

    it('an empty step id is its phrase, not the id pattern; a malformed id still meets the pattern', async () => {
      const empty = await callTool(client, 'core_workflow_validate', { name: 'phr_probe', steps: [{ id: '', tool: 'x_fx_ping' }] });
      expect(reportOf(empty).errors).to.deep.equal(['steps: step 0: id cannot be empty']);
      const subEmpty = reportOf(
        await callTool(client, 'core_workflow_validate', { name: 'phr_probe', steps: [{ id: 'g', parallel: [{ id: '', tool: 'x_fx_ping' }] }] }),
      );
      expect(subEmpty.errors).to.deep.equal(["step 'g' parallel sub-step 0: id cannot be empty"]);
      const malformed = reportOf(await callTool(client, 'core_workflow_validate', { name: 'phr_probe', steps: [{ id: '9 lives', tool: 'x_fx_ping' }] }));
      expect(malformed.errors.join()).to.include('steps.0.id: must match pattern');
    });

    it('the phrased problem comes first, so "validation failed: " is followed by it, and every other problem is still reported', async () => {
      const r = await callTool(client, 'core_workflow_create', {
        name: 'phr_probe',
        steps: [
          { id: 'x', tool: 'x_fx_ping', bogus: 1 },
          { id: '', tool: 'x_fx_ping' },
        ],
      });
      expect(text(r)).to.match(/^validation failed: steps: step 1: id cannot be empty; /);
      expect(text(r)).to.include("steps.0.bogus: unknown field 'bogus'");
    });

    it('unknown keys stay refused (not adopted: a typo is caught, not ignored)', async () => {
      const r = await callTool(client, 'core_workflow_validate', { name: 'phr_probe', steps: [{ id: 'a', tool: 'x_fx_ping', alow_failure: true }] });
      says(r, "steps.0.alow_failure: unknown field 'alow_failure'");
    });
  });

  describe('§6.3 MCP server phrases in create, update and validate', () => {
    const PHRASES: { problem: string; definition: Obj; phrase: string }[] = [
      { problem: 'stdio without command', definition: { type: 'stdio' }, phrase: 'command is required for stdio type' },
      { problem: 'stdio with command ""', definition: { type: 'stdio', command: '' }, phrase: 'command is required for stdio type' },
      { problem: 'stdio with command []', definition: { type: 'stdio', command: [] }, phrase: 'command is required for stdio type' },
      { problem: 'streamable-http without url', definition: { type: 'streamable-http' }, phrase: 'url is required for streamable-http and sse types' },
      { problem: 'sse without url', definition: { type: 'sse' }, phrase: 'url is required for streamable-http and sse types' },
      {
        problem: 'an unknown type',
        definition: { type: 'websocket', url: 'wss://x.example' },
        phrase: 'unsupported MCP server type: websocket (supported: stdio, streamable-http, sse)',
      },
    ];
    for (const row of PHRASES) {
      it(`${row.problem}: "${row.phrase}"`, async () => {
        const validated = await callTool(client, 'core_mcpserver_validate', { name: 'srv_probe', ...row.definition });
        expect(text(validated)).to.equal(`Validation failed: ${row.phrase}`);
        const created = await callTool(client, 'core_mcpserver_create', { name: 'srv_probe', ...row.definition });
        expect(errorCode(created)).to.equal('VALIDATION_FAILED');
        expect(text(created)).to.equal(`validation failed: ${row.phrase}`);
        expect(existsSync(join(sb.configDir, 'mcpservers', 'srv_probe.yaml'))).to.equal(false);
      });
    }

    it('update words the same problems, and changes nothing', async () => {
      const before = readFileSync(join(sb.configDir, 'mcpservers', 'fixture.yaml'), 'utf8');
      says(await callTool(client, 'core_mcpserver_update', { name: 'fixture', command: '' }), 'validation failed: command is required for stdio type');
      says(
        await callTool(client, 'core_mcpserver_update', { name: 'fixture', type: 'sse' }),
        'validation failed: url is required for streamable-http and sse types',
      );
      says(
        await callTool(client, 'core_mcpserver_update', { name: 'fixture', type: 'carrier-pigeon' }),
        'validation failed: unsupported MCP server type: carrier-pigeon (supported: stdio, streamable-http, sse)',
      );
      expect(readFileSync(join(sb.configDir, 'mcpservers', 'fixture.yaml'), 'utf8')).to.equal(before);
    });

    it('create of an existing name: "MCP server \'<name>\' already exists"', async () => {
      const r = await callTool(client, 'core_mcpserver_create', { name: 'fixture', type: 'stdio', command: 'node' });
      expect(errorCode(r)).to.equal('CONFLICT');
      says(r, "MCP server 'fixture' already exists");
    });
  });

  describe('§12 list_core_tools', () => {
    it('answers like filter_tools without a page cap: full descriptions and input schemas of the core tools only', async () => {
      const r = await meta<{ tools: CoreEntry[]; total: number; total_tools: number; filtered_count: number; truncated: boolean; filters: Obj }>(
        client,
        'list_core_tools',
      );
      expect(Object.keys(r).sort()).to.deep.equal(['filtered_count', 'filters', 'tools', 'total', 'total_tools', 'truncated']);
      expect(r.truncated).to.equal(false);
      expect(r.filters).to.deep.equal({ include_schema: true });
      expect(r.total).to.equal(r.tools.length);
      expect(r.total_tools).to.equal(r.tools.length);
      expect(r.filtered_count).to.equal(r.tools.length);
      expect(r.tools.length).to.be.greaterThan(20);
      for (const t of r.tools) {
        expect(t.name, t.name).to.match(/^core_/);
        expect(t.kind).to.equal('core');
        expect(t.inputSchema, t.name).to.include({ type: 'object' });
      }
      // Every core tool in the catalogue, and nothing else.
      const all = await meta<{ tools: { name: string; kind: string }[] }>(client, 'list_tools', { limit: 1000 });
      expect(r.tools.map((t) => t.name).sort()).to.deep.equal(
        all.tools
          .filter((t) => t.kind === 'core')
          .map((t) => t.name)
          .sort(),
      );
      // The full description, not the summary.
      const detect = r.tools.find((t) => t.name === 'core_mcpserver_detect')!;
      const described = await meta<{ description: string; inputSchema: Obj }>(client, 'describe_tool', { name: 'core_mcpserver_detect' });
      expect(detect.description).to.equal(described.description);
      expect(detect.description.length).to.be.greaterThan(detect.summary.length);
      expect(detect.inputSchema).to.deep.equal(described.inputSchema);
    });

    it('include_schema false leaves the schemas out and keeps the full descriptions', async () => {
      const r = await meta<{ tools: CoreEntry[]; filters: Obj; total: number }>(client, 'list_core_tools', { include_schema: false });
      expect(r.filters).to.deep.equal({ include_schema: false });
      expect(r.tools.length).to.equal(r.total);
      for (const t of r.tools) expect(t, t.name).to.not.have.property('inputSchema');
      const detect = r.tools.find((t) => t.name === 'core_mcpserver_detect')!;
      expect(detect.description).to.include('Never fails for an unreachable URL');
    });

    it('refuses an include_schema that is not a boolean, and unknown arguments', async () => {
      says(
        await metaRaw(client, 'list_core_tools', { include_schema: 'no' }),
        "Invalid arguments for 'list_core_tools': include_schema must be a boolean value",
      );
      says(
        await metaRaw(client, 'list_core_tools', { pattern: 'core_*' }),
        "Invalid arguments for 'list_core_tools': (arguments) has unknown property 'pattern'",
      );
    });
  });

  describe('§13 argument-error wording', () => {
    const problemsOf = (r: CallToolResult) =>
      (r.structuredContent as { error: { details: { problems: { path: string; message: string }[] } } }).error.details.problems;

    it('required: "<arg> argument is required", in the frame "Invalid arguments for \'<tool>\': …"', async () => {
      const r = await callTool(client, 'core_workflow_get', {});
      expect(errorCode(r)).to.equal('INVALID_ARGUMENTS');
      expect(text(r)).to.equal("Invalid arguments for 'core_workflow_get': name argument is required");
      expect(problemsOf(r)).to.deep.equal([{ path: '/name', message: 'name argument is required' }]);
    });

    it('minimum and maximum: "must be at least <n> (minimum value)", "must be at most <n> (maximum value)"', async () => {
      const low = await callTool(client, 'core_mcpserver_detect', { url: 'https://mcp.example.com/mcp', timeout: 0 });
      expect(text(low)).to.equal("Invalid arguments for 'core_mcpserver_detect': timeout must be at least 1 (minimum value)");
      const high = await callTool(client, 'core_mcpserver_detect', { url: 'https://mcp.example.com/mcp', timeout: 121 });
      expect(text(high)).to.equal("Invalid arguments for 'core_mcpserver_detect': timeout must be at most 120 (maximum value)");
      const port = await callTool(client, 'core_config_update_aggregator', { aggregator: { Port: 70000 } });
      expect(text(port)).to.equal("Invalid arguments for 'core_config_update_aggregator': aggregator.Port must be at most 65535 (maximum value)");
      expect(problemsOf(port)).to.deep.equal([{ path: '/aggregator/Port', message: 'aggregator.Port must be at most 65535 (maximum value)' }]);
    });

    it('enum: "<arg> must be one of the enum values: a, b"', async () => {
      const r = await callTool(client, 'core_config_update_aggregator', { aggregator: { Transport: 'carrier-pigeon' } });
      expect(errorCode(r)).to.equal('INVALID_ARGUMENTS');
      expect(text(r)).to.equal(
        "Invalid arguments for 'core_config_update_aggregator': aggregator.Transport must be one of the enum values: streamable-http, sse, stdio",
      );
    });

    it('type: "<arg> must be a <type> value", alternatives joined', async () => {
      expect(text(await callTool(client, 'core_workflow_get', { name: 7 }))).to.equal("Invalid arguments for 'core_workflow_get': name must be a string value");
      expect(text(await callTool(client, 'core_mcpserver_validate', { name: 'x', type: 'stdio', command: 7 }))).to.equal(
        "Invalid arguments for 'core_mcpserver_validate': command must be a string or array value",
      );
    });

    it('several problems are listed in one message, each naming its argument', async () => {
      const r = await callTool(client, 'core_mcpserver_detect', { timeout: 'soon' });
      expect(text(r)).to.equal("Invalid arguments for 'core_mcpserver_detect': url argument is required; timeout must be a integer value");
    });

    it('the meta-tools word their arguments the same way', async () => {
      says(await metaRaw(client, 'list_tools', { limit: 0 }), "Invalid arguments for 'list_tools': limit must be at least 1 (minimum value)");
      says(await metaRaw(client, 'describe_tool', {}), "Invalid arguments for 'describe_tool': name argument is required");
    });
  });
});
