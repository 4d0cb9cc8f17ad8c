/**
 * The MCP endpoint: one SDK Server per client session, whatever the transport. A client
 * sees only the meta-tools; an aggregated tool's name called directly is a protocol error,
 * worded by the plugin whose meta-tool runs catalogue tools (wording.ts).
 */
import { randomUUID } from 'node:crypto';
import { Server } from '#mcp-sdk/server/index.js';
import { Protocol } from '#mcp-sdk/shared/protocol.js';
import type { Transport } from '#mcp-sdk/shared/transport.js';
import {
  ErrorCode,
  type JSONRPCMessage,
  type JSONRPCNotification,
  ListToolsRequestSchema,
  McpError,
  SetLevelRequestSchema,
  type CallToolResult,
  type ServerCapabilities,
  type Tool,
} from '#mcp-sdk/types.js';
import type { ValidateFunction } from 'ajv';
import { argumentProblems, hintArgumentsWrapper } from '../../argument-problems.js';
import { Cancellation } from '../../cancellation.js';
import type { Catalogue } from '../../catalogue.js';
import { sharedAjv } from '../../config/validate.js';
import { InvalidArgumentsError, SwitchboardError, URL_ELICITATION_REQUIRED, UrlElicitationRequiredError } from '../../errors.js';
import type { SessionRecord } from '../../contracts/session-directory.js';
import type { KernelHooks } from '../../hooks.js';
import { runSeriesTaps } from '../../series-taps.js';
import type { Logger } from '../../log.js';
import type { HeaderValue, Identity, RequestContext } from '../../request-context.js';
import type { Session, SessionRegistry, TransportKind } from '../../sessions.js';
import type { CallContext, JsonObject, JsonSchemaObject, ResultSink, TaskSupport, ToolAnnotations } from '../../tools.js';
import { SERVER_INFO } from '../shared/implementation.js';
import { errorResult } from '../shared/results.js';
import { restoreClientState, setRawRequestHandler } from '../shared/sdk-internals.js';
import { ChannelTo, type RequestHandlerExtra } from './channel-to.js';
import { dispatchByShape } from './dispatch.js';
import { protocolError } from './protocol-error.js';
import { StatelessServer, type StatelessAnswer, type StatelessCaller, type StatelessRequest } from './stateless.js';
import { Listens, type ListenLimits, type ListenOutcome, type ListenResources, type ListenStream } from './listens.js';
import type { ListKind } from './listen-filter.js';
import type { Owner } from '../../contracts/sign-in.js';
import type { RequestEnvelope } from '../shared/modern-protocol.js';
import { NEUTRAL_WORDING, type EndpointWording } from './wording.js';
import { SHARED_SCHEMA_VALIDATOR } from './schema-validator.js';
import type { TaskOrigin, TaskSurface } from './task-surface.js';
import { taskParams, taskProgress } from './task-call.js';

/** A request schema (the SDK's zod objects) and how a plugin answers it for a session. */
type RequestSchema = Parameters<Server['setRequestHandler']>[0];
export type ProtocolHandler = (request: { method: string; params?: Record<string, unknown> }, call: CallContext) => Promise<Record<string, unknown>>;

export interface MetaToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchemaObject;
  annotations?: ToolAnnotations;
  /** Whether a client may run it as a task (`tools/call` with `params.task`); absent: it may not. */
  execution?: { taskSupport: TaskSupport };
  /** `sink` is given only when `relaysResult` says the handler's result is a tool's, unchanged. */
  handler(args: JsonObject, call: CallContext, sink?: ResultSink): Promise<CallToolResult>;
  /** The handler answers with one catalogue tool's result as it is (call_tool): it may pass a sink on. */
  relaysResult?: true;
}

interface RegisteredMetaTool {
  def: MetaToolDefinition;
  /**
   * Its arguments' validator, compiled at the tool's first call: compiling the thirteen at
   * every start (and JSON Schema's meta-schema before the first) was 80-100 ms of CPU that a
   * Switchboard which never runs a meta-tool, or runs one or two, spent for nothing.
   */
  validate?: ValidateFunction;
}

/**
 * A transport whose sessions other replicas serve too (cluster mode). `sendHere` writes a
 * notification only where this process holds the session's stream, never relaying it to
 * another replica: for what every replica sends by itself, so it arrives once.
 */
export interface SharedSessionTransport extends Transport {
  sendHere(message: JSONRPCNotification): Promise<void>;
}

function isShared(transport: Transport): transport is SharedSessionTransport {
  return typeof (transport as Partial<SharedSessionTransport>).sendHere === 'function';
}

const EMPTY_HEADERS: Readonly<Record<string, HeaderValue>> = Object.freeze({});
const EMPTY_ARGS: Readonly<Record<string, unknown>> = Object.freeze({});

export class Endpoint {
  private readonly metaTools = new Map<string, RegisteredMetaTool>();
  private capabilities: ServerCapabilities = { tools: { listChanged: true }, logging: {} };
  private readonly handlers: { schema: RequestSchema; handle: ProtocolHandler }[] = [];
  private listed: Tool[] = [];
  private wording: EndpointWording = NEUTRAL_WORDING;
  /** Sessions whose transport is shared with other replicas, for notifyListChanged. */
  private readonly shared = new WeakMap<Session, SharedSessionTransport>();
  /** What runs calls as tasks, once a plugin set it (the tasks plugin). */
  private tasks: TaskSurface | undefined;
  /** Serves 2026-07-28 requests (stateless.ts), made at the first one. */
  private stateless: StatelessServer | undefined;
  /** The subscriptions/listen streams this process holds (listens.ts), made at the first one. */
  private listens: Listens | undefined;
  /** What watches resources for listens, once the plugin serving resources set it. */
  private listenResources: ListenResources | undefined;

  constructor(
    private readonly hooks: KernelHooks,
    private readonly catalogue: Catalogue,
    private readonly sessions: SessionRegistry,
    private readonly log: Logger,
  ) {}

  addMetaTool(def: MetaToolDefinition): void {
    if (this.metaTools.has(def.name)) throw new Error(`meta-tool '${def.name}' is already registered`);
    this.metaTools.set(def.name, { def });
    const tool: Tool = { name: def.name, description: def.description, inputSchema: def.inputSchema as Tool['inputSchema'] };
    if (def.title) tool.title = def.title;
    if (def.annotations) tool.annotations = def.annotations;
    if (def.execution) tool.execution = def.execution;
    this.listed = [...this.listed, tool];
  }

  /**
   * Calls may run as tasks from now on (sessions opened later): the endpoint declares the
   * tasks capability, hands a tools/call with `params.task` to `surface`, and builds each
   * session's SDK Server with the surface's task store, so the SDK answers tasks/*.
   */
  setTasks(surface: TaskSurface): void {
    if (this.tasks) throw new Error('the task surface is already set');
    this.tasks = surface;
    this.capabilities = { ...this.capabilities, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
  }

  /**
   * Protocol methods beyond the meta-tools (resources, prompts, completion), served on every
   * session opened from now on, with the capabilities that announce them. Plugins add them
   * during setup, before any client connects.
   */
  addProtocol(capabilities: ServerCapabilities, handlers: { schema: RequestSchema; handle: ProtocolHandler }[]): void {
    this.capabilities = { ...this.capabilities, ...capabilities };
    this.handlers.push(...handlers);
  }

  /**
   * Answers one 2026-07-28 request (no session: stateless.ts), its envelope read and its
   * HTTP headers checked by the transport. `notify` carries what relates to the request
   * while it runs (progress, log messages the request asked for); `cancellation` fires when
   * the client goes away.
   */
  serveStateless(
    request: StatelessRequest,
    envelope: RequestEnvelope,
    caller: StatelessCaller,
    notify: (n: JSONRPCNotification) => void,
    cancellation: Cancellation,
    answerNow?: (message: JSONRPCMessage) => void,
  ): Promise<StatelessAnswer> {
    return this.statelessServer().serve(request, envelope, caller, notify, cancellation, answerNow);
  }

  /**
   * Opens a 2026-07-28 `subscriptions/listen` (listens.ts) on `stream`, which the transport
   * keeps open; refused in band (nothing written to `stream`) when a limit, the params or a
   * request tap says no.
   */
  listen(request: StatelessRequest, envelope: RequestEnvelope, caller: StatelessCaller, stream: ListenStream, limits: ListenLimits): Promise<ListenOutcome> {
    this.listens ??= new Listens({
      hooks: this.hooks,
      catalogue: () => this.catalogue.all(),
      capabilities: () => this.capabilities,
      resources: () => this.listenResources,
      sessionFor: (c, e) => this.statelessServer().sessionFor(c, e),
    });
    return this.listens.listen(request, envelope, caller, stream, limits);
  }

  /** Listens may name resources to watch: `resources` subscribes for them upstream (the plugin serving resources). */
  setListenResources(resources: ListenResources): void {
    if (this.listenResources) throw new Error('what watches resources for listens is already set');
    this.listenResources = resources;
  }

  /** Ends every subscriptions/listen stream gracefully (the transport stopping). */
  endListens(): void {
    this.listens?.endAll();
  }

  private statelessServer(): StatelessServer {
    return (this.stateless ??= new StatelessServer(
      {
        hooks: this.hooks,
        capabilities: () => this.capabilities,
        watchesResources: () => this.listenResources !== undefined,
        instructions: () => this.wording.instructions,
        tools: () => this.listed,
        callMetaTool: (name, args, call, sink) => this.runMetaTool(this.metaToolNamed(name, args), name, args, call, sink),
        handlers: () => this.handlers,
        protocolError,
        tasks: () => this.tasks,
        taskSupport: (name) => this.metaTools.get(name)?.def.execution?.taskSupport ?? 'forbidden',
        taskOrigin: (name, args) => this.taskOrigin(name, args),
      },
      new Server(SERVER_INFO, { capabilities: {}, jsonSchemaValidator: SHARED_SCHEMA_VALIDATOR }),
    ));
  }

  /** What the endpoint says about running catalogue tools (wording.ts): set by the plugin whose meta-tool runs them. */
  setWording(wording: EndpointWording): void {
    this.wording = wording;
  }

  /** What every session opened from now on announces (the server card publishes it before anyone connects). */
  serverCapabilities(): ServerCapabilities {
    return structuredClone(this.capabilities);
  }

  metaToolNames(): string[] {
    return [...this.metaTools.keys()];
  }

  /**
   * Tells sessions that a list changed. A change every replica sees for itself (the
   * catalogue, what servers offer) goes out from each replica only where it holds the
   * session's stream; elsewhere, and in one process, it is the SDK's own notification.
   * The subscriptions/listen streams held here that opted in hear it too (listens.ts: tools
   * only where the caller's view changed): every one, or only `owner`'s when given.
   */
  notifyListChanged(list: ListKind, sessions: Iterable<Session>, owner?: Owner): void {
    const notification = { method: `notifications/${list}/list_changed` };
    for (const session of sessions) void this.notifyHere(session, notification).catch(() => undefined);
    if (this.listens && this.listens.size > 0)
      void this.listens.listChanged(list, owner).catch((err: unknown) => this.log.warn(`list change not sent to listens: ${(err as Error).message}`));
  }

  /** Whether anyone here hears list changes: a session, or a subscriptions/listen stream. */
  hasListeners(): boolean {
    return this.sessions.size > 0 || (this.listens?.size ?? 0) > 0;
  }

  /**
   * Sends a notification every replica sends by itself (each saw the same change, say an
   * update from an upstream they all connect to): in cluster mode only where this process
   * holds the session's stream, so the session hears it once; in one process, as the SDK
   * sends it.
   */
  notifyHere(session: Session, notification: { method: string; params?: Record<string, unknown> }): Promise<void> {
    // A listen's session (a resource it watches was updated): on its stream, here.
    if (session.stateless) {
      this.listens?.notify(session, notification);
      return Promise.resolve();
    }
    const here = this.shared.get(session);
    return here ? here.sendHere({ jsonrpc: '2.0', ...notification }) : session.server.notification(notification);
  }

  /**
   * Serves one client over `transport`. Resolves once the transport is started. With
   * `record`, the session is one another replica initialized (cluster mode): its server
   * answers as initialized by that client, with no initialize of its own, and is `resumed`.
   * `clientAddress`: the client's address as trusted proxies report it (default `peer`).
   */
  async connect(
    transport: Transport,
    kind: TransportKind,
    id: string = randomUUID(),
    identity?: Identity,
    peer?: string,
    record?: SessionRecord,
    clientAddress: string | undefined = record?.clientAddress ?? peer,
  ): Promise<Session> {
    const instructions = this.wording.instructions;
    const tasks = this.tasks?.forSession({ id, ...(identity ? { identity } : {}) });
    const server = new Server(SERVER_INFO, {
      capabilities: this.capabilities,
      jsonSchemaValidator: SHARED_SCHEMA_VALIDATOR,
      ...(instructions ? { instructions } : {}),
      ...tasks,
    });
    const session: Session = {
      id,
      transport: kind,
      createdAt: record ? new Date(record.createdAt) : new Date(),
      server,
      slots: new Map(),
      subscriptions: new Set(record?.subscriptions),
      ...(identity ? { identity } : {}),
      ...(peer ? { peer } : {}),
      ...(clientAddress ? { clientAddress } : {}),
      ...(record ? { resumed: true } : {}),
    };
    if (record) {
      restoreClientState(server, { capabilities: record.clientCapabilities, ...(record.clientInfo ? { clientInfo: record.clientInfo } : {}) });
      if (record.clientInfo) session.clientInfo = { name: record.clientInfo.name, version: record.clientInfo.version };
      if (record.logLevel) session.logLevel = record.logLevel;
    }
    if (isShared(transport)) this.shared.set(session, transport);
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.listed }));
    // Protocol's own registration: the Server subclass would re-validate every result
    // against CallToolResultSchema, and call_tool results pass through untouched by design.
    // Checked here rather than by the SDK's zod parse of every request (the hot path): the
    // same -32602 for a malformed call. Plain calls (no progress token) skip the SDK's
    // request dispatch too (server/dispatch.ts); a call with `_meta` takes the SDK's way.
    const callTool = (request: { params?: Record<string, unknown> }, extra: unknown) => {
      const params = request.params;
      if (!params || typeof params.name !== 'string') throw new McpError(ErrorCode.InvalidParams, "Invalid params for tools/call: 'name' must be a string");
      const args = params.arguments;
      if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
        throw new McpError(ErrorCode.InvalidParams, "Invalid params for tools/call: 'arguments' must be an object");
      return this.callMetaTool(session, params.name, args as Record<string, unknown> | undefined, extra as RequestHandlerExtra);
    };
    // Not an async wrapper: answering with callTool's own promise saves the extra ticks of
    // resolving one promise with another, on every call.
    const handleCall = (request: { params?: Record<string, unknown> }, extra: unknown): Promise<CallToolResult> => {
      try {
        return callTool(request, extra);
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    };
    // A call asked to run as a task never takes the fast path (message-shape.ts hasMeta sees
    // `task`): it reaches this handler through the SDK, and only this one looks for `task`.
    const handleAny = (request: { params?: Record<string, unknown> }, extra: unknown): Promise<CallToolResult | Record<string, unknown>> =>
      request.params?.task !== undefined ? this.callAsTask(session, request.params, extra as RequestHandlerExtra) : handleCall(request, extra);
    setRawRequestHandler(server, 'tools/call', handleAny);
    // The session's own log threshold: upstream log messages relayed to it are filtered by it.
    server.setRequestHandler(SetLevelRequestSchema, async (request) => {
      session.logLevel = request.params.level;
      if (this.hooks.onSessionChange.isUsed()) await this.hooks.onSessionChange.promise(session, 'here');
      return {};
    });
    for (const h of this.handlers) {
      Protocol.prototype.setRequestHandler.call(server, h.schema, async (request, extra) => {
        const r = request as { method: string; params?: Record<string, unknown> };
        const call = this.callContext(session, r.method, r.params, extra as RequestHandlerExtra);
        try {
          // The same taps as for meta-tools: the toolset narrows these too, a refusal refuses.
          if (this.hooks.onRequest.isUsed()) await this.hooks.onRequest.promise(call.request);
          return await h.handle(r, call);
        } catch (err) {
          throw err instanceof McpError ? err : protocolError(err);
        }
      });
    }
    server.oninitialized = () => {
      const info = server.getClientVersion();
      if (info) session.clientInfo = { name: info.name, version: info.version };
    };
    let closed = false;
    server.onclose = () => {
      if (closed) return;
      closed = true;
      this.sessions.remove(session.id);
      this.hooks.onSessionClose.call(session);
    };
    // A tap may refuse the session (a session limit): it throws before anything is registered.
    if (this.hooks.onSessionAdmit.isUsed()) await this.hooks.onSessionAdmit.promise(session);
    this.hooks.onSessionOpen.call(session);
    this.sessions.add(session);
    await server.connect(transport);
    dispatchByShape(server, new Map([['tools/call', handleCall]]));
    return session;
  }

  /** What a request knows about itself: session, headers, the call's way back to its client, progress. */
  private callContext(session: Session, name: string, rawArgs: Record<string, unknown> | undefined, extra: RequestHandlerExtra): CallContext {
    const request: RequestContext = {
      session,
      headers: extra.requestInfo?.headers ?? EMPTY_HEADERS,
      metaTool: name,
      arguments: rawArgs ?? EMPTY_ARGS,
      slots: new Map(),
      ...(session.identity ? { identity: session.identity } : {}),
    };
    const progressToken = extra._meta?.progressToken;
    // A request served directly brings its cancellation; one the SDK dispatched, its signal.
    const cancellation = (extra as { cancellation?: Cancellation }).cancellation ?? Cancellation.following(extra.signal);
    const call: CallContext = { request, cancellation, depth: 0, client: new ChannelTo(session, extra) };
    if (progressToken !== undefined) {
      call.progress = (progress, total, message) =>
        extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) },
        });
    }
    return call;
  }

  /**
   * A tools/call with `params.task`: refused at once when the meta-tool cannot run as a task
   * (-32601, as MCP says) or `task` is malformed; otherwise the task is created and the call
   * runs in the background exactly as a plain one would (taps, validation, handler), with the
   * task's own cancellation (tasks/cancel, not the request's) and its way back to the client.
   */
  private async callAsTask(session: Session, params: Record<string, unknown>, extra: RequestHandlerExtra): Promise<Record<string, unknown>> {
    const tasks = this.tasks;
    const name = params.name;
    if (!tasks) throw new McpError(ErrorCode.InvalidParams, 'Invalid params for tools/call: this endpoint does not run calls as tasks');
    if (typeof name !== 'string') throw new McpError(ErrorCode.InvalidParams, "Invalid params for tools/call: 'name' must be a string");
    const args = params.arguments;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
      throw new McpError(ErrorCode.InvalidParams, "Invalid params for tools/call: 'arguments' must be an object");
    const task = taskParams(params.task);
    const rawArgs = args as Record<string, unknown> | undefined;
    const meta = this.metaToolNamed(name, rawArgs);
    const support = meta.def.execution?.taskSupport ?? 'forbidden';
    if (support === 'forbidden') throw new McpError(ErrorCode.MethodNotFound, `Tool '${name}' cannot run as a task (its execution.taskSupport is 'forbidden')`);
    const origin = this.taskOrigin(name, rawArgs);
    try {
      const progressToken = extra._meta?.progressToken;
      return await tasks.start(session, task, origin, async (work) => {
        const call = this.callContext(session, name, rawArgs, extra);
        call.cancellation = work.cancellation;
        call.client = work.client;
        call.task = work.task;
        // The request was answered with the task: its token lives on with the task, not with the request's stream.
        const running = { ended: false };
        if (progressToken === undefined) delete call.progress;
        else call.progress = taskProgress(session, progressToken, work.task.id, () => running.ended || work.cancellation.aborted);
        try {
          return await this.runMetaTool(meta, name, rawArgs, call);
        } finally {
          running.ended = true;
        }
      });
    } catch (err) {
      if (err instanceof McpError) throw err;
      throw new McpError(ErrorCode.InvalidParams, (err as Error).message, err instanceof SwitchboardError ? { code: err.code, ...err.details } : undefined);
    }
  }

  /** What a task of meta-tool `name` runs, for its record: call_tool's tool, and whether that is a workflow (its run). */
  private taskOrigin(name: string, rawArgs: Record<string, unknown> | undefined): TaskOrigin {
    const tool = typeof rawArgs?.name === 'string' ? rawArgs.name : undefined;
    return { metaTool: name, ...(tool !== undefined ? { tool } : {}), workflow: tool !== undefined && this.catalogue.get(tool)?.kind === 'workflow' };
  }

  /** Not async: the plain call path keeps one async frame (runMetaTool); a refusal thrown here becomes the rejection in handleCall. */
  private callMetaTool(session: Session, name: string, rawArgs: Record<string, unknown> | undefined, extra: RequestHandlerExtra): Promise<CallToolResult> {
    return this.runMetaTool(this.metaToolNamed(name, rawArgs), name, rawArgs, this.callContext(session, name, rawArgs, extra));
  }

  /** The meta-tool called `name`; a protocol error (-32602) naming what to do for anything else. */
  private metaToolNamed(name: string, rawArgs: Record<string, unknown> | undefined): RegisteredMetaTool {
    const meta = this.metaTools.get(name);
    if (meta) return meta;
    if (this.catalogue.has(name)) throw new McpError(ErrorCode.InvalidParams, this.wording.notCallableDirectly(name, rawArgs ?? {}));
    throw new McpError(ErrorCode.InvalidParams, this.wording.unknownTool(name, this.metaToolNames()));
  }

  private async runMetaTool(
    meta: RegisteredMetaTool,
    name: string,
    rawArgs: Record<string, unknown> | undefined,
    call: CallContext,
    sink?: ResultSink,
  ): Promise<CallToolResult> {
    const request = call.request;
    try {
      // Synchronous taps run without a promise to await (series-taps.ts).
      const tapping = runSeriesTaps(this.hooks.onRequest, request);
      if (tapping) await tapping;
      const args = rawArgs ?? {};
      const validate = (meta.validate ??= sharedAjv().compile(meta.def.inputSchema));
      if (!validate(args)) {
        const problems = argumentProblems(validate.errors);
        // A meta-tool that takes a tool's arguments under `arguments` (call_tool, call_tools' calls).
        const wraps = JSON.stringify(meta.def.inputSchema).includes('"arguments":');
        throw new InvalidArgumentsError(name, wraps ? hintArgumentsWrapper(problems) : problems);
      }
      return await (sink && meta.def.relaysResult ? meta.def.handler(args, call, sink) : meta.def.handler(args, call));
    } catch (err) {
      if (err instanceof McpError) throw err;
      // A client that can open pages gets the upstream's -32042 as such, so its SDK opens them and retries.
      if (err instanceof UrlElicitationRequiredError && call.client?.capabilities()?.elicitation?.url)
        throw new McpError(URL_ELICITATION_REQUIRED, err.words, { elicitations: err.elicitations });
      this.log.debug(`${name} failed: ${(err as Error).message}`);
      return errorResult(err);
    }
  }
}
