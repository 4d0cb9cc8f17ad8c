/**
 * The configuration reference, rendered from schemas/ so the docs cannot drift from what
 * is validated. `switchboard reference` prints it; a test keeps docs/config-reference.md equal.
 */
import { loadSchema, type SchemaName } from '../../kernel/config/validate.js';
import { restartOnlyPaths } from '../../kernel/config/restart-keys.js';

type Schema = Record<string, unknown> & {
  type?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: boolean | Schema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  required?: string[];
  $ref?: string;
  oneOf?: Schema[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  'x-applies'?: string;
};

function resolveRef(root: Schema, s: Schema): Schema {
  if (!s.$ref) return s;
  const path = s.$ref.replace(/^#\//, '').split('/');
  let node: unknown = root;
  for (const p of path) node = (node as Record<string, unknown>)[p];
  return node as Schema;
}

function typeOf(root: Schema, raw: Schema): string {
  const s = resolveRef(root, raw);
  if (s.enum) return s.enum.map((v) => `\`${String(v)}\``).join(' \\| ');
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  if (s.oneOf) return s.oneOf.map((o) => typeOf(root, o)).join(' or ');
  if (s.type === 'array') return `list of ${s.items ? typeOf(root, s.items) : 'any'}`;
  if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object' && !s.properties) {
    return `map of name -> ${typeOf(root, s.additionalProperties)}`;
  }
  return typeof s.type === 'string' ? s.type : 'any';
}

function notes(s: Schema, restart: boolean): string {
  const parts: string[] = [];
  if (s.description) parts.push(s.description);
  // Marked on the key itself and every key under it: a reader looks a field up on its own row.
  if (restart) parts.push('**Changes on restart** (a running instance logs the change and keeps the value it started with).');
  if (s.minimum !== undefined || s.maximum !== undefined) parts.push(`Range ${s.minimum ?? '-inf'}..${s.maximum ?? 'inf'}.`);
  if (s.pattern) parts.push(`Pattern \`${s.pattern}\`.`);
  if (s.format) parts.push(`Format ${s.format}.`);
  return parts.join(' ').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function rows(root: Schema, s: Schema, prefix: string, out: string[], underRestart = false): void {
  const required = new Set(s.required ?? []);
  for (const [key, raw] of Object.entries(s.properties ?? {})) {
    const prop = resolveRef(root, raw);
    const name = `${prefix}${key}`;
    const restart = underRestart || raw['x-applies'] === 'restart';
    const def =
      prop.default === undefined ||
      (typeof prop.default === 'object' && prop.default !== null && Object.keys(prop.default).length === 0 && prop.type === 'object' && prop.properties)
        ? '-'
        : `\`${JSON.stringify(prop.default)}\``;
    out.push(`| \`${name}\` | ${typeOf(root, raw)} | ${required.has(key) ? 'yes' : 'no'} | ${def} | ${notes(prop, restart)} |`);
    if (prop.type === 'object' && prop.properties) rows(root, prop, `${name}.`, out, restart);
  }
}

/** The config.yaml keys read only at startup, from the schema's `x-applies: restart`. */
function restartSummary(): string {
  const keys = restartOnlyPaths().map((p) => `\`${p.join('.')}\``);
  return [
    '### What applies live',
    '',
    'A saved config.yaml is applied while Switchboard runs, every key at once, except these, which the process reads at',
    'startup (and every key under them): ' + keys.join(', ') + '.',
    'Changing one logs `<key> changes on restart` once, lists it under `RestartRequired` in `core_config_get` and',
    "`restartRequired` in `core_config_update_aggregator`, marks it on the admin UI's Settings page, and",
    '`switchboard check` names it while the Switchboard started from that directory runs. The schema marks them',
    '(`"x-applies": "restart"`), which is where this list comes from.',
  ].join('\n');
}

function section(title: string, name: SchemaName, intro: string): string {
  const root = loadSchema(name) as Schema;
  const out = [
    `## ${title}`,
    '',
    intro,
    '',
    `Schema: \`schemas/${name}.schema.json\`. ${root.description ?? ''}`.trim(),
    '',
    '| Field | Type | Required | Default | Notes |',
    '|---|---|---|---|---|',
  ];
  rows(root, root, '', out);
  if (name === 'config') out.push('', restartSummary());
  const defs = (root.definitions ?? {}) as Record<string, Schema>;
  for (const [defName, def] of Object.entries(defs)) {
    if (!def.properties) {
      // A value type (like secretValue) has no fields to tabulate: its description is the reference.
      if (def.description) out.push('', `### ${name} / ${defName}`, '', def.description);
      continue;
    }
    out.push('', `### ${name} / ${defName}`, '', '| Field | Type | Required | Default | Notes |', '|---|---|---|---|---|');
    rows(root, def, '', out);
  }
  return out.join('\n');
}

export function renderConfigReference(): string {
  return [
    '# Configuration reference',
    '',
    '<!-- Generated from schemas/ by `switchboard reference`; do not edit by hand (a test compares). -->',
    '',
    'The configuration directory (default `~/.config/switchboard/`, flag `--config-path`) holds `config.yaml`,',
    '`mcpservers/*.yaml` (one server per file) and `workflows/*.yaml` (one workflow per file). Loading order:',
    'built-in defaults (the Default column), then config.yaml, then the resource files. Unknown fields are errors.',
    '',
    section('config.yaml', 'config', 'Top-level settings.'),
    '',
    section(
      'mcpservers/*.yaml',
      'mcpserver',
      "One MCP server definition per file; relative paths in `command` resolve against the configuration directory, which is also the process's working directory.",
    ),
    '',
    section('workflows/*.yaml', 'workflow', 'One workflow per file, in the resource form `apiVersion`, `kind: Workflow`, `metadata`, `spec`.'),
    '',
  ].join('\n');
}
