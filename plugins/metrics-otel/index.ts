/**
 * metrics-otel: OpenTelemetry metrics, exported for Prometheus at
 * OTEL_EXPORTER_PROMETHEUS_HOST:OTEL_EXPORTER_PROMETHEUS_PORT/metrics (default
 * localhost:9464) when OTEL_METRICS_EXPORTER=prometheus. Every tool call is recorded under
 * its REAL name (not call_tool), with server, kind and outcome. Names follow the MCP
 * semantic conventions where they exist (mcp.server.operation.duration, gen_ai.tool.name,
 * error.type); the rest are switchboard.*. The list is in docs/metrics.md.
 */
import type { ObservableResult } from '@opentelemetry/api';
import type { MeterProvider } from '@opentelemetry/sdk-metrics';
import type { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { definePlugin, packageVersion, STATES_BY_TRANSPORT } from '../../kernel/index.js';
import { CallAttributes } from './labels.js';

/** Histogram boundaries in seconds: 1 ms to 2 min, where tool calls live. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export default definePlugin<{ maxToolLabels: number }>({
  name: 'metrics-otel',
  description: 'OpenTelemetry metrics (Prometheus exporter) when OTEL_METRICS_EXPORTER=prometheus.',
  provides: [],
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      maxToolLabels: { type: 'integer', minimum: 1, default: 1000, description: 'Distinct tool names given their own series; the rest are counted as _other.' },
    },
  },
  setup({ kernel, options, log }) {
    const exporters = (process.env.OTEL_METRICS_EXPORTER ?? '').split(',').map((s) => s.trim());
    if (!exporters.includes('prometheus')) return;
    const host = process.env.OTEL_EXPORTER_PROMETHEUS_HOST || 'localhost';
    const port = Number(process.env.OTEL_EXPORTER_PROMETHEUS_PORT || 9464);
    let exporter: PrometheusExporter | undefined;
    let provider: MeterProvider | undefined;

    const hooks = kernel.hooks;
    return {
      async start() {
        // Loaded only when metrics are on: an instance without them pays nothing.
        const [{ metrics: otelApi }, { MeterProvider }, { PrometheusExporter }, { resourceFromAttributes }] = await Promise.all([
          import('@opentelemetry/api'),
          import('@opentelemetry/sdk-metrics'),
          import('@opentelemetry/exporter-prometheus'),
          import('@opentelemetry/resources'),
        ]);
        exporter = await new Promise<PrometheusExporter>((resolve, reject) => {
          const e: PrometheusExporter = new PrometheusExporter({ host, port }, (err) =>
            err ? reject(new Error(`metrics: cannot listen on ${host}:${port}: ${err.message}`)) : resolve(e),
          );
        });
        provider = new MeterProvider({
          resource: resourceFromAttributes({ 'service.name': 'switchboard', 'service.version': packageVersion() }),
          readers: [exporter],
        });
        otelApi.setGlobalMeterProvider(provider);
        const meter = provider.getMeter('switchboard', packageVersion());

        // Tool calls: the histogram is the semantic convention's; the counter makes rates easy to query.
        const duration = meter.createHistogram('mcp.server.operation.duration', {
          unit: 's',
          description: 'Duration of tool calls run through Switchboard, by real tool name, server and outcome.',
          advice: { explicitBucketBoundaries: DURATION_BUCKETS },
        });
        const calls = meter.createCounter('switchboard.tool.calls', {
          description: 'Tool calls run through Switchboard, by real tool name, server, kind and outcome.',
        });
        const workflowRuns = meter.createCounter('switchboard.workflow.executions', { description: 'Workflow executions by workflow and outcome.' });
        const attrs = new CallAttributes(options.maxToolLabels);
        hooks.onCallEnd.tap('metrics-otel', (end) => {
          const a = attrs.of(end);
          duration.record(end.durationMs / 1000, a);
          calls.add(1, a);
          if (end.kind === 'workflow')
            workflowRuns.add(1, { 'switchboard.workflow': a['gen_ai.tool.name'] as string, 'switchboard.call.outcome': end.outcome });
        });

        // Sessions.
        const sessions = meter.createUpDownCounter('switchboard.sessions.active', { description: 'Open client sessions by transport.' });
        const sessionDuration = meter.createHistogram('mcp.server.session.duration', {
          unit: 's',
          description: 'How long client sessions lasted.',
          advice: { explicitBucketBoundaries: [1, 10, 60, 300, 900, 3600, 4 * 3600, 24 * 3600] },
        });
        hooks.onSessionOpen.tap('metrics-otel', (s) => sessions.add(1, { 'network.transport': s.transport }));
        hooks.onSessionClose.tap('metrics-otel', (s) => {
          sessions.add(-1, { 'network.transport': s.transport });
          sessionDuration.record((Date.now() - s.createdAt.getTime()) / 1000, { 'network.transport': s.transport });
        });

        // Upstream servers: state now, and reconnects.
        const reconnects = meter.createCounter('switchboard.upstream.reconnects', { description: 'Reconnect attempts to upstream servers after a failure.' });
        hooks.onServiceStateChange.tap('metrics-otel', (c) => {
          if (c.serviceType === 'MCPServer' && c.state === 'starting' && (c.previous === 'failed' || c.previous === 'unreachable'))
            reconnects.add(1, { 'switchboard.server': c.name });
        });
        // Every state is reported, 1 for the current one and 0 for the rest: a series left out would keep its old value.
        meter
          .createObservableGauge('switchboard.upstream.state', { description: '1 for the state each upstream server is in now, 0 for the others.' })
          .addCallback((result: ObservableResult) => {
            const upstreams = kernel.services.find('upstreams');
            for (const s of upstreams?.list() ?? [])
              // The words core_service_status uses: a remote server is connected/disconnected, a stdio one running/stopped.
              for (const state of STATES_BY_TRANSPORT[s.metadata.type === 'stdio' ? 'local' : 'remote'])
                result.observe(s.state === state ? 1 : 0, { 'switchboard.server': s.name, 'switchboard.state': state });
          });
        meter
          .createObservableGauge('switchboard.upstream.tools', { description: 'Tools each upstream server contributes now.' })
          .addCallback((result: ObservableResult) => {
            const upstreams = kernel.services.find('upstreams');
            for (const s of upstreams?.list() ?? []) result.observe(upstreams!.toolCount(s.name), { 'switchboard.server': s.name });
          });

        // Configuration.
        const reloads = meter.createCounter('switchboard.config.reloads', {
          description: 'Configuration changes applied or rejected (the last good configuration stays).',
        });
        hooks.onConfigLoad.tap('metrics-otel', (_next, previous) => {
          if (previous) reloads.add(1, { 'switchboard.config.outcome': 'applied' });
        });
        hooks.onConfigRejected.tap('metrics-otel', () => reloads.add(1, { 'switchboard.config.outcome': 'rejected' }));

        // Cluster mode: what Redis could not take for longer than a replica's backlog holds.
        const dropped = meter.createCounter('switchboard.cluster.writes.dropped', {
          description:
            'Events and execution-record states dropped because Redis refused writes (out of memory, unreachable) for longer than the bounded backlog holds.',
        });
        hooks.onSharedWriteDropped.tap('metrics-otel', (drop) => dropped.add(drop.count, { 'switchboard.record.kind': drop.kind }));
        log.info(`metrics on http://${host}:${port}/metrics`);
      },
      async stop() {
        await provider?.shutdown().catch(() => undefined);
        await exporter?.stopServer().catch(() => undefined);
      },
    };
  },
});
