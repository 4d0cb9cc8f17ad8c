/**
 * The kernel's public API: everything a plugin may use, and nothing else. Built-in plugins
 * import from here like a third party does (`import { definePlugin } from 'switchboard/kernel'`
 * through package.json `exports`); a lint rule refuses imports of the kernel's other modules
 * from plugins/ and lib/. What is not exported here (the pipeline's loading, the invoker's
 * drain, the session registry's add and remove, the plugin loader) is the kernel's own.
 */

// The plugin contract and what a plugin receives.
export { definePlugin } from './plugin.js';
export { SerialQueue } from './serial-queue.js';
export { switchedOffClause } from './plugin-loader.js';
export type { Plugin, PluginContext, PluginInstance, PluginModule } from './plugin.js';
export type { CatalogueApi, ConfigApi, ConfigEdits, EndpointApi, KernelApi, SecretsApi, SessionsApi, ToolCallsApi } from './kernel-api.js';
export type { KernelHooks } from './hooks.js';
export type { ServiceName, Services } from './services.js';
export type { Logger } from './log.js';
export type { HealthContribution, HealthProblem, HealthReport } from './health.js';

// Errors: one base class, stable codes (docs/errors.md).
export {
  asSwitchboardError,
  AuthRequiredError,
  ConfigInvalidError,
  ConflictError,
  ForbiddenError,
  formatConfigProblem,
  NotFoundError,
  OutsideToolsetError,
  RateLimitedError,
  ServerUnavailableError,
  SessionLimitError,
  SharedStateUnavailableError,
  TaskLimitError,
  SwitchboardError,
  TimeoutError,
  TooDeepError,
  TooLargeError,
  UnsupportedError,
  UpstreamError,
  URL_ELICITATION_REQUIRED,
  UrlElicitationRequiredError,
  ValidationFailedError,
} from './errors.js';
export type { ConfigProblem, UrlElicitation } from './errors.js';

// Tools, calls and the catalogue.
export { coreToolName, servedBy } from './tools.js';
export type {
  CallContext,
  Icon,
  JsonObject,
  JsonSchemaObject,
  ResultSink,
  TaskCall,
  TaskSupport,
  ToolAnnotations,
  ToolDefinition,
  ToolInvoker,
} from './tools.js';
export { ANNOTATIONS, coreTool, publishCoreTools } from './core-tool.js';
export type { CatalogueEntry } from './catalogue.js';
export { Cancellation } from './cancellation.js';
export { headerValue } from './request-context.js';
export type { CatalogueView, Identity, RequestContext } from './request-context.js';
export { foreignCaller } from './sessions.js';
export type { Session, TransportKind } from './sessions.js';

// The MCP endpoint, as meta-tools and transports meet it.
export { SERVER_INFO } from './mcp/shared/implementation.js';
export type { MetaToolDefinition, SharedSessionTransport } from './mcp/server/endpoint.js';
export type { EndpointWording } from './mcp/server/wording.js';
export { protocolError } from './mcp/server/protocol-error.js';
export type { StatelessAnswer, StatelessCaller, StatelessRequest } from './mcp/server/stateless.js';
export type { ListenHandle, ListenLimits, ListenOutcome, ListenResources, ListenStream } from './mcp/server/listens.js';
export {
  ALL_PROTOCOL_VERSIONS,
  bodyVersionClaim,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  decodeHeaderValue,
  HEADER_MISMATCH,
  isModernRequest,
  isModernVersion,
  LOG_LEVEL_META_KEY,
  mcpNameSource,
  MODERN_PROTOCOL_VERSIONS,
  PROTOCOL_VERSION_META_KEY,
  readEnvelope,
  UNSUPPORTED_PROTOCOL_VERSION,
} from './mcp/shared/modern-protocol.js';
export type { RequestEnvelope } from './mcp/shared/modern-protocol.js';
export type { CancelOutcome, TaskCaller, TaskOrigin, TaskParams, TaskSurface, TaskWork } from './mcp/server/task-surface.js';
export { PASSTHROUGH } from './mcp/shared/passthrough.js';
export { logLevelPasses } from './mcp/shared/client-channel.js';
export type { ClientChannel, LogMessage } from './mcp/shared/client-channel.js';
export { hasMeta, messageKind } from './mcp/shared/message-shape.js';
export type { MessageKind } from './mcp/shared/message-shape.js';
export { abortControllers, nextRequestId, protocolDispatch, SDK_VERSION_CHECKED, setRawRequestHandler } from './mcp/shared/sdk-internals.js';
export type { ProtocolDispatch } from './mcp/shared/sdk-internals.js';
export { errorResult, objectResult } from './mcp/shared/results.js';

// Configuration: settings, the snapshot, documents and their checks.
export type {
  AggregatorLimits,
  AllowedCommand,
  AggregatorSettings,
  AuthorizationSettings,
  BrokerTarget,
  ClusterSettings,
  EmbedderSettings,
  McpServerDefinition,
  McpServerAuth,
  McpServerTokenExchange,
  OAuthServerSettings,
  OpenAiEmbedderSettings,
  PresetRule,
  RedisSettings,
  RegistrationMode,
  RegistrationSettings,
  RuntimeServerSettings,
  SecretRef,
  Settings,
  StaticVectorSettings,
  TokenExchangeBroker,
  ToolsetPresetSpec,
  TrustedIssuer,
  WorkflowArgDefinition,
  WorkflowCondition,
  RecordedPrincipal,
  WorkflowResource,
  WorkflowStep,
} from './config/settings.js';
export type { ConfigSnapshot } from './config/snapshot.js';
export type { DocumentShape, ResourceKindDefinition } from './config/resource-kinds.js';
export { parseYaml } from './config/yaml-document.js';
export type { ParsedYaml } from './config/yaml-document.js';
export { loadSchema, validateDocument } from './config/validate.js';
export { isLoopback, networkExposureProblems } from './config/surfaces.js';
export type { SurfaceName } from './config/surfaces.js';
export { commandLine } from './config/command-line.js';
export { SETTINGS_FILE } from './config/pipeline.js';
export { restartChanges, restartFingerprints, restartOnlyPaths } from './config/restart-keys.js';
export type { RestartChange } from './config/restart-keys.js';
export { packageRoot, packageVersion } from './paths.js';

// Secrets: references, resolution, redaction.
export { isFileReference, isReference, REFERENCE, resolveSecretMap, resolveSecretValue } from './secrets/secret-value.js';
export type { ResolveContext, SecretValue } from './secrets/secret-value.js';
export { REDACTED, redactDefinition, redactSettings, redactUrl, secretLookingName } from './secrets/redact.js';

// Authorization: who calls, and whether they may.
export { administer, audit, authorize, authorizeHere, authorizerOf, callerOf, permits, resourceLabel } from './authorization/authorize.js';
export type { AuditEntry } from './authorization/authorize.js';
export { describePrincipal, peerPrincipal, recordedPrincipal, recordPrincipal } from './authorization/principal.js';
export { mayCall, toolResource } from './authorization/views.js';
export { writeAs } from './writes-as-caller.js';

// Contracts: what services implement (plugins provide them, others get them by name).
export type { Authentication, AuthenticationAdvertisement, CallerTokens, GrantStore, RequestAuthenticator, StoredRecord } from './contracts/auth.js';
export type { Broadcast } from './contracts/broadcast.js';
export { EmbedderError } from './contracts/embedder.js';
export type { EmbedOptions, Embedder, EmbedderFailure } from './contracts/embedder.js';
export type { Action, AdminOperation, Authorizer, Decision, DecisionContext, Principal, Resource, WorkflowOperation } from './contracts/authorization.js';
export type {
  EventJournal,
  EventJournalFactory,
  EventLog,
  EventPage,
  EventQuery,
  EventResourceType,
  EventRetention,
  EventType,
  NewEvent,
  SwitchboardEvent,
} from './contracts/events.js';
export type {
  ExecutionHistory,
  ExecutionListQuery,
  ExecutionPage,
  ExecutionRecord,
  ExecutionRecords,
  ExecutionRetention,
  ExecutionStatus,
  ExecutionStorage,
  LateEnd,
  StepRecord,
  StepStatus,
} from './contracts/executions.js';
export type { AdvertisedTransport, HttpService, RawHandler } from './contracts/http.js';
export type { ClientConfigRead, ClientConfigReader, ImportedServer } from './contracts/client-config.js';
export type {
  ContentChange,
  LifecycleState,
  ListedTool,
  ServiceHealth,
  ServiceState,
  ServiceStatus,
  UpstreamPrompt,
  UpstreamRegistry,
  UpstreamResource,
  UpstreamResourceTemplate,
} from './contracts/lifecycle.js';
export type { CallEnd, SharedWriteDrop } from './contracts/observations.js';
export { isActiveState, isStoppedState, reportedState, resumeAdvice, STATES_BY_TRANSPORT } from './service-states.js';
export type { OrchestratorSecrets } from './contracts/orchestrator-secrets.js';
export type { ReplayGuard } from './contracts/replay.js';
export type { SingleUseValues } from './contracts/single-use.js';
export type { CountedSession, RateLimit, RateLimiter, SessionCounter } from './contracts/limits.js';
export { ownerOf } from './contracts/sign-in.js';
export type { Owner, SignInStatus, SignInTarget, UpstreamCredentials } from './contracts/sign-in.js';
export type { SessionDirectory, SessionRecord, SessionSignal, TouchOutcome } from './contracts/session-directory.js';
export type { RawResource, ResourceKind, ResourceStore, StoreChange, StoreLoadResult, WriteAs } from './contracts/store.js';
export type { RankedEntry, ToolSearch } from './contracts/tool-search.js';
export type { ToolSignatures } from './contracts/tool-signatures.js';
export type { PresetInfo, ResolvedToolset, ToolsetService } from './contracts/toolsets.js';
export type { WorkflowAvailability, WorkflowAvailabilityEntry } from './contracts/workflow-availability.js';
export { isTerminalStatus } from './contracts/task-store.js';
export type { TaskChange, TaskPage, TaskRecord, TaskStatus, TaskStore, TerminalTaskStatus } from './contracts/task-store.js';
