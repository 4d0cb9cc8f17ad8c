/**
 * Types of the validated configuration. They mirror schemas/*.schema.json; the schemas
 * decide what is valid and fill the defaults, these types say what code may rely on.
 */
import type { SecretValue } from '../secrets/secret-value.js';

export type AggregatorTransport = 'streamable-http' | 'sse' | 'stdio';

export interface TrustedIssuer {
  issuer: string;
  jwksUrl: string;
  allowedAudiences: string[];
  allowedScopes?: string[];
  allowedClaims: Record<string, string>;
  allowPrivateIPJWKS: boolean;
}

export interface SecretRef {
  name: string;
  namespace?: string;
  clientIdKey: string;
  clientSecretKey: string;
}

export interface BrokerTarget {
  idpTokenEndpoint?: string;
  expectedIssuer?: string;
  connectorId?: string;
  scopes: string;
  clientId?: string;
  clientSecretFile?: string;
  clientCredentialsSecretRef?: SecretRef;
  grantIssuer?: string;
}

export interface TokenExchangeBroker {
  clientAudiences: Record<string, string[]>;
  targets: Record<string, BrokerTarget>;
  brokerClients: Record<string, { clientSecretFile?: string; clientCredentialsSecretRef?: SecretRef; scopes?: string[] }>;
  allowPrivateIP: boolean;
}

export type RegistrationMode = 'open' | 'token' | 'closed';

/** aggregator.oauth.server.registration: who may register a client, and the bounds on what they register. */
export interface RegistrationSettings {
  /** Absent: `token` when token is set, `closed` when public is false, else `open`. */
  mode?: RegistrationMode;
  /** Deprecated: false closes registration (mode says it now). */
  public: boolean;
  token?: SecretValue;
  maxClients: number;
  unusedClientHours: number;
  perAddress: { perMinute: number; burst: number };
}

export interface OAuthServerSettings {
  enabled: boolean;
  baseUrl?: string;
  idp?: { issuer: string; clientId: string; clientSecret?: SecretValue; clientSecretFile?: string; scopes: string[] };
  sessionDuration: string;
  resourceIdentifier: string;
  trustedProxyCIDRs: string[];
  trustedIssuers: TrustedIssuer[];
  tokenExchangeBroker?: TokenExchangeBroker;
  allowPrivateIPClientMetadata: boolean;
  allowPrivateIPRedirectURIs: boolean;
  registration: RegistrationSettings;
  storage: { persistent: boolean; encryptionKey?: SecretValue };
}

export interface McpClientSettings {
  enabled: boolean;
  callbackPath: string;
  baseUrl?: string;
  clientMetadataUrl?: string;
  clientName: string;
  allowPrivateIP: boolean;
  clients: { issuer: string; clientId: string; clientSecret?: SecretValue }[];
}

export interface AggregatorSettings {
  port: number;
  host: string;
  /** A non-loopback host without OAuth protection is refused unless this is set on purpose. */
  allowUnauthenticatedNetwork: boolean;
  transport: AggregatorTransport;
  enabled: boolean;
  servicePrefix: string;
  maxBodyBytes: number;
  allowedOrigins: string[];
  /** Host names answered besides localhost, the bind address and base URLs (DNS rebinding). */
  allowedHosts: string[];
  shutdownGraceSeconds: number;
  admin: { enabled: boolean; port: number; bindAddress: string; allowNonLoopback: boolean };
  tls?: { certFile: string; keyFile: string };
  /** Where runtime connections (detect, servers created through tools) may reach besides public addresses. */
  network: { allow: string[] };
  limits: AggregatorLimits;
  /** Absent: one process, nothing shared, no Redis. */
  cluster?: ClusterSettings;
  oauth: { server: OAuthServerSettings };
}

/** aggregator.cluster: replicas sharing their state (docs/scale-out.md). */
export interface ClusterSettings {
  redis: RedisSettings;
}

/** aggregator.cluster.redis: the server every replica shares. Paths are relative to the configuration directory. */
export interface RedisSettings {
  /** redis:// or rediss://, without a password. */
  url: string;
  passwordFile?: string;
  username?: string;
  tls?: { caFile?: string; serverName?: string };
  keyPrefix: string;
  connectTimeoutSeconds: number;
}

/** aggregator.limits: what one caller or one upstream may ask of a shared instance. */
export interface AggregatorLimits {
  maxSessions: number;
  maxSessionsPerPrincipal: number;
  maxArgumentBytes: number;
  maxArgumentDepth: number;
  rateLimit: { callsPerSecond: number; burst: number };
  headersTimeoutSeconds: number;
  requestTimeoutSeconds: number;
  maxToolsPerServer: number;
  maxToolNameLength: number;
  templates: TemplateBudget;
  workflows: { maxIterations: number };
  executions: { maxTotalBytes: number };
  tasks: TaskLimits;
}

/** aggregator.limits.tasks: how long tasks are kept and how many one caller may keep. */
export interface TaskLimits {
  /** The longest a task is kept (the caller's ttl is capped to it), and the ttl of a task whose caller gave none. */
  maxTtlSeconds: number;
  /** Unexpired tasks one owner may keep at once. */
  maxPerOwner: number;
}

/** What one template rendering may spend before it stops with an error naming the limit. */
export interface TemplateBudget {
  maxIterations: number;
  maxOutputBytes: number;
  maxMilliseconds: number;
}

export interface PresetRule {
  tool?: string;
  pattern?: string;
  server?: string;
  workflow?: string;
  readOnly?: true;
  preset?: string;
  label?: string;
}

export interface ToolsetPresetSpec {
  description?: string;
  include?: PresetRule[];
  exclude?: PresetRule[];
}

export interface AuthorizationSettings {
  /** Subjects (`sub:<s>` or bare), emails, or groups (`group:<g>`). */
  admins: string[];
  groupsClaim: string;
  policiesPath: string;
}

/**
 * An executable a server created through a core tool may start: a bare string admits any
 * arguments; `{command, args}` pins them, one glob per position, the count exact unless the
 * last is `...` (any further arguments).
 */
export type AllowedCommand = string | { command: string; args: string[] };

export interface RuntimeServerSettings {
  allowedCommands?: AllowedCommand[];
  /** Loader and interpreter variables (NODE_OPTIONS, PATH, ...) such a server may set all the same. */
  allowedEnv: string[];
}

export type PluginSetting = boolean | { enabled?: boolean; module?: string; options?: Record<string, unknown> };

export interface Settings {
  namespace: string;
  orchestrator: boolean;
  aggregator: AggregatorSettings;
  auth?: Record<string, unknown>;
  toolsetPresets: Record<string, ToolsetPresetSpec>;
  authorization: AuthorizationSettings;
  runtimeServers: RuntimeServerSettings;
  /** What definitions written through core tools may reference (`${NAME}`, `{fromFile}`). */
  secrets: { allowedEnv: string[]; allowedDirs: string[] };
  writesAsCaller?: { orchestratorAudience?: string };
  idp?: { allowPrivateIPOIDC?: boolean };
  /** `tokenExchange.allowPrivateIP` lets a server's auth.tokenExchange endpoint resolve to a private address; other keys are reserved. */
  mcpClient?: { tokenExchange?: { allowPrivateIP?: boolean } } & Record<string, unknown>;
  oauth: { mcpClient: McpClientSettings };
  postLoginRedirectAllowlist: string[];
  /** Semantic tool search: at most one provider; absent, filter_tools ranks lexically. */
  embedder?: EmbedderSettings;
  plugins: Record<string, PluginSetting>;
}

/** `embedder`: the model behind semantic tool search (docs/discovery.md). */
export interface EmbedderSettings {
  openai?: OpenAiEmbedderSettings;
  staticVectors?: StaticVectorSettings;
}

/** embedder.openai: an OpenAI-compatible /v1/embeddings endpoint (plugin embedder-openai). */
export interface OpenAiEmbedderSettings {
  baseUrl: string;
  model: string;
  apiKey?: SecretValue;
  dimensions?: number;
  batchSize: number;
  timeoutSeconds: number;
  queryTimeoutSeconds: number;
  maxInputChars: number;
  maxResponseBytes: number;
}

/** embedder.staticVectors: word vectors from a .vec / GloVe file (plugin embedder-static). */
export interface StaticVectorSettings {
  file: string;
  maxFileBytes: number;
  maxDimension: number;
  maxWords: number;
  sifWeight: number;
}

export type McpServerType = 'stdio' | 'streamable-http' | 'sse';

export interface McpServerDefinition {
  name: string;
  type: McpServerType;
  description?: string;
  /** The principal key of whoever created it through a core tool. */
  registeredBy?: string;
  /** Who chose `url` through a core tool on a server the operator wrote; its connections then obey aggregator.network.allow. */
  urlSetBy?: string;
  toolPrefix?: string;
  autoStart: boolean;
  /** The executable alone (with `args`) or the whole command line; see command-line.ts. */
  command?: string | string[];
  args?: string[];
  url?: string;
  /** Values may be `${NAME}` references or `{fromFile}` (kernel/secrets/secret-value.ts). */
  env: Record<string, SecretValue>;
  headers: Record<string, SecretValue>;
  timeout: number;
  callTimeout: number;
  maxMessageBytes: number;
  /** Where a stdio server's stderr lines go in the log; its last lines are quoted on an exit anyway. */
  stderrLogLevel: 'debug' | 'info' | 'warn' | 'off';
  suspended: boolean;
  restartRequestedAt?: string;
  /** Tools switched off, by their names on the server: left out of the catalogue (and so of every toolset, listing and search). */
  disabledTools?: string[];
  /** Several servers run as one: their tools shown once, with an argument choosing the instance. */
  family?: { name: string; instanceArg: string };
  backoff: { initialSeconds: number; maxSeconds: number };
  /** How calls to a remote server are authorised per person (docs/oauth-client.md); stored as written. */
  auth?: McpServerAuth;
}

/** The `auth` block of an MCP server definition. Defaults are applied where used, so the block round-trips as written. */
export interface McpServerAuth {
  /** `none` when absent. */
  type?: 'oauth' | 'none';
  /** Send the signed-in person's identity-provider ID token as the bearer. */
  forwardToken?: boolean;
  /** Audiences asked for at sign-in so the forwarded token is accepted (`audience:server:client_id:<aud>` scopes). */
  requiredAudiences?: string[];
  /** Pins the authorization server of the per-server sign-in (no protected-resource discovery). */
  authorizationServer?: { issuer: string; scopes?: string; grantScope?: 'subject' };
  tokenExchange?: McpServerTokenExchange;
}

export interface McpServerTokenExchange {
  enabled?: boolean;
  /** The reference's spelling; `idpTokenEndpoint` is the neutral one (the broker's). Either names the endpoint. */
  dexTokenEndpoint?: string;
  idpTokenEndpoint?: string;
  /** Defaults to the endpoint's origin. */
  expectedIssuer?: string;
  connectorId?: string;
  /** Space-separated; default `openid profile email groups`. */
  scopes?: string;
  /** Orchestrator mode: the Secret holding the client's id and secret. */
  clientCredentialsSecretRef?: { name: string; namespace?: string; clientIdKey?: string; clientSecretKey?: string };
  /** File mode: the client id and a file holding its secret (relative to the configuration directory). */
  clientId?: string;
  clientSecretFile?: string;
}

export interface WorkflowArgDefinition {
  type: 'string' | 'integer' | 'boolean' | 'number' | 'object' | 'array';
  required?: boolean;
  default?: unknown;
  description?: string;
}

/** A step's condition: exactly one of `tool`, `fromStep` (or `from_step`) and `template`. */
export interface WorkflowCondition {
  tool?: string;
  args?: Record<string, unknown>;
  fromStep?: string;
  from_step?: string;
  /** A template that renders to true or false. */
  template?: string;
  /** `{success?, json_path? (or jsonPath)}`. */
  expect?: Record<string, unknown>;
  expect_not?: Record<string, unknown>;
  expectNot?: Record<string, unknown>;
}

/** A step as written: exactly one of `tool`, `forEach` or `parallel` (checked when compiled). */
export interface WorkflowStep {
  id: string;
  tool?: string;
  forEach?: { items: unknown; as?: string; steps: WorkflowStep[]; concurrency?: number };
  parallel?: WorkflowStep[];
  maxConcurrency?: number;
  description?: string;
  args?: Record<string, unknown>;
  condition?: WorkflowCondition;
  /** Kept in `.results` (every step is) and, unless `output: false`, shown in the returned document. */
  store?: boolean;
  allowFailure?: boolean;
  allow_failure?: boolean;
  outputs?: Record<string, unknown>;
  /** Show this step's result in the returned document (`false` beats `store: true`). */
  output?: boolean;
}

/**
 * What a definition records of the person who wrote it, for deciding later as them when they
 * are not signed in (a workflow's author, its approver): the attributes an authorizer decides
 * on besides the key. The admin flag is not recorded: it is computed from the admins list in
 * force at each decision, so removing someone from `authorization.admins` reaches their
 * workflows at once.
 */
export interface RecordedPrincipal {
  email?: string;
  groups?: string[];
}

export interface WorkflowSpec {
  description?: string;
  /** The principal key of whoever created it through a core tool: its steps run with no more than their rights. */
  registeredBy?: string;
  /** The author's email and groups when they last wrote it (how they are decided on when not signed in). */
  registeredAs?: RecordedPrincipal;
  /** An administrator who approved this exact definition: its steps then run with the caller's and the approver's rights. */
  approvedBy?: string;
  approvedAs?: RecordedPrincipal;
  args?: Record<string, WorkflowArgDefinition>;
  steps: WorkflowStep[];
  /** Run best-effort, in order, after a step fails the run (rollback). */
  onFailure?: WorkflowStep[];
  /** The returned document's shape: templates rendered after the last step. */
  output?: unknown;
}

export interface WorkflowResource {
  apiVersion: string;
  kind: 'Workflow';
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec: WorkflowSpec;
}
