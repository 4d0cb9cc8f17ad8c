/**
 * What Switchboard knows about the request being served. Built once per JSON-RPC request
 * by the endpoint, then enriched by `onRequest` taps (the toolset plugin sets `view`, an
 * auth plugin sets `identity`). Meta-tools and call_tool only read it.
 */
import type { CatalogueEntry } from './catalogue.js';
import type { SwitchboardError } from './errors.js';
import type { Session } from './sessions.js';

export type HeaderValue = string | string[] | undefined;

/** A narrowing of the catalogue for this request (e.g. a toolset). */
export interface CatalogueView {
  /** How the view was asked for, for messages (`[preset:x, server:y]`). */
  readonly selectors: readonly string[];
  includes(entry: CatalogueEntry): boolean;
  /** Why a call to an entry this view leaves out fails, when it is not the toolset (a server the caller has not signed in to). */
  refusal?(entry: CatalogueEntry): SwitchboardError | undefined;
  /**
   * Whether the caller may call the entry by permission alone (its toolset aside), set by the
   * authorization view; a view that wraps another passes it on (kernel/authorization/views.ts mayCall).
   */
  permits?(entry: CatalogueEntry): boolean;
  /** Whether the view leaves out a server's resources and prompts as well (the caller may call none of its tools). */
  hidesServer?(server: string): boolean;
}

export interface Identity {
  subject: string;
  claims: Record<string, unknown>;
}

export interface RequestContext {
  readonly session: Session;
  readonly headers: Readonly<Record<string, HeaderValue>>;
  /** The meta-tool called and its arguments as sent (before validation), for taps that meter or refuse. */
  readonly metaTool?: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  view?: CatalogueView;
  identity?: Identity;
  /** Free slots for plugins; key by a Symbol the plugin owns so names never clash. */
  readonly slots: Map<symbol, unknown>;
}

export function headerValue(headers: Readonly<Record<string, HeaderValue>>, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(',') : v;
}
