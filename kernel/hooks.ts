/**
 * The extension API. Like webpack's compiler hooks, each is named for the moment it fires;
 * plugins tap them, the kernel calls them. Payload types are the contract.
 */
import { AsyncSeriesHook, SyncHook, SyncWaterfallHook } from 'tapable';
import type { ConfigSnapshot } from './config/snapshot.js';
import type { Catalogue, CatalogueEntry } from './catalogue.js';
import type { RequestContext } from './request-context.js';
import type { CallContext, JsonObject, ToolDefinition } from './tools.js';
import type { Session } from './sessions.js';
import type { CallEnd, SharedWriteDrop } from './contracts/observations.js';
import type { ConfigProblem } from './errors.js';
import type { AuditEntry } from './authorization/authorize.js';

export interface ServiceStateChange {
  name: string;
  serviceType: 'Aggregator' | 'MCPServer';
  state: string;
  previous: string;
  detail?: string;
  /** The transition is part of a restart (an operator's, or a changed definition's): its `starting` is not a first start. */
  restart?: true;
}

export interface KernelHooks {
  /** A configuration snapshot was loaded (startup) or changed (hot reload, core_config_reload). Taps reconcile. */
  onConfigLoad: AsyncSeriesHook<[ConfigSnapshot, ConfigSnapshot | undefined]>;
  /** A tool is about to enter the catalogue; taps may return an enriched definition. */
  onToolRegister: SyncWaterfallHook<[ToolDefinition]>;
  /** The catalogue changed (tools added, removed or replaced). Fires after the change is visible. */
  onCatalogueChange: SyncHook<[Catalogue]>;
  /** A JSON-RPC request to a meta-tool arrived. Taps may narrow (`view`), identify or refuse (throw). */
  onRequest: AsyncSeriesHook<[RequestContext]>;
  /** A tool passed lookup, visibility and argument checks and is about to run. Taps may refuse (throw). */
  onCall: AsyncSeriesHook<[CatalogueEntry, JsonObject, CallContext]>;
  /**
   * A catalogue tool call ended, however it ended (kernel/contracts/observations.ts). Taps must
   * be cheap and must not throw. A relayed result may have reached its client already (ResultSink).
   */
  onCallEnd: SyncHook<[CallEnd]>;
  /** A configuration change was refused; the last good configuration stays. */
  onConfigRejected: SyncHook<[readonly ConfigProblem[]]>;
  /** A client session is about to open. A tap may refuse it by throwing (a session limit); the client sees the message. */
  onSessionOpen: SyncHook<[Session]>;
  /** Before onSessionOpen, for a check that must wait (a limit counted across replicas); a tap refuses by throwing, as there. */
  onSessionAdmit: AsyncSeriesHook<[Session]>;
  onSessionClose: SyncHook<[Session]>;
  /**
   * What other replicas keep of a session changed (log level, subscriptions): 'here' when a
   * request on this process changed it, 'elsewhere' when another replica did and this copy was
   * updated, or a copy was just rebuilt here from the session's record (cluster mode). Fired only when something taps it; the request that made the
   * change is answered once the taps are done (the other replicas know by then).
   */
  onSessionChange: AsyncSeriesHook<[Session, 'here' | 'elsewhere']>;
  onServiceStateChange: SyncHook<[ServiceStateChange]>;
  /** An authorization decision the audit trail keeps was made: an admin operation done, or any denial. Taps must not throw. */
  onAudit: SyncHook<[AuditEntry]>;
  /** Cluster mode: writes Redis could not take were dropped from a replica's bounded backlog (kernel/contracts/observations.ts). Taps must not throw. */
  onSharedWriteDropped: SyncHook<[SharedWriteDrop]>;
}

export function createHooks(): KernelHooks {
  return {
    onConfigLoad: new AsyncSeriesHook(['next', 'previous']),
    onToolRegister: new SyncWaterfallHook(['tool']),
    onCatalogueChange: new SyncHook(['catalogue']),
    onRequest: new AsyncSeriesHook(['request']),
    onCall: new AsyncSeriesHook(['entry', 'args', 'call']),
    onCallEnd: new SyncHook(['end']),
    onConfigRejected: new SyncHook(['problems']),
    onSessionOpen: new SyncHook(['session']),
    onSessionAdmit: new AsyncSeriesHook(['session']),
    onSessionClose: new SyncHook(['session']),
    onSessionChange: new AsyncSeriesHook(['session', 'origin']),
    onServiceStateChange: new SyncHook(['change']),
    onAudit: new SyncHook(['entry']),
    onSharedWriteDropped: new SyncHook(['drop']),
  };
}
