/**
 * Every error Switchboard raises on purpose is a SwitchboardError with a stable code.
 * Codes are part of the interface (they reach clients in structuredContent.error.code),
 * so they never change meaning; docs/errors.md lists them.
 *
 * Errors that describe a wire, not a refusal, stay plain Errors on purpose, because the code
 * that catches them decides what the client hears: an upstream transport's HttpStatusError,
 * LineTooLongError and ToolListLimitError become SERVER_UNAVAILABLE (mapUpstreamError passes
 * a SwitchboardError through unmapped), KubeApiError is mapped by the Kubernetes store (a
 * 401 or 403) or reaches the caller as INTERNAL, and PrivateAddressError is mapped by the
 * OAuth guards. UpstreamAnswerError is the SDK's McpError.
 */
export type ErrorCode =
  | 'TOOL_NOT_FOUND'
  | 'OUTSIDE_TOOLSET'
  | 'INVALID_ARGUMENTS'
  | 'INVALID_TOOLSET'
  | 'SERVER_UNAVAILABLE'
  | 'AUTH_REQUIRED'
  | 'FORBIDDEN'
  | 'TIMEOUT'
  | 'CONFLICT'
  | 'NOT_FOUND'
  | 'VALIDATION_FAILED'
  | 'UNSUPPORTED'
  | 'UPSTREAM_ERROR'
  | 'WORKFLOW_FAILED'
  | 'WORKFLOW_UNAVAILABLE'
  | 'CANCELLED'
  | 'CONFIG_INVALID'
  | 'SECRET_UNRESOLVED'
  | 'RATE_LIMITED'
  | 'TOO_LARGE'
  | 'SESSION_LIMIT'
  | 'TASK_LIMIT'
  | 'LISTEN_LIMIT'
  | 'SHARED_STATE_UNAVAILABLE'
  | 'PLUGIN_FAILED'
  | 'CODE_FAILED'
  | 'CODE_LIMIT'
  | 'EMBEDDER_UNAVAILABLE'
  | 'INTERNAL';

export class SwitchboardError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }
}

export class ToolNotFoundError extends SwitchboardError {
  /** `suggestion`: a name the caller may call that is probably the one meant, or several equally likely (kernel/tool-suggestion.ts). */
  constructor(
    readonly toolName: string,
    suggestion?: string | readonly string[],
  ) {
    const one = typeof suggestion === 'string' ? suggestion : suggestion?.length === 1 ? suggestion[0] : undefined;
    const several = typeof suggestion === 'string' || (suggestion?.length ?? 0) < 2 ? undefined : suggestion;
    super(
      'TOOL_NOT_FOUND',
      `tool not found: ${toolName}${one ? ` (did you mean '${one}'?)` : several ? ` (did you mean one of ${several.map((s) => `'${s}'`).join(', ')}?)` : ''}`,
      one ? { name: toolName, suggestion: one } : several ? { name: toolName, suggestions: [...several] } : { name: toolName },
    );
  }
}

export class OutsideToolsetError extends SwitchboardError {
  constructor(toolName: string, selectors: readonly string[]) {
    super('OUTSIDE_TOOLSET', `Tool '${toolName}' is outside the toolset [${selectors.join(', ')}]`, {
      name: toolName,
      toolset: [...selectors],
    });
  }
}

export interface ArgumentProblem {
  /** JSON pointer into the arguments object ('' for the object itself; a missing argument's own pointer). */
  path: string;
  /** The whole problem, naming its argument: "limit must be at least 1 (minimum value)". */
  message: string;
}

export class InvalidArgumentsError extends SwitchboardError {
  constructor(
    toolName: string,
    readonly problems: readonly ArgumentProblem[],
  ) {
    const listed = problems.map((p) => p.message).join('; ');
    super('INVALID_ARGUMENTS', `Invalid arguments for '${toolName}': ${listed}`, {
      name: toolName,
      problems: problems.map((p) => ({ ...p })),
    });
  }
}

export class ServerUnavailableError extends SwitchboardError {
  /** `message` replaces the usual wording where clients match other words (a stopped server: "server not found: <server>"). */
  constructor(server: string, reason: string, details?: Record<string, unknown>, message = `Server '${server}' is not available: ${reason}`) {
    super('SERVER_UNAVAILABLE', message, { server, ...details });
  }
}

/** The orchestrator (or another system acting on the caller's identity) refused the caller; its message names what is missing. */
export class ForbiddenError extends SwitchboardError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('FORBIDDEN', message, details);
  }
}

/** A server that needs the caller to sign in (or to sign in again) before it can be used. */
export class AuthRequiredError extends SwitchboardError {
  constructor(server: string, reason: string, authTool: string) {
    super('AUTH_REQUIRED', `Server '${server}' requires sign-in: ${reason}; call ${authTool} with {"server":"${server}"} and open the link it returns`, {
      server,
      auth_tool: authTool,
    });
  }
}

export class TimeoutError extends SwitchboardError {
  constructor(what: string, ms: number) {
    super('TIMEOUT', `${what} timed out after ${ms} ms`, { timeoutMs: ms });
  }
}

export class NotFoundError extends SwitchboardError {
  constructor(kind: string, name: string) {
    super('NOT_FOUND', `${kind} '${name}' not found`, { kind, name });
  }
}

export class ConflictError extends SwitchboardError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('CONFLICT', message, details);
  }
}

export interface ConfigProblem {
  file: string;
  /** 1-based; 0 when the problem has no position (a missing file, a whole-document error). */
  line: number;
  column: number;
  /** Dotted path of the offending field, '' for the document. */
  field: string;
  message: string;
}

export function formatConfigProblem(p: ConfigProblem): string {
  const where = p.line > 0 ? `${p.file}:${p.line}:${p.column}` : p.file;
  return `${where}: ${p.field ? `${p.field}: ` : ''}${p.message}`;
}

export class ConfigInvalidError extends SwitchboardError {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super('CONFIG_INVALID', problems.map(formatConfigProblem).join('\n'), {
      problems: problems.map((p) => ({ ...p })),
    });
  }
}

export class ValidationFailedError extends SwitchboardError {
  /** `report`: more for details beside `problems` (a validate tool's whole answer, say). */
  constructor(
    message: string,
    readonly problems: readonly string[],
    report?: Record<string, unknown>,
  ) {
    super('VALIDATION_FAILED', problems.length ? `${message}: ${problems.join('; ')}` : message, {
      ...report,
      problems: [...problems],
    });
  }
}

export class UpstreamError extends SwitchboardError {
  constructor(server: string, message: string, upstreamCode: number, more?: Record<string, unknown>) {
    super('UPSTREAM_ERROR', message, { server, upstreamCode, ...more });
  }
}

/** A page the person must open before a call can go on (MCP URL-mode elicitation). */
export interface UrlElicitation {
  mode: 'url';
  elicitationId: string;
  url: string;
  message: string;
}

/** The JSON-RPC code of URLElicitationRequiredError (MCP 2025-11-25). */
export const URL_ELICITATION_REQUIRED = -32042;

/**
 * An upstream answered tools/call with -32042: the person must open these pages first. A
 * call_tool from a client that declared `elicitation.url` is answered with the same JSON-RPC
 * error (its SDK opens the pages and retries); anywhere else it is an UPSTREAM_ERROR whose
 * details carry the pages.
 */
export class UrlElicitationRequiredError extends UpstreamError {
  constructor(
    server: string,
    /** The upstream's own words, without the "MCP error -32042: " an McpError's message adds. */
    readonly words: string,
    readonly elicitations: readonly UrlElicitation[],
  ) {
    super(server, `MCP error ${URL_ELICITATION_REQUIRED}: ${words}`, URL_ELICITATION_REQUIRED, { elicitations });
  }
}

export class RateLimitedError extends SwitchboardError {
  /** `per`: whose calls are counted; `caller` in cluster mode, where one person's calls are counted across replicas. */
  constructor(perSecond: number, burst: number, retryAfterMs: number, per: 'session' | 'caller' = 'session') {
    super(
      'RATE_LIMITED',
      `Rate limit: ${per === 'session' ? 'this session' : 'you'} may make ${perSecond} tool calls per second (bursts of ${burst}); retry after ${retryAfterMs} ms`,
      per === 'session' ? { retryAfterMs, callsPerSecond: perSecond, burst } : { retryAfterMs, callsPerSecond: perSecond, burst, per },
    );
  }
}

export class TooLargeError extends SwitchboardError {
  constructor(what: string, bytes: number, limit: number) {
    super('TOO_LARGE', `${what} is ${bytes} bytes, more than the limit of ${limit} bytes`, { bytes, limit });
  }
}

export class TooDeepError extends SwitchboardError {
  constructor(what: string, limit: number) {
    super('TOO_LARGE', `${what} nest more than ${limit} levels deep`, { depthLimit: limit });
  }
}

export class SessionLimitError extends SwitchboardError {
  /** `caller` set: the limit of one caller's sessions (aggregator.limits.maxSessionsPerPrincipal). */
  constructor(limit: number, caller?: string) {
    super(
      'SESSION_LIMIT',
      caller === undefined
        ? `the session limit of ${limit} is reached; close sessions you no longer use (DELETE /mcp) or raise aggregator.limits.maxSessions`
        : `${caller} already holds ${limit} sessions, the most one caller may open; close sessions you no longer use (DELETE /mcp) or raise aggregator.limits.maxSessionsPerPrincipal`,
      caller === undefined ? { limit } : { limit, scope: 'caller' },
    );
  }
}

/** A subscriptions/listen beyond what one caller, or this process, may hold open (transport-streamable-http's `listen` options). */
export class ListenLimitError extends SwitchboardError {
  constructor(limit: number, scope?: 'caller') {
    super(
      'LISTEN_LIMIT',
      scope === 'caller'
        ? `you already hold ${limit} subscriptions/listen streams here, the most one caller may; close one you no longer read before opening another`
        : `this server already holds ${limit} subscriptions/listen streams, the most it keeps open; retry later`,
      scope === 'caller' ? { limit, scope } : { limit },
    );
  }
}

/** A call asked to run as a task while its caller already keeps `limit` tasks (aggregator.limits.tasks.maxPerOwner). */
export class TaskLimitError extends SwitchboardError {
  constructor(limit: number) {
    super(
      'TASK_LIMIT',
      `you already keep ${limit} tasks, the most one caller may keep at once (aggregator.limits.tasks.maxPerOwner); fetch or cancel tasks, or wait for them to expire`,
      { limit },
    );
  }
}

/**
 * Cluster mode: what the call needs is shared between replicas (grants, rate limits,
 * session records) and the shared store cannot be reached now. Nothing was written half;
 * the call may be retried once the store is back.
 */
export class SharedStateUnavailableError extends SwitchboardError {
  constructor(what: string, reason: string) {
    super('SHARED_STATE_UNAVAILABLE', `${what} needs the state replicas share, which cannot be reached now (${reason}); retry shortly`, { what, reason });
  }
}

export class UnsupportedError extends SwitchboardError {
  constructor(message: string) {
    super('UNSUPPORTED', message);
  }
}

/** Anything thrown that is not ours becomes INTERNAL, keeping its message. */
export function asSwitchboardError(err: unknown): SwitchboardError {
  if (err instanceof SwitchboardError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new SwitchboardError('INTERNAL', message);
}
