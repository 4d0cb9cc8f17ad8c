/** core_mcpserver_*: the registered MCP server definitions, read and written through the store. */
import {
  administer,
  ANNOTATIONS,
  authorizeHere,
  ConflictError,
  coreTool,
  coreToolName,
  ForbiddenError,
  isActiveState,
  NotFoundError,
  permits,
  redactDefinition,
  ValidationFailedError,
  writeAs,
  type CallContext,
  type ConfigEdits,
  type JsonObject,
  type KernelApi,
  type McpServerDefinition,
  type Principal,
  type SecretValue,
  type ToolDefinition,
} from '../../kernel/index.js';
import { schemaErrors, SERVER_TYPES, warnings, withoutDefaults } from './definition-checks.js';
import { keepRedactedSecrets } from './kept-secrets.js';
import { detect } from './detect.js';
import { checkRuntimeCommand, checkRuntimeEnv } from './runtime-commands.js';
import { checkReferences } from './references.js';
import { checkRuntimeUrl, newUrl } from './runtime-urls.js';
import { outboundPolicy } from '../../lib/net/outbound-policy.js';
import { validationReply } from '../../lib/validation-reply.js';
import { serverResource } from './server-resource.js';
import { AUTH_FIELD } from './auth-field.js';

const STRING_MAP = { type: 'object', additionalProperties: { type: 'string' } };
/** env and headers values: a string (with optional `${NAME}` references) or `{fromFile, prefix?}`. */
const SECRET_MAP = {
  type: 'object',
  additionalProperties: {
    oneOf: [
      { type: 'string' },
      {
        type: 'object',
        additionalProperties: false,
        required: ['fromFile'],
        properties: { fromFile: { type: 'string', minLength: 1 }, prefix: { type: 'string', maxLength: 64, pattern: '^[^\\r\\n]*$' } },
      },
    ],
  },
};
const FIELDS = {
  name: { type: 'string', minLength: 1 },
  // A string, not an enum: an unknown type is refused by the definition check in the
  // reference's words ("unsupported MCP server type: ..."), not by the argument check.
  type: { type: 'string', description: `One of ${SERVER_TYPES.join(', ')}.` },
  description: { type: 'string' },
  toolPrefix: { type: 'string' },
  // An empty command passes the argument check so that the definition check words it ("command is required for stdio type").
  command: {
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'The executable alone (arguments in args), or executable and arguments as a list.',
  },
  args: { type: 'array', items: { type: 'string' } },
  url: { type: 'string' },
  env: {
    ...SECRET_MAP,
    description: "Replaces the whole map on update; a value '<redacted>' keeps the stored one. `${NAME}` and {fromFile} keep secrets out of the file.",
  },
  headers: { ...SECRET_MAP, description: "A value '<redacted>' on update keeps the stored one." },
  timeout: { type: 'integer', minimum: 1, description: 'Connection timeout, seconds.' },
  callTimeout: { type: 'integer', minimum: 1, description: 'Seconds one tool call may take before TIMEOUT (default 60).' },
  autoStart: { type: 'boolean' },
  suspended: { type: 'boolean', description: 'true stops the server and keeps it stopped; false resumes it.' },
  restartRequestedAt: { type: 'string', description: 'RFC 3339 timestamp; a newer value restarts the server once.' },
  disabledTools: {
    type: 'array',
    items: { type: 'string' },
    description: 'Tools switched off, by their names on the server (not x_<server>_...); the whole list is replaced on update, [] switches every tool back on.',
  },
  auth: AUTH_FIELD,
};

function pick<K extends keyof typeof FIELDS>(...keys: K[]): Pick<typeof FIELDS, K> {
  return Object.fromEntries(keys.map((k) => [k, FIELDS[k]])) as Pick<typeof FIELDS, K>;
}

/** The fields of a definition as create and validate take them. */
const DEFINITION = pick(
  'name',
  'type',
  'description',
  'toolPrefix',
  'command',
  'args',
  'url',
  'env',
  'headers',
  'timeout',
  'callTimeout',
  'autoStart',
  'disabledTools',
  'auth',
);

export function mcpServerTools(kernel: KernelApi, prefix: string): ToolDefinition[] {
  const store = () => kernel.services.get('store');
  /** A definition as results show it: secrets redacted, where it is stored added. */
  const shown = (value: McpServerDefinition, file: string): JsonObject => ({ ...(redactDefinition(value) as unknown as JsonObject), file });
  const located = (name: string) => {
    const l = kernel.config.snapshot.mcpServers.get(name);
    if (!l) throw new NotFoundError('MCP server', name);
    return l;
  };
  /** Refuses an invalid definition before any policy looks at it: what is wrong with it comes first. */
  const checkDefinition = (name: string, body: Record<string, unknown>): void => {
    const errors = schemaErrors(structuredClone(body));
    if (errors.length) throw new ValidationFailedError('validation failed', errors, { name });
  };
  const save = async (edits: ConfigEdits, call: CallContext, name: string, body: Record<string, unknown>, key?: string): Promise<JsonObject> => {
    const raw = await store().write('mcpserver', name, body, key, await writeAs(kernel, call));
    await edits.apply(raw);
    return shown(located(name).value, raw.key);
  };
  /** New `${NAME}` and `{fromFile}` references in the arguments, against what is stored (references.ts). */
  const references = (principal: Principal, a: JsonObject, stored?: McpServerDefinition): void => {
    const settings = kernel.settings();
    for (const field of ['env', 'headers'] as const) {
      checkReferences(field, a[field] as Record<string, SecretValue> | undefined, stored?.[field], principal, settings, kernel.config.configPath);
    }
    // The exchange's client secret file is sent (as Basic credentials) to an endpoint the caller names: the same rule as {fromFile}.
    const secretFile = (d: Partial<McpServerDefinition> | undefined) => {
      const file = d?.auth?.tokenExchange?.clientSecretFile;
      return file === undefined ? undefined : { clientSecretFile: { fromFile: file } };
    };
    checkReferences('auth.tokenExchange', secretFile(a), secretFile(stored), principal, settings, kernel.config.configPath);
  };
  /** What create would refuse under runtimeServers, as validate's errors. */
  const runtimeRefusals = (def: McpServerDefinition): string[] =>
    [() => checkRuntimeCommand(kernel.settings(), def), () => checkRuntimeEnv(kernel.settings(), def.env)].flatMap((check) => {
      try {
        check();
        return [];
      } catch (err) {
        if (err instanceof ForbiddenError) return [err.message];
        throw err;
      }
    });
  const remove = async (edits: ConfigEdits, call: CallContext, name: string, l: ReturnType<typeof located>): Promise<JsonObject> => {
    const state = kernel.services.get('upstreams').status(name)?.state ?? 'stopped';
    // Only a server that is (or is about to be) serving is protected; a failed, unreachable
    // or stopped one has nothing running to lose, and deleting it ends its backoff.
    if (isActiveState(state) || state === 'starting') {
      throw new ConflictError(`MCP server '${name}' is ${state} and must be stopped first (${coreToolName(prefix, 'core_service_stop')} {"name": "${name}"})`, {
        name,
        state,
      });
    }
    const { location } = await store().remove('mcpserver', l.origin.file, await writeAs(kernel, call));
    await edits.removeKey(l.origin.file);
    return { status: 'deleted', name, file: location };
  };

  return [
    coreTool(prefix, {
      name: 'core_mcpserver_list',
      description: 'List the registered MCP server definitions.',
      annotations: ANNOTATIONS.read,
      run: async (_a, call) => {
        const mcpServers = [...kernel.config.snapshot.mcpServers.values()]
          .filter((l) => permits(kernel, call, 'read', serverResource(l.value)))
          .map((l) => redactDefinition(l.value) as unknown as JsonObject);
        return { mcpServers, mode: store().mode, total: mcpServers.length };
      },
    }),
    coreTool(prefix, {
      name: 'core_mcpserver_get',
      description: "Get one MCP server's definition.",
      annotations: ANNOTATIONS.read,
      properties: pick('name'),
      required: ['name'],
      run: async (a, call) => {
        const l = located(a.name as string);
        // Unreadable reads as absent: a caller learns nothing of definitions it may not read.
        if (!permits(kernel, call, 'read', serverResource(l.value))) throw new NotFoundError('MCP server', l.value.name);
        return shown(l.value, l.origin.file);
      },
    }),
    coreTool(prefix, {
      name: 'core_mcpserver_create',
      description: 'Register a new MCP server; it is written to mcpservers/<name>.yaml and connects at once (remote, or stdio with autoStart).',
      annotations: ANNOTATIONS.create,
      operation: { resource: 'server', operation: 'create' },
      properties: DEFINITION,
      required: ['name', 'type'],
      run: (a, call) => {
        const body = a as unknown as McpServerDefinition;
        return administer(kernel, call, serverResource(body), 'create', async (principal) => {
          checkDefinition(a.name as string, a);
          checkRuntimeCommand(kernel.settings(), body);
          checkRuntimeEnv(kernel.settings(), body.env);
          references(principal, a);
          await checkRuntimeUrl(kernel.settings(), body);
          return kernel.config.exclusive(async (edits) => {
            const name = a.name as string;
            if (kernel.config.snapshot.mcpServers.has(name))
              throw new ConflictError(`MCP server '${name}' already exists; use core_mcpserver_update`, { name });
            return save(edits, call, name, { ...a, registeredBy: principal.key });
          });
        });
      },
    }),
    coreTool(prefix, {
      name: 'core_mcpserver_update',
      description:
        'Change an MCP server definition; only the fields given change (env replaces the whole map). The server reconnects when its connection settings change.',
      annotations: ANNOTATIONS.update,
      operation: { resource: 'server', operation: 'update' },
      properties: pick(
        'name',
        'type',
        'description',
        'toolPrefix',
        'command',
        'args',
        'url',
        'env',
        'headers',
        'timeout',
        'callTimeout',
        'autoStart',
        'suspended',
        'restartRequestedAt',
        'disabledTools',
        'auth',
      ),
      required: ['name'],
      run: (a, call) =>
        kernel.config.exclusive(async (edits) => {
          const l = located(a.name as string);
          const merged = { ...withoutDefaults(l.value), ...keepRedactedSecrets(l.value, a) } as Record<string, unknown>;
          const next = withoutDefaults(merged as unknown as McpServerDefinition);
          const nextDef = next as unknown as McpServerDefinition;
          // Decided on the server as it would be: its recorded owner (arguments cannot change
          // registeredBy) and the command it would run.
          return administer(kernel, call, serverResource(nextDef), 'update', async (principal) => {
            checkDefinition(a.name as string, next);
            references(principal, a, l.value);
            const runs = a.command !== undefined || a.args !== undefined || a.type !== undefined;
            if (runs) checkRuntimeCommand(kernel.settings(), nextDef);
            // env replaces the map: the variables checked are those the server would start with.
            if (runs || a.env !== undefined) checkRuntimeEnv(kernel.settings(), nextDef.env);
            if (newUrl(l.value, nextDef)) {
              await checkRuntimeUrl(kernel.settings(), nextDef);
              // The operator's server now goes where a caller said: its connections obey the policy from here on.
              if (nextDef.registeredBy === undefined) next.urlSetBy = principal.key;
            }
            return save(edits, call, a.name as string, next, l.origin.file);
          });
        }),
    }),
    coreTool(prefix, {
      name: 'core_mcpserver_delete',
      description: 'Remove an MCP server definition. The server must be stopped first (core_service_stop).',
      annotations: ANNOTATIONS.delete,
      operation: { resource: 'server', operation: 'delete' },
      properties: pick('name'),
      required: ['name'],
      run: (a, call) =>
        kernel.config.exclusive(async (edits) => {
          const name = a.name as string;
          const l = located(name);
          return administer(kernel, call, serverResource(l.value), 'delete', () => remove(edits, call, name, l));
        }),
    }),
    coreTool(prefix, {
      name: 'core_mcpserver_validate',
      description: 'Check an MCP server definition without creating anything: errors and warnings.',
      annotations: ANNOTATIONS.read,
      properties: DEFINITION,
      required: ['name', 'type'],
      run: async (a) => {
        const invalid = schemaErrors(structuredClone(a));
        // Only a well-formed definition is read for what it would run.
        const errors = invalid.length ? invalid : runtimeRefusals(a as unknown as McpServerDefinition);
        const exists = kernel.config.snapshot.mcpServers.has(a.name as string);
        const report = { valid: errors.length === 0, errors, warnings: warnings(a, kernel.config.configPath, exists) };
        return validationReply('mcpserver', a.name as string, report);
      },
    }),
    coreTool(prefix, {
      name: 'core_mcpserver_detect',
      description: `Probe a URL: is it a streamable-HTTP or SSE MCP server, reachable, behind auth? Never fails for an unreachable URL; a private, loopback or metadata address not in aggregator.network.allow is refused (FORBIDDEN), and redirects are reported, not followed. Also reads the server's card (/.well-known/mcp/server-card.json) when it has one.`,
      annotations: ANNOTATIONS.readOpenWorld,
      // Probing sends requests (and a DNS lookup) wherever the caller says: it takes the
      // permission to create servers, so only those who may are shown it or may call it.
      operation: { resource: 'server', operation: 'create' },
      properties: { url: { type: 'string', minLength: 1 }, headers: STRING_MAP, timeout: { type: 'integer', minimum: 1, maximum: 120, default: 10 } },
      required: ['url'],
      run: async (a, call) => {
        // Decided here even in orchestrator mode: nothing is written there, so its RBAC never sees a probe.
        authorizeHere(kernel, call, 'admin', { type: 'server', name: a.url as string, serverType: 'streamable-http' }, 'create');
        return (await detect(
          a.url as string,
          (a.headers as Record<string, string> | undefined) ?? {},
          a.timeout as number,
          outboundPolicy(kernel.settings()),
        )) as unknown as JsonObject;
      },
    }),
  ];
}
