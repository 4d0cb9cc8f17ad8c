/**
 * Services are how plugins use each other without importing each other: a plugin provides
 * an implementation of a contract (kernel/contracts/), another gets it by name. A third
 * party adds its own by augmenting `Services`:
 *   declare module 'switchboard/kernel' { interface Services { mine: MyApi } }
 */
import type { Authorizer } from './contracts/authorization.js';
import type { Broadcast } from './contracts/broadcast.js';
import type { ClientConfigReader } from './contracts/client-config.js';
import type { CallerTokens, GrantStore, RequestAuthenticator } from './contracts/auth.js';
import type { Embedder } from './contracts/embedder.js';
import type { EventJournalFactory, EventLog } from './contracts/events.js';
import type { ExecutionRecords, ExecutionStorage } from './contracts/executions.js';
import type { HttpService } from './contracts/http.js';
import type { UpstreamRegistry } from './contracts/lifecycle.js';
import type { UpstreamCredentials } from './contracts/sign-in.js';
import type { OrchestratorSecrets } from './contracts/orchestrator-secrets.js';
import type { RateLimiter, SessionCounter } from './contracts/limits.js';
import type { ReplayGuard } from './contracts/replay.js';
import type { SessionDirectory } from './contracts/session-directory.js';
import type { SingleUseValues } from './contracts/single-use.js';
import type { ResourceStore } from './contracts/store.js';
import type { TaskStore } from './contracts/task-store.js';
import type { ToolSearch } from './contracts/tool-search.js';
import type { ToolSignatures } from './contracts/tool-signatures.js';
import type { ToolsetService } from './contracts/toolsets.js';
import type { WorkflowAvailability } from './contracts/workflow-availability.js';

export interface Services {
  store: ResourceStore;
  upstreams: UpstreamRegistry;
  http: HttpService;
  toolsets: ToolsetService;
  /** Who may do what (authorization: built-in roles; authorization-cedar: policies). Absent: administrators only for admin operations. */
  authorizer: Authorizer;
  /** The gate in front of the MCP paths (auth-server); absent means the endpoint is open. */
  authenticator: RequestAuthenticator;
  /** The signed-in person's identity-provider tokens (auth-server), for writes as the caller. */
  'caller-tokens': CallerTokens;
  /** Where an auth plugin keeps what it issues (store-files). */
  'grant-store': GrantStore;
  /** What happened to servers, workflows and executions (events). */
  events: EventLog;
  /** Workflow runs and their steps (workflows); code mode adds its scripts' runs. */
  executions: ExecutionRecords;
  /** Each owner's grants for remote servers that need sign-in (auth-client). */
  'upstream-credentials': UpstreamCredentials;
  /** Secrets the orchestrator holds (store-kubernetes), for clientCredentialsSecretRef. */
  'orchestrator-secrets': OrchestratorSecrets;
  /** Single-use values shared between replicas (cluster-redis): DPoP proof ids. Absent: each auth plugin remembers its own. */
  'replay-guard': ReplayGuard;
  /** Rate limits counted across replicas (cluster-redis); absent: the limits plugin counts per session in memory. */
  'rate-limiter': RateLimiter;
  /** Sessions per caller counted across replicas (cluster-redis); absent: the limits plugin counts its own registry. */
  'session-counter': SessionCounter;
  /** MCP session records and channels shared by replicas (cluster-redis); absent: one process, sessions in memory. */
  'session-directory': SessionDirectory;
  /** Sign-in tickets and flows in progress shared between replicas (cluster-redis); absent: auth-client keeps its own. */
  'single-use-values': SingleUseValues;
  /** Where the event log is kept when not in memory/files: a stream shared by replicas (cluster-redis). */
  'event-journal': EventJournalFactory;
  /** Where execution records are kept when not in files: shared by replicas (cluster-redis). */
  'execution-storage': ExecutionStorage;
  /** Messages to every replica (cluster-redis), for caches of shared state to follow its changes; absent: one process. */
  broadcast: Broadcast;
  /** Where tasks are kept when not in files: shared by replicas (cluster-redis). */
  'task-store': TaskStore;
  /** filter_tools' ranking of the catalogue for a query (meta-tools), for searches made on a caller's behalf (code-mode). */
  'tool-search': ToolSearch;
  /** Each tool as the TypeScript call a run_code script makes (code-mode); describe_tool and list_core_tools add it. */
  'tool-signatures': ToolSignatures;
  /** Which workflows can run now and what each lacks (workflows), for status outside the protocol. */
  'workflow-availability': WorkflowAvailability;
  /** Texts to vectors for semantic tool search (embedder-openai, embedder-static); absent: filter_tools ranks lexically. */
  embedder: Embedder;
  /** IDE configuration snippets read as `switchboard import` reads them (client-config), for the admin UI's paste form. */
  'client-config': ClientConfigReader;
}

/** A service's name, as plugins declare it (`provides`, `needs`, `uses`). */
export type ServiceName = keyof Services;

export class ServiceRegistry {
  private readonly impls = new Map<string, unknown>();

  provide<K extends keyof Services>(name: K, impl: Services[K]): void {
    if (this.impls.has(name)) throw new Error(`service '${name}' is already provided`);
    this.impls.set(name, impl);
  }

  get<K extends keyof Services>(name: K): Services[K] {
    const impl = this.impls.get(name);
    if (impl === undefined) throw new Error(`service '${name}' is not provided (is its plugin enabled?)`);
    return impl as Services[K];
  }

  find<K extends keyof Services>(name: K): Services[K] | undefined {
    return this.impls.get(name) as Services[K] | undefined;
  }
}
