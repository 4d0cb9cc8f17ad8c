/**
 * Authorization (service `authorizer`): who may do what. Authentication says who is calling;
 * an Authorizer decides, for every operation, whether that caller may. The kernel asks it for
 * every catalogue tool a caller could see or call (cached per principal and catalogue
 * version, so call_tool pays a lookup) and core tools ask it before every admin operation,
 * read of a definition, execution or event, and sign-in to a remote server.
 *
 * Two plugins implement it: `authorization` (built-in roles, the default) and
 * `authorization-cedar` (Cedar policies in files). A third party provides its own the same
 * way: `kernel.services.provide('authorizer', ...)` from a plugin loaded by module path.
 */
import type { ToolAnnotations, ToolKind } from '../tools.js';
import type { TransportKind } from '../sessions.js';

/**
 * Who is asking. `key` is stable and unique per principal (`person:<sub>`, `local`,
 * `anonymous:<address>`): owners are recorded by it and decisions are cached by it.
 */
export type Principal =
  | {
      kind: 'person';
      key: string;
      /** Named in `authorization.admins` (by subject, email or group). */
      admin: boolean;
      subject: string;
      email?: string;
      /** Groups or roles from the identity provider's claim named by `authorization.groupsClaim`. */
      groups: readonly string[];
      claims: Readonly<Record<string, unknown>>;
    }
  /** No OAuth, and the caller is on this machine: the stdio client, or a loopback peer. */
  | { kind: 'local'; key: 'local'; admin: true; transport: TransportKind }
  /** No OAuth, and the caller came over the network (only with aggregator.allowUnauthenticatedNetwork). */
  | { kind: 'anonymous'; key: string; admin: false; address: string };

/** What a principal asks to do. */
export type Action = 'call' | 'admin' | 'read' | 'signIn';

/** The admin operations, by resource. */
export type ServerOperation = 'create' | 'update' | 'delete' | 'start' | 'stop' | 'restart';
/** `approve`: an administrator vouches for a person's workflow, which then runs with the approver's rights instead of its author's. */
export type WorkflowOperation = 'create' | 'update' | 'delete' | 'approve';
export type ConfigOperation = 'update' | 'save' | 'reload';

/** What the action is on. `owner` is the principal key recorded at creation (absent: the operator's file). */
export type Resource =
  | {
      type: 'tool';
      name: string;
      kind: ToolKind;
      server?: string;
      annotations?: ToolAnnotations;
      labels?: Readonly<Record<string, string>>;
      /** A core tool that performs an admin operation: which one (it is then authorized again when it runs). */
      operation?: AdminOperation;
    }
  | { type: 'server'; name: string; owner?: string; serverType?: string; command?: string }
  | { type: 'workflow'; name: string; owner?: string }
  | { type: 'config'; name: 'aggregator' }
  | { type: 'execution'; id: string; workflow: string; owner?: string }
  | { type: 'events'; name: 'events' }
  | { type: 'admin-ui'; name: 'admin-ui' };

/** An admin operation a core tool performs: the resource type and the operation. */
export type AdminOperation =
  | { resource: 'server'; operation: ServerOperation }
  | { resource: 'workflow'; operation: WorkflowOperation }
  | { resource: 'config'; operation: ConfigOperation };

/** The request around the decision (how the caller came in); never the tool's arguments. */
export interface DecisionContext {
  /** For `admin`: the operation. */
  operation?: string;
  transport?: TransportKind;
  /**
   * Writes of definitions are made to the orchestrator with the caller's own identity (orchestrator
   * mode with OAuth on, interface "writes as caller"): its access control decides them and its
   * audit log names the person, so an authorizer may leave server and workflow writes to it.
   */
  writesAsCaller?: boolean;
}

export type Decision =
  | { allowed: true; rule: string }
  /** `rule` names what denied (a role rule, a policy id with its file and line); `reason` says it in words. */
  | { allowed: false; rule: string; reason: string };

export interface Authorizer {
  /** A name for logs and errors (`built-in roles`, `cedar`). */
  readonly name: string;
  /**
   * Decides synchronously: it runs for every tool of the catalogue when a principal's view is
   * built, so it must not wait on I/O (policies are loaded before, and reloaded on change).
   */
  decide(principal: Principal, action: Action, resource: Resource, context: DecisionContext): Decision;
  /** Increases whenever decisions may change (policies reloaded): cached decisions key on it. */
  readonly version: number;
}
