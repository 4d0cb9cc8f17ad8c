/**
 * Structured output through the aggregator: an upstream's outputSchema reaches describe_tool
 * (also through a family), its result (structuredContent, a resource_link, `_meta`) comes
 * back from call_tool and call_tools byte for byte; a workflow whose output template fixes
 * its shape declares an output schema, and what its runs return validates against it
 * (plugins/workflows/output-schema.ts).
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, meta, metaRaw, ROOT, startSwitchboard, stdioServer, text, type Running } from '../support/harness.js';
import { REPORT_OUTPUT_SCHEMA, REPORT_RESULT } from '../fixtures/rich-server-data.js';

const RICH = join(ROOT, 'dist/test/fixtures/rich-server.js');
const wf = (name: string, spec: string) => `apiVersion: switchboard.dev/v1alpha1\nkind: Workflow\nmetadata: { name: ${name} }\nspec:\n${spec}`;
const REPORT_STEP = '  steps:\n    - { id: r, tool: x_rich_report }\n';

const FILES = {
  'mcpservers/rich.yaml': stdioServer('rich', RICH),
  'mcpservers/rich-a.yaml': stdioServer('rich-a', RICH, [], 'family: { name: reports, instanceArg: member }\n'),
  'mcpservers/rich-b.yaml': stdioServer('rich-b', RICH, [], 'family: { name: reports, instanceArg: member }\n'),
  'workflows/shaped.yaml': wf(
    'shaped',
    `  args: { who: { type: string, default: ops } }
${REPORT_STEP}  output:
    total: "{{ .results.r.total }}"
    first: "{{ index .results.r.items 0 }}"
    label: "report for {{ .input.who }}"
    fixed: 3
    ratio: 0.5
    ok: true
    nested: { items: "{{ .results.r.items }}", pair: [1, 2] }
    execution_id: "not this one"
`,
  ),
  'workflows/listed.yaml': wf('listed', `${REPORT_STEP}  output: ["{{ .results.r.total }}", "x"]\n`),
  'workflows/texted.yaml': wf('texted', `${REPORT_STEP}  output: "total {{ .results.r.total }}"\n`),
  'workflows/whole.yaml': wf('whole', `${REPORT_STEP}  output: "{{ .results.r }}"\n`),
  'workflows/bare.yaml': wf('bare', REPORT_STEP),
};

const EXECUTION_ID = { type: 'string', description: "The run's id: its record in core_workflow_execution_get." };
const DESCRIPTION = "The rendering of the workflow's output template, with the run's execution_id.";

/**
 * An SDK client that also keeps every response body as it came off the wire: the SDK's own
 * parse rebuilds results (it moves `_meta` first), so bytes are compared before it.
 */
async function recordingClient(url: string): Promise<{ client: Client; bodies: string[] }> {
  const bodies: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (init?.method === 'POST') bodies.push(await res.clone().text());
    return res;
  };
  const client = new Client({ name: 'structured-output-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: recording }));
  return { client, bodies };
}

describe('structured output through the aggregator', () => {
  let sb: Running;
  let client: Client;
  const ajv = new Ajv2020({ strict: true });

  let bodies: string[];

  before(async () => {
    sb = await startSwitchboard(FILES);
    ({ client, bodies } = await recordingClient(sb.url));
  });

  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  /** Runs a meta-tool through the SDK client; answers the JSON-RPC response's bytes as Switchboard sent them. */
  async function callOnTheWire(name: string, args: Record<string, unknown>): Promise<string> {
    const before = bodies.length;
    await metaRaw(client, name, args);
    const answers = bodies.slice(before).filter((b) => b.includes('"result"'));
    expect(answers, 'one response body').to.have.length(1);
    return answers[0]!;
  }

  /** The `result` member of the one JSON-RPC response in `body` (a JSON body or an SSE stream), as its text. */
  function resultBytes(body: string): string {
    const json = body.startsWith('{')
      ? body
      : body
          .split('\n')
          .find((l) => l.startsWith('data: {') && l.includes('"result"'))!
          .slice('data: '.length);
    const start = json.indexOf('"result":') + '"result":'.length;
    return json.slice(start, json.lastIndexOf('}'));
  }

  it("describe_tool shows an upstream tool's outputSchema", async () => {
    const d = await meta<{ outputSchema?: unknown }>(client, 'describe_tool', { name: 'x_rich_report' });
    expect(d.outputSchema).to.deep.equal(REPORT_OUTPUT_SCHEMA);
  });

  it('call_tool returns structuredContent, a resource_link and _meta byte for byte as the upstream sent them', async () => {
    const wire = await callOnTheWire('call_tool', { name: 'x_rich_report', arguments: {} });
    expect(resultBytes(wire)).to.equal(JSON.stringify(REPORT_RESULT));
    // And as the SDK's client reads it.
    const r = await callTool(client, 'x_rich_report');
    expect(r).to.deep.equal(REPORT_RESULT);
    expect(ajv.validate(REPORT_OUTPUT_SCHEMA, r.structuredContent), JSON.stringify(ajv.errors)).to.equal(true);
  });

  it('call_tools returns each result as its upstream sent it', async () => {
    const wire = await callOnTheWire('call_tools', {
      calls: [
        { name: 'x_rich_report', arguments: {} },
        { name: 'x_rich_plain', arguments: {} },
      ],
    });
    const results = `{"results":[${JSON.stringify(REPORT_RESULT)},${JSON.stringify({ content: [{ type: 'text', text: 'plain' }] })}]}`;
    // structuredContent holds the results as they came; the text content holds the same JSON.
    const result = JSON.parse(resultBytes(wire)) as { content: { text: string }[] };
    expect(resultBytes(wire)).to.include(`"structuredContent":${results}`);
    expect(result.content[0]!.text).to.equal(results);
  });

  it('a family tool keeps the output schema its members share, and its calls pass results unchanged', async () => {
    const d = await meta<{ outputSchema?: unknown; servers?: unknown }>(client, 'describe_tool', { name: 'x_reports_report' });
    expect(d.outputSchema).to.deep.equal(REPORT_OUTPUT_SCHEMA);
    const wire = await callOnTheWire('call_tool', { name: 'x_reports_report', arguments: { member: 'rich-b' } });
    expect(resultBytes(wire)).to.equal(JSON.stringify(REPORT_RESULT));
  });

  it('a workflow whose output template is a mapping declares its shape: every key, typed where the template says', async () => {
    const d = await meta<{ outputSchema?: unknown }>(client, 'describe_tool', { name: 'workflow_shaped' });
    expect(d.outputSchema).to.deep.equal({
      type: 'object',
      description: DESCRIPTION,
      properties: {
        execution_id: EXECUTION_ID,
        total: {},
        first: {},
        label: { type: 'string' },
        fixed: { type: 'integer' },
        ratio: { type: 'number' },
        ok: { type: 'boolean' },
        nested: {
          type: 'object',
          properties: { items: {}, pair: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'integer' } } },
          required: ['items', 'pair'],
          additionalProperties: false,
        },
      },
      required: ['execution_id', 'total', 'first', 'label', 'fixed', 'ratio', 'ok', 'nested'],
      additionalProperties: false,
    });
  });

  it("a run's structuredContent validates against the workflow's output schema, and is what its text says", async () => {
    const { outputSchema } = await meta<{ outputSchema: object }>(client, 'describe_tool', { name: 'workflow_shaped' });
    const r = await callTool(client, 'workflow_shaped', { who: 'sre' });
    expect(r.isError, text(r)).to.not.equal(true);
    expect(ajv.validate(outputSchema, r.structuredContent), JSON.stringify(ajv.errors)).to.equal(true);
    const sc = r.structuredContent as Record<string, unknown>;
    expect(sc).to.deep.equal({
      execution_id: sc.execution_id,
      total: 2,
      first: 'alpha',
      label: 'report for sre',
      fixed: 3,
      ratio: 0.5,
      ok: true,
      nested: { items: ['alpha', 'beta'], pair: [1, 2] },
    });
    expect(sc.execution_id).to.be.a('string').and.not.equal('not this one');
    expect(JSON.parse(text(r))).to.deep.equal(sc);
  });

  it('with _debug the text is the full document, and structuredContent still the shape the schema promises', async () => {
    const { outputSchema } = await meta<{ outputSchema: object }>(client, 'describe_tool', { name: 'workflow_shaped' });
    const r = await callTool(client, 'workflow_shaped', { _debug: true });
    const debugDoc = JSON.parse(text(r)) as Record<string, unknown>;
    expect(debugDoc).to.include.keys('workflow', 'status', 'steps', 'output');
    expect(ajv.validate(outputSchema, r.structuredContent), JSON.stringify(ajv.errors)).to.equal(true);
    // The rendering, with the run's own id (the template's `execution_id` never replaces it).
    const { execution_id: _template, ...rendered } = debugDoc.output as Record<string, unknown>;
    expect(r.structuredContent).to.deep.equal({ execution_id: debugDoc.execution_id, ...rendered });
    // The schema is strict: the debug document itself is not of that shape.
    expect(ajv.validate(outputSchema, debugDoc)).to.equal(false);
  });

  it('a list or a text template is known too: its value under `output`', async () => {
    const listed = await meta<{ outputSchema: object }>(client, 'describe_tool', { name: 'workflow_listed' });
    expect(listed.outputSchema).to.deep.equal({
      type: 'object',
      description: DESCRIPTION,
      properties: { execution_id: EXECUTION_ID, output: { type: 'array', minItems: 2, maxItems: 2 } },
      required: ['execution_id', 'output'],
      additionalProperties: false,
    });
    const l = await callTool(client, 'workflow_listed');
    expect(ajv.validate(listed.outputSchema, l.structuredContent), JSON.stringify(ajv.errors)).to.equal(true);
    expect((l.structuredContent as { output: unknown }).output).to.deep.equal([2, 'x']);

    const texted = await meta<{ outputSchema: object }>(client, 'describe_tool', { name: 'workflow_texted' });
    expect((texted.outputSchema as { properties: unknown }).properties).to.deep.equal({ execution_id: EXECUTION_ID, output: { type: 'string' } });
    const t = await callTool(client, 'workflow_texted');
    expect(ajv.validate(texted.outputSchema, t.structuredContent), JSON.stringify(ajv.errors)).to.equal(true);
    expect((t.structuredContent as { output: unknown }).output).to.equal('total 2');
  });

  it('a template that is one action, or no template at all, leaves the shape to the run: no output schema', async () => {
    for (const name of ['workflow_whole', 'workflow_bare']) {
      const d = await meta(client, 'describe_tool', { name });
      expect(d, name).not.to.have.property('outputSchema');
    }
    // The run still returns its document as structuredContent, as before.
    const r: CallToolResult = await callTool(client, 'workflow_whole');
    expect(r.structuredContent).to.include({ total: 2 });
  });
});
