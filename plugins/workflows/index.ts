/**
 * workflows: Go-template workflows as tools. Definitions come from workflows/*.yaml (hot
 * reloaded) and from core_workflow_create/update; each becomes `workflow_<name>`; runs are
 * recorded and persisted.
 */
import { join } from 'node:path';
import { callerOf, definePlugin, describePrincipal, publishCoreTools, type ConfigProblem, type WorkflowResource } from '../../kernel/index.js';
import { Authorship } from './authorship.js';
import { compileWorkflow } from './compile-workflow.js';
import { workflowCoreTools } from './core-tools.js';
import { fromResource } from './definition.js';
import { WorkflowEngine } from './engine.js';
import { ExecutionStore } from './execution-store.js';
import { WorkflowRegistry } from './registry.js';
import { WORKFLOW_KIND } from './workflow-kind.js';

interface Options {
  retention: { maxCount: number; maxAgeDays: number };
  maxRecordedResultBytes: number;
}

export default definePlugin<Options>({
  name: 'workflows',
  description: 'Workflow definitions, workflow_<name> tools, the engine and execution records.',
  provides: ['executions', 'workflow-availability'],
  // cluster-redis's shared records, when it provides them; else files under executions/.
  uses: ['execution-storage'],
  needsWhenRunning: ['store'],
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      retention: {
        type: 'object',
        additionalProperties: false,
        default: {},
        properties: {
          maxCount: { type: 'integer', minimum: 1, default: 10000 },
          maxAgeDays: { type: 'number', exclusiveMinimum: 0, default: 21 },
        },
      },
      maxRecordedResultBytes: {
        type: 'integer',
        minimum: 256,
        default: 65536,
        description:
          'Step results and arguments larger than this (as JSON) are kept in execution records truncated, with a marker and their original size. The returned document is never truncated.',
      },
    },
  },
  setup({ kernel, options, log }) {
    kernel.config.addKind(WORKFLOW_KIND);
    const retention = { ...options.retention, maxTotalBytes: () => kernel.settings().aggregator.limits.executions.maxTotalBytes };
    const shared = kernel.services.find('execution-storage');
    const executions = shared ? shared.create(retention) : new ExecutionStore(join(kernel.config.configPath, 'executions'), retention, log);
    kernel.services.provide('executions', executions);
    let engine: WorkflowEngine | undefined;
    const registry = new WorkflowRegistry(
      kernel.catalogue,
      () =>
        (engine ??= new WorkflowEngine(kernel.tools, executions, {
          maxRecordedResultBytes: options.maxRecordedResultBytes,
          limits: () => kernel.settings().aggregator.limits,
          events: () => kernel.services.find('events'),
          secrets: kernel.secrets,
          callerOf: (call) => {
            const p = callerOf(kernel, call);
            return { key: p.key, name: describePrincipal(p) };
          },
        })),
      (name, missing) =>
        kernel.services.find('events')?.record({
          type: 'Warning',
          reason: 'WorkflowUnavailable',
          resource: { type: 'Workflow', name },
          message: `Workflow ${name} is unavailable (missing tools: ${missing.join(', ')})`,
        }),
      new Authorship(kernel),
    );

    // Files get the same checks as core_workflow_create: templates, conditions, cycles.
    kernel.config.addCheck((kind, value, raw) => {
      if (kind !== WORKFLOW_KIND.name) return [];
      const resource = value as WorkflowResource;
      const at = raw.parsed.locate(['spec']);
      const problem = (message: string): ConfigProblem => ({ file: raw.parsed.file, ...at, field: 'spec', message });
      const compiled = compileWorkflow(fromResource(resource, raw.parsed.file));
      if (!compiled.ok) return compiled.errors.map(problem);
      const cycle = registry.cycleThrough(resource.metadata.name, compiled.workflow.tools);
      return cycle ? [problem(`nested workflows form a cycle: ${cycle.join(' -> ')}`)] : [];
    });

    kernel.hooks.onConfigLoad.tap('workflows', (next) => registry.reconcile(next));
    kernel.services.provide('workflow-availability', {
      list: () => registry.names().map((name) => ({ name, ...registry.availability(name) })),
    });
    publishCoreTools(kernel, 'core:workflows', () => workflowCoreTools(kernel, registry, executions));
    // Availability and the derived readOnlyHint follow the live catalogue.
    kernel.hooks.onCatalogueChange.tap('workflows', () => registry.publish());

    return {
      start: () => executions.open(),
      async stop() {
        engine?.cancelAll();
        await executions.close();
      },
    };
  },
});
