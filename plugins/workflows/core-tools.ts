/** core_workflow_*: define, inspect and change workflows; list and fetch executions. */
import {
  administer,
  ANNOTATIONS,
  audit,
  authorize,
  ConflictError,
  coreTool,
  coreToolName,
  permits,
  recordPrincipal,
  SwitchboardError,
  ValidationFailedError,
  writeAs,
  type AdminOperation,
  type CallContext,
  type ExecutionRecord,
  type JsonObject,
  type KernelApi,
  type RecordedPrincipal,
  type Resource,
  type ToolAnnotations,
  type ToolDefinition,
  type WorkflowOperation,
  type WorkflowResource,
  type ExecutionRecords,
} from '../../kernel/index.js';
import { toToolForm, type WorkflowToolForm } from './definition.js';
import type { WorkflowRegistry } from './registry.js';
import { checkForm, validationReport } from './validate-form.js';
import { validationReply } from '../../lib/validation-reply.js';
import { recordValidation } from './validation-events.js';
import { executionNotFound, executionView, getQuery, listArgs, listSummary, MAX_LIMIT, STATUSES } from './execution-views.js';

const { read: READ, create: CREATE, update: UPDATE, delete: DELETE } = ANNOTATIONS;

const NAME = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$', description: 'Workflow name; its tool is workflow_<name>.' };
const ARGS = { type: 'object', description: 'Input arguments: name -> {type, required, default, description}.' };
const STEPS = {
  type: 'array',
  items: { type: 'object' },
  description:
    'Steps, each {id} and one of tool (with args), forEach {items, as, steps, concurrency} or parallel [steps]; optional condition, allow_failure, output, outputs.',
};
const ON_FAILURE = { type: 'array', items: { type: 'object' }, description: 'Rollback tool steps run best-effort after a failure, with .error bound.' };
const OUTPUT = { description: 'The returned document: templates rendered after the last step (single actions keep their type).' };

/** A workflow as the authorizer sees it: its name and who created it. */
function workflowResource(name: string, resource: WorkflowResource | undefined): Resource {
  const owner = resource?.spec.registeredBy;
  return { type: 'workflow', name, ...(owner !== undefined ? { owner } : {}) };
}

function executionResource(r: ExecutionRecord): Resource {
  return { type: 'execution', id: r.execution_id, workflow: r.workflow_name, ...(r.caller !== undefined ? { owner: r.caller } : {}) };
}

const operation = (op: WorkflowOperation): AdminOperation => ({ resource: 'workflow', operation: op });

/** Who wrote (and who approved) a definition: set by these tools only, never taken from arguments. */
interface Stamp {
  registeredBy?: string;
  registeredAs?: RecordedPrincipal;
  approvedBy?: string;
  approvedAs?: RecordedPrincipal;
}

const APPROVE = {
  type: 'boolean',
  description:
    "Administrators: approve the definition as it stands after this update, so its steps run with the caller's and your rights instead of its author's. Every update without it clears an approval.",
};

export function workflowCoreTools(kernel: KernelApi, registry: WorkflowRegistry, executions: ExecutionRecords): ToolDefinition[] {
  const store = () => kernel.services.get('store');
  const namespace = () => kernel.settings().namespace;
  const validated = (name: string, errors: readonly string[]) => recordValidation(kernel.services.find('events'), name, errors);
  const require = (name: string) => {
    const entry = registry.get(name);
    if (!entry) throw new SwitchboardError('NOT_FOUND', `workflow ${name} not found`, { kind: 'workflow', name });
    return entry;
  };
  // Availability as the caller sees the catalogue: a tool they may not call is missing, as an unknown one is.
  const available = (name: string, call: CallContext) => registry.availability(name, undefined, registry.presenceFor(call));
  const summary = (name: string, call: CallContext) => {
    const entry = require(name);
    // The interface's three fields; who registered it is in core_workflow_get.
    return { name, description: entry.workflow.def.description, available: available(name, call).available };
  };
  // Inside an exclusive edit, like every definition write: two writers never interleave.
  const write = (form: WorkflowToolForm, key: string | undefined, call: CallContext, stamp: Stamp) =>
    kernel.config.exclusive(async (edits) => {
      const check = checkForm(form, namespace(), registry, key ?? 'core_workflow', registry.presenceFor(call));
      if (check.errors.length) {
        validated(form.name, check.errors);
        throw new ValidationFailedError('validation failed', check.errors, { name: form.name });
      }
      Object.assign(check.resource.spec, stamp);
      const raw = await store().write('workflow', form.name, check.resource as unknown as Record<string, unknown>, key, await writeAs(kernel, call));
      await edits.apply(raw);
      return { ...toToolForm(check.resource), available: available(form.name, call).available, warnings: check.warnings };
    });

  const prefix = kernel.settings().aggregator.servicePrefix;
  const tool = (
    name: string,
    description: string,
    annotations: ToolAnnotations,
    properties: Record<string, unknown>,
    required: string[],
    run: (args: JsonObject, call: CallContext) => Promise<JsonObject>,
    op?: AdminOperation,
  ): ToolDefinition => coreTool(prefix, { name, description, annotations, properties, required, run, ...(op ? { operation: op } : {}) });

  return [
    tool('core_workflow_list', 'List workflows with their availability.', READ, {}, [], async (_a, call) => {
      const workflows = registry
        .names()
        .filter((n) => permits(kernel, call, 'read', workflowResource(n, registry.get(n)?.resource)))
        .map((n) => summary(n, call));
      return { workflows, total: workflows.length };
    }),
    tool('core_workflow_get', 'Get the complete definition of a workflow.', READ, { name: NAME }, ['name'], async (a, call) => {
      const entry = require(a.name as string);
      if (!permits(kernel, call, 'read', workflowResource(a.name as string, entry.resource)))
        throw new SwitchboardError('NOT_FOUND', `workflow ${a.name as string} not found`, { kind: 'workflow', name: a.name as string });
      return { ...toToolForm(entry.resource), available: available(a.name as string, call).available, source: entry.origin };
    }),
    tool(
      'core_workflow_available',
      'Tell whether a workflow can run now, naming the tools it misses (nested workflows followed).',
      READ,
      { name: NAME },
      ['name'],
      async (a, call) => {
        require(a.name as string);
        const av = available(a.name as string, call);
        return { name: a.name as string, available: av.available, missing_tools: av.missing };
      },
    ),
    // An empty step list is reported by the workflow check itself, in words (create, update, validate alike).
    tool(
      'core_workflow_validate',
      'Check a workflow definition without creating it: errors, warnings, tool availability.',
      READ,
      { name: NAME, description: { type: 'string' }, args: ARGS, steps: STEPS, onFailure: ON_FAILURE, output: OUTPUT, labels: { type: 'object' } },
      ['name', 'steps'],
      async (a, call) => {
        const form = a as unknown as WorkflowToolForm;
        const check = checkForm(form, namespace(), registry, 'core_workflow_validate', registry.presenceFor(call));
        // The one place a validation ends, valid or not: its event, then its reply.
        validated(form.name, check.errors);
        return validationReply('workflow', form.name, validationReport(check));
      },
    ),
    tool(
      'core_workflow_create',
      'Create a workflow; its tool workflow_<name> appears at once.',
      CREATE,
      { name: NAME, description: { type: 'string' }, args: ARGS, steps: STEPS, onFailure: ON_FAILURE, output: OUTPUT, labels: { type: 'object' } },
      ['name', 'steps'],
      async (a, call) => {
        const form = a as unknown as WorkflowToolForm;
        return administer(kernel, call, workflowResource(form.name, undefined), 'create', (principal) => {
          if (registry.get(form.name)) throw new ConflictError(`workflow '${form.name}' already exists; use core_workflow_update`, { name: form.name });
          const as = recordPrincipal(principal);
          return write(form, undefined, call, { registeredBy: principal.key, ...(as ? { registeredAs: as } : {}) });
        });
      },
      operation('create'),
    ),
    tool(
      'core_workflow_update',
      'Update a workflow: steps replace all steps; args and description replace theirs when given. Clears an approval unless an administrator approves again (approve: true).',
      UPDATE,
      {
        name: NAME,
        description: { type: 'string' },
        args: ARGS,
        steps: STEPS,
        onFailure: ON_FAILURE,
        output: OUTPUT,
        labels: { type: 'object' },
        approve: APPROVE,
      },
      ['name'],
      async (a, call) => {
        const entry = require(a.name as string);
        const current = toToolForm(entry.resource) as unknown as WorkflowToolForm;
        const { approve, ...changes } = a as Partial<WorkflowToolForm> & { approve?: boolean };
        const form: WorkflowToolForm = { ...current, ...changes, name: current.name };
        const key = kernel.config.snapshot.workflows.get(current.name)?.origin.file;
        const resource = workflowResource(current.name, entry.resource);
        return administer(kernel, call, resource, 'update', async (principal) => {
          const spec = entry.resource.spec;
          const stamp: Stamp = {};
          if (spec.registeredBy !== undefined) {
            stamp.registeredBy = spec.registeredBy;
            // The author rewriting it is recorded as they are now; anyone else's edit keeps the author's record.
            const as = spec.registeredBy === principal.key ? recordPrincipal(principal) : spec.registeredAs;
            if (as) stamp.registeredAs = as;
          }
          // An approval is of one exact definition: any update clears it, unless it approves again.
          if (approve === true) {
            authorize(kernel, call, 'admin', resource, 'approve');
            stamp.approvedBy = principal.key;
            const as = recordPrincipal(principal);
            if (as) stamp.approvedAs = as;
          }
          const written = await write(form, key, call, stamp);
          if (approve === true) audit(kernel, { outcome: 'done', principal, action: 'admin', resource, operation: 'approve' });
          return written;
        });
      },
      operation('update'),
    ),
    tool(
      'core_workflow_delete',
      'Delete a workflow. Running executions and history are unaffected.',
      DELETE,
      { name: NAME },
      ['name'],
      async (a, call) => {
        const entry = require(a.name as string);
        return administer(kernel, call, workflowResource(a.name as string, entry.resource), 'delete', () =>
          kernel.config.exclusive(async (edits) => {
            const key = kernel.config.snapshot.workflows.get(a.name as string)!.origin.file;
            const { location } = await store().remove('workflow', key, await writeAs(kernel, call));
            await edits.removeKey(key);
            return { status: 'deleted', name: a.name as string, file: location };
          }),
        );
      },
      operation('delete'),
    ),
    tool(
      'core_workflow_execution_list',
      'List workflow executions, newest first; filter by status and workflow_name; paged. Summaries only: no input or result.',
      READ,
      {
        limit: { type: 'number', default: 50, description: `1 to ${MAX_LIMIT}.` },
        offset: { type: 'number', default: 0, description: 'At least 0.' },
        status: { type: 'string', description: `One of ${STATUSES.join(', ')} (inprogress is running).` },
        workflow_name: { type: 'string', description: 'Exact, case-sensitive; "" for all.' },
      },
      [],
      async (a, call) => {
        const q = listArgs(coreToolName(prefix, 'core_workflow_execution_list'), a);
        // A person's own runs; administrators see every run.
        const visible = (r: ExecutionRecord) => permits(kernel, call, 'read', executionResource(r));
        const page = await executions.list({ ...q, visible });
        return {
          executions: page.executions.map(listSummary),
          total: page.total,
          limit: q.limit,
          offset: q.offset,
          has_more: q.offset + page.executions.length < page.total,
        };
      },
    ),
    tool(
      'core_workflow_execution_get',
      'Get one execution: status, timing, input, result and (by default) its steps.',
      READ,
      {
        execution_id: { type: 'string', description: 'Required.' },
        include_steps: { default: true, description: 'A boolean: false leaves out every step (and the step ids in the result).' },
        step_id: { type: ['string', 'null'], description: "One step's record, by id ('apply') or path ('deploy[2].apply'): the first match." },
        summary: { type: 'boolean', default: false, description: 'Steps without their arguments and results.' },
      },
      [],
      async (a, call) => {
        const q = getQuery(coreToolName(prefix, 'core_workflow_execution_get'), a);
        const r = await executions.get(q.executionId);
        // Another person's run reads as absent: its id tells nothing.
        if (!r || !permits(kernel, call, 'read', executionResource(r))) throw executionNotFound(q.executionId);
        return executionView(r, q);
      },
    ),
  ];
}
