/**
 * MCP 2026-07-28 ("modern"): no initialize, no session; every request carries its protocol
 * version, client capabilities and client info in `params._meta`. What both eras' code needs
 * to tell a modern request from a legacy one and to read its envelope, without any SDK: the
 * v1 SDK Switchboard serves legacy sessions with stops at 2025-11-25 (decisions.md, "MCP
 * 2026-07-28: the SDK move").
 */
import { SUPPORTED_PROTOCOL_VERSIONS, type ClientCapabilities, type LoggingLevel } from '#mcp-sdk/types.js';
import { LOG_LEVELS } from './client-channel.js';

/** The modern revisions served; the first is the newest. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** Every revision this endpoint speaks, newest first: what server/discover and -32022 list. */
export const ALL_PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];

export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const CLIENT_INFO_META_KEY = 'io.modelcontextprotocol/clientInfo';
export const LOG_LEVEL_META_KEY = 'io.modelcontextprotocol/logLevel';
export const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';

/** JSON-RPC codes 2026-07-28 allocates (basic/index "Error codes"). */
export const HEADER_MISMATCH = -32020;
export const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export function isModernVersion(version: string | undefined): boolean {
  return version !== undefined && MODERN_PROTOCOL_VERSIONS.includes(version);
}

/**
 * The protocol version a message's body claims (`params._meta[protocolVersion]`), when it
 * claims one. Two property reads on a legacy request, which has no `_meta` or no such key.
 */
export function bodyVersionClaim(body: unknown): unknown {
  const params = (body as { params?: unknown } | null)?.params;
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  return (meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY];
}

/**
 * Whether a POST is served as 2026-07-28: its MCP-Protocol-Version header names a modern
 * revision, or its body claims a version no legacy revision has (a modern client's, or an
 * unknown one that must be answered with -32022). A legacy session never sends either.
 */
export function isModernRequest(headerVersion: string | undefined, body: unknown): boolean {
  if (isModernVersion(headerVersion)) return true;
  const claim = bodyVersionClaim(body);
  return claim !== undefined && !(typeof claim === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(claim));
}

/** What a modern request says about its client, read from `params._meta`. */
export interface RequestEnvelope {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: { name: string; version: string };
  /** Set when the client wants log messages for this request (none otherwise: MUST NOT be sent). */
  logLevel?: LoggingLevel;
  progressToken?: string | number;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The envelope of a modern request's params, or what is wrong with it (an Invalid params message naming the key). */
export function readEnvelope(params: unknown): RequestEnvelope | string {
  const meta = isObject(params) ? params._meta : undefined;
  if (!isObject(meta))
    return `Invalid params: a ${MODERN_PROTOCOL_VERSIONS[0]} request carries params._meta with '${PROTOCOL_VERSION_META_KEY}' and '${CLIENT_CAPABILITIES_META_KEY}'`;
  const version = meta[PROTOCOL_VERSION_META_KEY];
  if (typeof version !== 'string') return `Invalid params: params._meta['${PROTOCOL_VERSION_META_KEY}'] is required (a string naming the protocol revision)`;
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  if (!isObject(capabilities))
    return `Invalid params: params._meta['${CLIENT_CAPABILITIES_META_KEY}'] is required (an object, {} when the client declares none)`;
  const envelope: RequestEnvelope = { protocolVersion: version, clientCapabilities: capabilities };
  const info = meta[CLIENT_INFO_META_KEY];
  if (info !== undefined) {
    if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string')
      return `Invalid params: params._meta['${CLIENT_INFO_META_KEY}'] must be an object with string 'name' and 'version'`;
    envelope.clientInfo = { name: info.name, version: info.version };
  }
  const level = meta[LOG_LEVEL_META_KEY];
  if (level !== undefined) {
    if (typeof level !== 'string' || !LOG_LEVELS.includes(level as LoggingLevel))
      return `Invalid params: params._meta['${LOG_LEVEL_META_KEY}'] must be one of ${LOG_LEVELS.join(', ')}`;
    envelope.logLevel = level as LoggingLevel;
  }
  const token = meta.progressToken;
  if (typeof token === 'string' || (typeof token === 'number' && Number.isFinite(token))) envelope.progressToken = token;
  return envelope;
}

/**
 * The value of an `Mcp-Name` / `Mcp-Param-*` header as the client meant it: the Base64
 * sentinel form (`=?base64?...?=`) decoded from UTF-8, anything else as sent; undefined for
 * a sentinel whose payload is not Base64.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  if (!raw.startsWith('=?base64?') || !raw.endsWith('?=') || raw.length < 11) return raw;
  const payload = raw.slice(9, -2);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload) || payload.length % 4 !== 0) return undefined;
  return Buffer.from(payload, 'base64').toString('utf8');
}

/** The body member a method's `Mcp-Name` header mirrors, for the methods that have one. */
export function mcpNameSource(method: string, params: unknown): { field: 'name' | 'uri' | 'taskId'; value: unknown } | undefined {
  const p = isObject(params) ? params : {};
  if (method === 'tools/call' || method === 'prompts/get') return { field: 'name', value: p.name };
  if (method === 'resources/read') return { field: 'uri', value: p.uri };
  // The tasks extension (SEP-2663, Streamable HTTP binding): Mcp-Name mirrors the task id, so a balancer may route by it.
  // A taskId that is no string has no header to mirror: the params check answers it (-32602).
  if ((method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel') && typeof p.taskId === 'string')
    return { field: 'taskId', value: p.taskId };
  return undefined;
}
