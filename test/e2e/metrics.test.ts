/**
 * Metrics as an operator scrapes them: Switchboard started with OTEL_METRICS_EXPORTER=
 * prometheus, real calls made through call_tool and a workflow, /metrics read over HTTP.
 * Counters and histograms carry the real tool name, server and outcome.
 */
import { expect } from 'chai';
import { PING_TWICE } from '../fixtures/workflows.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, connectHttp, eventually, freePort, startSwitchboard, stdioServer, TEST_SERVER, type Running } from '../support/harness.js';

describe('metrics (OpenTelemetry, Prometheus exporter)', function () {
  this.timeout(30_000);
  let sb: Running;
  let metricsUrl: string;

  before(async () => {
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    sb = await startSwitchboard(
      {
        'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER),
        'workflows/ping-twice.yaml': PING_TWICE,
        'config.yaml': 'aggregator:\n  limits:\n    rateLimit: {callsPerSecond: 1000, burst: 1000}\n',
      },
      { env: { OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1', OTEL_EXPORTER_PROMETHEUS_PORT: String(port) } },
    );
  });
  after(async () => {
    await sb?.stop();
  });

  const scrape = async () => (await fetch(metricsUrl)).text();
  const sample = (text: string, name: string, labels: Record<string, string>): number | undefined => {
    for (const line of text.split('\n')) {
      if (!line.startsWith(`${name}{`)) continue;
      if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
    }
    return undefined;
  };

  it('counts and times tool calls under their real names, servers and outcomes', async () => {
    const client = await connectHttp(sb.url);
    for (let i = 0; i < 3; i++) await callTool(client, 'x_tools_add', { a: i, b: 1 });
    await callTool(client, 'x_tools_fail_rpc', {});
    await callTool(client, 'no_such_tool', {});
    await callTool(client, 'x_tools_add', { a: 'not a number' });
    await callTool(client, 'core_workflow_execution_list', {});
    await client.close();
    const text = await scrape();
    expect(
      sample(text, 'switchboard_tool_calls_total', { gen_ai_tool_name: 'x_tools_add', switchboard_server: 'tools', switchboard_call_outcome: 'ok' }),
    ).to.equal(3);
    expect(
      sample(text, 'switchboard_tool_calls_total', { gen_ai_tool_name: 'x_tools_add', switchboard_call_outcome: 'refused', error_type: 'INVALID_ARGUMENTS' }),
    ).to.equal(1);
    expect(
      sample(text, 'switchboard_tool_calls_total', { gen_ai_tool_name: '_other', switchboard_call_outcome: 'refused', error_type: 'TOOL_NOT_FOUND' }),
    ).to.equal(1);
    expect(
      sample(text, 'switchboard_tool_calls_total', {
        gen_ai_tool_name: 'core_workflow_execution_list',
        switchboard_server: 'switchboard',
        switchboard_tool_kind: 'core',
      }),
    ).to.equal(1);
    expect(
      sample(text, 'mcp_server_operation_duration_count', { gen_ai_tool_name: 'x_tools_add', switchboard_call_outcome: 'ok', mcp_method_name: 'tools/call' }),
    ).to.equal(3);
    expect(sample(text, 'mcp_server_operation_duration_bucket', { gen_ai_tool_name: 'x_tools_add', switchboard_call_outcome: 'ok', le: '+Inf' })).to.equal(3);
    expect(text).to.match(/switchboard_tool_calls_total\{[^}]*gen_ai_tool_name="x_tools_fail_rpc"[^}]*switchboard_call_outcome="(error_result|error)"/);
  });

  it('records workflow executions and their steps as the tools they ran', async () => {
    const client = await connectHttp(sb.url);
    const before = sample(await scrape(), 'switchboard_tool_calls_total', { gen_ai_tool_name: 'x_tools_ping', switchboard_call_outcome: 'ok' }) ?? 0;
    await callTool(client, 'workflow_ping-twice', {});
    await client.close();
    const text = await scrape();
    expect(sample(text, 'switchboard_workflow_executions_total', { switchboard_workflow: 'workflow_ping-twice', switchboard_call_outcome: 'ok' })).to.equal(1);
    expect(sample(text, 'switchboard_tool_calls_total', { gen_ai_tool_name: 'x_tools_ping', switchboard_call_outcome: 'ok' })).to.equal(before + 2);
  });

  it('shows sessions, upstream state and tool counts', async () => {
    const client = await connectHttp(sb.url);
    const text = await eventually(scrape, (t) => (sample(t, 'switchboard_sessions_active', { network_transport: 'streamable-http' }) ?? 0) >= 1);
    expect(sample(text, 'switchboard_upstream_state', { switchboard_server: 'tools', switchboard_state: 'running' })).to.equal(1);
    expect(sample(text, 'switchboard_upstream_state', { switchboard_server: 'tools', switchboard_state: 'failed' })).to.equal(0);
    expect(sample(text, 'switchboard_upstream_tools', { switchboard_server: 'tools' })).to.be.greaterThan(3);
    await client.close();
  });
});

describe('the Grafana dashboard in examples/', function () {
  this.timeout(60_000);

  it('is a dashboard document, and every metric it queries exists on /metrics after a workload', async () => {
    const { readFile, writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { ROOT } = await import('../support/harness.js');
    const dashboard = JSON.parse(await readFile(join(ROOT, 'examples/grafana/switchboard-dashboard.json'), 'utf8')) as {
      uid: string;
      title: string;
      schemaVersion: number;
      panels: { id: number; type: string; gridPos: object; targets: { expr: string; refId: string }[] }[];
    };
    expect(dashboard).to.include.keys('uid', 'title', 'schemaVersion', 'panels');
    expect(dashboard.schemaVersion).to.be.a('number');
    const queried = new Set<string>();
    for (const p of dashboard.panels) {
      expect(p, `panel ${p.id}`).to.include.keys('id', 'type', 'gridPos', 'targets');
      // Metric names, not label names: grouping lists and matchers are cut out first.
      for (const t of p.targets)
        for (const m of t.expr
          .replace(/\bby \([^)]*\)/g, '')
          .replace(/\{[^}]*\}/g, '')
          .matchAll(/\b(switchboard_[a-z_]+|mcp_[a-z_]+)\b/g))
          queried.add(m[1]!);
    }
    expect(queried.size).to.be.greaterThan(5);

    const port = await freePort();
    const sb = await startSwitchboard(
      {
        'mcpservers/tools.yaml': stdioServer('tools', TEST_SERVER, [], 'backoff: {initialSeconds: 0.2, maxSeconds: 1}\n'),
        'workflows/ping-twice.yaml': PING_TWICE,
      },
      { env: { OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1', OTEL_EXPORTER_PROMETHEUS_PORT: String(port) } },
    );
    try {
      const client = await connectHttp(sb.url);
      await callTool(client, 'x_tools_add', { a: 1, b: 2 });
      await callTool(client, 'workflow_ping-twice', {});
      await callTool(client, 'x_tools_crash', {}).catch(() => undefined);
      // Ended, not just dropped: the session's length is recorded.
      await (client.transport as StreamableHTTPClientTransport).terminateSession();
      await client.close();
      // A configuration change, applied.
      await writeFile(
        join(sb.configDir, 'mcpservers/tools.yaml'),
        stdioServer('tools', TEST_SERVER, [], 'description: edited\nbackoff: {initialSeconds: 0.2, maxSeconds: 1}\n'),
      );
      const names = (t: string) => new Set([...t.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]!));
      const missing = (t: string) => [...queried].filter((q) => !names(t).has(q.replace(/_(bucket|count|sum)$/, '')));
      const text = await eventually(
        () => fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text()),
        (t) => missing(t).length === 0,
        15_000,
        200,
      ).catch(async () => fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text()));
      expect(missing(text), 'metrics the dashboard queries that /metrics lacks').to.deep.equal([]);
    } finally {
      await sb.stop();
    }
  });
});
