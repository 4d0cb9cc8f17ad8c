/**
 * core_config_*: the configuration with the specification's capitalised keys; aggregator
 * changes in memory until saved; save edits config.yaml keeping the user's comments and
 * other keys; reload discards unsaved changes.
 */
import { parseDocument } from 'yaml';
import {
  administer,
  ANNOTATIONS,
  coreTool,
  formatConfigProblem,
  networkExposureProblems,
  redactSettings,
  validateDocument,
  ValidationFailedError,
  type AggregatorSettings,
  type JsonObject,
  type KernelApi,
  type Resource,
  type Settings,
  type ToolDefinition,
} from '../../kernel/index.js';

const CONFIG: Resource = { type: 'config', name: 'aggregator' };

/** Capitalised field name -> config.yaml field of `aggregator`. */
const AGGREGATOR_FIELDS = { Port: 'port', Host: 'host', Transport: 'transport', Enabled: 'enabled', ServicePrefix: 'servicePrefix' } as const;
type Capital = keyof typeof AGGREGATOR_FIELDS;

/** Fields that take effect only when the listener is rebuilt (a restart; schemas/ marks them `x-applies: restart`). */
const NEEDS_RESTART: readonly Capital[] = ['Port', 'Host', 'Transport', 'Enabled'];

function capitalise(key: string): string {
  return key.charAt(0).toUpperCase() + key.slice(1);
}

/** Known fields get capitals; user-named maps (presets, plugins) keep their keys. */
function capitaliseFields(obj: Record<string, unknown>, nested: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) {
    out[capitalise(k)] = nested.includes(k) && v && typeof v === 'object' && !Array.isArray(v) ? capitaliseFields(v as Record<string, unknown>, nested) : v;
  }
  return out;
}

export function aggregatorView(a: AggregatorSettings): JsonObject {
  return { Port: a.port, Host: a.host, Transport: a.transport, Enabled: a.enabled, ServicePrefix: a.servicePrefix };
}

export function configTools(kernel: KernelApi, prefix: string): ToolDefinition[] {
  const store = () => kernel.services.get('store');
  return [
    coreTool(prefix, {
      name: 'core_config_get',
      description: 'The whole configuration in force (capitalised keys such as Aggregator), unsaved changes included.',
      annotations: ANNOTATIONS.read,
      run: async () => {
        const s = redactSettings(kernel.settings()) as Record<string, unknown>;
        return {
          ...capitaliseFields(s, ['aggregator', 'admin', 'writesAsCaller']),
          ConfigPath: kernel.config.configPath,
          // Keys configured otherwise than the process started with, that only a restart applies (schemas/: x-applies).
          RestartRequired: kernel.config.restartRequired().map((c) => c.key),
          MCPServers: [...kernel.config.snapshot.mcpServers.keys()],
          Workflows: [...kernel.config.snapshot.workflows.keys()],
        };
      },
    }),
    coreTool(prefix, {
      name: 'core_config_get_aggregator',
      description: 'The aggregator settings: Port, Host, Transport, Enabled, ServicePrefix.',
      annotations: ANNOTATIONS.read,
      run: async () => aggregatorView(kernel.settings().aggregator),
    }),
    coreTool(prefix, {
      name: 'core_config_update_aggregator',
      description:
        'Change aggregator settings in memory (until core_config_save). ServicePrefix applies at once; Port, Host, Transport and Enabled after save and restart.',
      annotations: ANNOTATIONS.update,
      properties: {
        aggregator: {
          type: 'object',
          additionalProperties: false,
          properties: {
            Port: { type: 'integer', minimum: 0, maximum: 65535 },
            Host: { type: 'string', minLength: 1 },
            Transport: { enum: ['streamable-http', 'sse', 'stdio'] },
            Enabled: { type: 'boolean' },
            ServicePrefix: { type: 'string', pattern: '^[A-Za-z0-9_-]*$' },
          },
        },
      },
      required: ['aggregator'],
      operation: { resource: 'config', operation: 'update' },
      run: (a, call) =>
        administer(kernel, call, CONFIG, 'update', () =>
          kernel.config.exclusive(async (edits) => {
            const changes = a.aggregator as Partial<Record<Capital, unknown>>;
            const current = kernel.settings();
            const aggregator = { ...current.aggregator } as Record<string, unknown>;
            for (const [cap, value] of Object.entries(changes)) aggregator[AGGREGATOR_FIELDS[cap as Capital]] = value;
            const next = { ...current, aggregator } as unknown as Settings;
            const problems = validateDocument('config', structuredClone(next), { file: 'arguments', locate: () => ({ line: 0, column: 0 }) });
            // The rule startup, check and reload apply: a bind they would refuse never gets into memory, so core_config_save cannot persist it.
            if (!problems.length) problems.push(...networkExposureProblems(next, { file: 'arguments', locate: () => ({ line: 0, column: 0 }) }));
            if (problems.length)
              throw new ValidationFailedError(
                'invalid aggregator settings',
                problems.map((p) => `${p.field}: ${p.message}`),
              );
            await edits.replaceSettings(next);
            const restart = NEEDS_RESTART.filter(
              (c) => changes[c] !== undefined && changes[c] !== (current.aggregator as unknown as Record<string, unknown>)[AGGREGATOR_FIELDS[c]],
            );
            return {
              aggregator: aggregatorView(next.aggregator),
              saved: false,
              restartRequiredFor: restart,
              // Every restart-only key now configured otherwise than in force, this change's and earlier ones (config.yaml edits included).
              restartRequired: kernel.config.restartRequired().map((c) => c.key),
            };
          }),
        ),
    }),
    coreTool(prefix, {
      name: 'core_config_save',
      description: 'Write the aggregator settings in force to config.yaml (atomically, keeping its comments and other keys).',
      annotations: ANNOTATIONS.update,
      operation: { resource: 'config', operation: 'save' },
      run: (_a, call) =>
        administer(kernel, call, CONFIG, 'save', () =>
          kernel.config.exclusive(async (edits) => {
            const text = await store().readSettingsText();
            const doc = parseDocument(text);
            if (doc.errors.length)
              throw new ValidationFailedError(
                'config.yaml does not parse; not overwriting it',
                doc.errors.map((e) => e.message),
              );
            const a = kernel.settings().aggregator as unknown as Record<string, unknown>;
            for (const field of Object.values(AGGREGATOR_FIELDS)) {
              const inFile = doc.getIn(['aggregator', field]);
              if (inFile !== a[field]) doc.setIn(['aggregator', field], a[field]);
            }
            const { location } = await edits.writeSettings(doc.toString({ lineWidth: 0 }));
            return { status: 'saved', files: [location] };
          }),
        ),
    }),
    coreTool(prefix, {
      name: 'core_config_reload',
      description: 'Reload config.yaml and every resource file, discarding unsaved changes. Problems leave the configuration as it was.',
      annotations: ANNOTATIONS.update,
      operation: { resource: 'config', operation: 'reload' },
      run: (_a, call) =>
        administer(kernel, call, CONFIG, 'reload', () =>
          kernel.config.exclusive(async (edits) => {
            const problems = await edits.reloadAll();
            return { status: problems.length ? 'failed' : 'reloaded', errors: problems.map(formatConfigProblem) };
          }),
        ),
    }),
  ];
}
