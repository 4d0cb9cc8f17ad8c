/**
 * The workflows in force, compiled, and their `workflow_<name>` tools in the catalogue.
 * Availability and the derived readOnlyHint follow the live catalogue: when a server's
 * tools come or go, the workflow tools are re-published only if either changed.
 */
import {
  mayCall,
  SwitchboardError,
  type CallContext,
  type CatalogueApi,
  type ConfigSnapshot,
  type ToolDefinition,
  type WorkflowResource,
} from '../../kernel/index.js';
import type { Authorship } from './authorship.js';
import { compileWorkflow, type CompiledWorkflow } from './compile-workflow.js';
import { fromResource, toolName } from './definition.js';
import type { WorkflowEngine } from './engine.js';
import { workflowDetails } from './workflow-details.js';
import { workflowInput } from './workflow-input.js';

/** Whether a tool counts as present: in the catalogue, or in one caller's view of it. */
export type Presence = (tool: string) => boolean;

export interface Availability {
  available: boolean;
  missing: string[];
}

interface Entry {
  resource: WorkflowResource;
  origin: string;
  workflow: CompiledWorkflow;
}

const PREFIX = 'workflow_';

export class WorkflowRegistry {
  private entries = new Map<string, Entry>();
  private published = '';
  private generation = 0;
  /** Whether each workflow could run at the last publish: losing that is a WorkflowUnavailable event. */
  private couldRun = new Map<string, boolean>();

  constructor(
    private readonly catalogue: CatalogueApi,
    private readonly engine: () => WorkflowEngine,
    /** A workflow that could run no longer can (a tool it needs went): told once per loss. */
    private readonly onUnavailable: (name: string, missing: string[]) => void = () => undefined,
    /** Bounds the steps of workflows written through tools by their author's rights. */
    private readonly authorship?: Authorship,
  ) {}

  hasTool(name: string): boolean {
    return this.catalogue.has(name);
  }

  /**
   * Presence as `call`'s caller sees it: a tool they may not call is missing exactly as an
   * unknown one is, so availability never confirms a tool hidden from them.
   */
  presenceFor(call: CallContext): Presence {
    return (tool) => {
      const entry = this.catalogue.get(tool);
      return entry !== undefined && mayCall(call.request, entry);
    };
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  get(name: string): Entry | undefined {
    return this.entries.get(name);
  }

  reconcile(snapshot: ConfigSnapshot): void {
    const next = new Map<string, Entry>();
    for (const [name, located] of snapshot.workflows) {
      const compiled = compileWorkflow(fromResource(located.value, located.origin.file));
      // Invalid definitions never get here (the config check refuses them); stay safe anyway.
      if (compiled.ok) next.set(name, { resource: located.value, origin: located.origin.file, workflow: compiled.workflow });
    }
    this.entries = next;
    this.generation++;
    this.publish();
  }

  /** Every tool a workflow needs, following nested workflows; cycle-safe. */
  availability(name: string, seen = new Set<string>(), present: Presence = (t) => this.catalogue.has(t)): Availability {
    const entry = this.entries.get(name);
    if (!entry) return { available: false, missing: [toolName(name)] };
    if (seen.has(name)) return { available: true, missing: [] };
    seen.add(name);
    const missing = new Set<string>();
    for (const tool of entry.workflow.tools) {
      const nested = tool.startsWith(PREFIX) ? tool.slice(PREFIX.length) : undefined;
      if (nested !== undefined && this.entries.has(nested) && present(tool)) {
        for (const m of this.availability(nested, seen, present).missing) missing.add(m);
      } else if (!present(tool)) {
        missing.add(tool);
      }
    }
    return { available: missing.size === 0, missing: [...missing].sort() };
  }

  /** True when every tool the workflow runs is read-only (nested workflows followed). */
  readOnly(name: string, seen = new Set<string>()): boolean {
    const entry = this.entries.get(name);
    if (!entry || seen.has(name)) return !!entry;
    seen.add(name);
    return entry.workflow.tools.every((tool) => {
      const nested = tool.startsWith(PREFIX) ? tool.slice(PREFIX.length) : undefined;
      if (nested !== undefined && this.entries.has(nested)) return this.readOnly(nested, seen);
      return this.catalogue.get(tool)?.annotations?.readOnlyHint === true;
    });
  }

  /**
   * The workflow `name` would close a cycle with `tools` (workflow_X references)?
   * Returns the cycle path or undefined.
   */
  cycleThrough(name: string, tools: readonly string[]): string[] | undefined {
    const edges = (n: string): string[] => {
      const list = n === name ? tools : (this.entries.get(n)?.workflow.tools ?? []);
      return list.filter((t) => t.startsWith(PREFIX)).map((t) => t.slice(PREFIX.length));
    };
    const visit = (n: string, path: string[]): string[] | undefined => {
      for (const next of edges(n)) {
        if (next === name) return [...path, next];
        if (path.includes(next)) continue;
        const found = visit(next, [...path, next]);
        if (found) return found;
      }
      return undefined;
    };
    return visit(name, [name]);
  }

  /** Re-publishes the workflow tools when definitions, availability or derived hints changed. */
  publish(): void {
    const couldRun = new Map<string, boolean>();
    const state = this.names().map((n) => {
      const a = this.availability(n);
      if (!a.available && this.couldRun.get(n) === true) this.onUnavailable(n, a.missing);
      couldRun.set(n, a.available);
      return [n, a.available, this.readOnly(n)];
    });
    this.couldRun = couldRun;
    const fingerprint = JSON.stringify([this.generation, state]);
    if (fingerprint === this.published) return;
    this.published = fingerprint;
    this.catalogue.replaceSource(
      'workflows',
      this.names().map((n) => this.toolDefinition(n)),
    );
  }

  private toolDefinition(name: string): ToolDefinition {
    const { workflow, resource } = this.entries.get(name)!;
    const def: ToolDefinition = {
      name: toolName(name),
      kind: 'workflow',
      description: workflow.def.description || `Run the workflow '${name}' (${workflow.steps.length} steps).`,
      inputSchema: workflow.inputSchema,
      annotations: { readOnlyHint: this.readOnly(name) },
      details: workflowDetails(resource, this.authorship?.authority(resource)),
      // Its own checks: `_debug` taken out, undeclared arguments kept, the wording of §4.
      checksOwnArguments: true,
      // Run as a task, the run is the task: its execution_id is the task's id (engine.ts).
      execution: { taskSupport: 'optional' },
      invoke: async (args, call) => {
        const current = this.entries.get(name);
        if (!current) throw new SwitchboardError('NOT_FOUND', `workflow ${name} not found`, { kind: 'workflow', name });
        const a = this.availability(name, undefined, this.presenceFor(call));
        if (!a.available) {
          throw new SwitchboardError('WORKFLOW_UNAVAILABLE', `workflow '${name}' is not available (missing required tools: ${a.missing.join(', ')})`, {
            missing_tools: a.missing,
          });
        }
        const { input, debug } = workflowInput(current.workflow, toolName(name), args);
        const steps = this.authorship ? this.authorship.stepCall(current.resource, call) : call;
        return this.engine().run(current.workflow, input, steps, { debug });
      },
    };
    if (Object.keys(workflow.def.labels).length) def.labels = workflow.def.labels;
    if (workflow.outputSchema) def.outputSchema = workflow.outputSchema;
    return def;
  }
}
