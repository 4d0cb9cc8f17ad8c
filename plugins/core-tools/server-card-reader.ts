/**
 * Reads a remote server's card (SEP-2127) for core_mcpserver_detect. The URL is the caller's,
 * so the card is fetched like every probe: to the address the outbound policy checked, no
 * redirect followed, within the detection's deadline, at most MAX_CARD_BYTES, JSON only. The
 * card is another party's text that ends up in front of a model: only the fields below are
 * taken, each checked for type and bounded in length; anything else is left out and said so.
 */
import type { FetchLike } from '#mcp-sdk/shared/transport.js';

export const CARD_PATH = '/.well-known/mcp/server-card.json';
/** A card is a few hundred bytes; one of 64 KiB is not a card. */
export const MAX_CARD_BYTES = 64 * 1024;
const MAX_REMOTES = 8;
const MAX_URL = 2048;
const MAX_TEXT = 500;
const MAX_VERSIONS = 16;
const MAX_SCHEMES = 8;

export interface CardTransport {
  type: 'streamable-http' | 'sse';
  url: string;
  protocolVersions?: string[];
  authentication?: { required: boolean; schemes: string[] };
}

export type CardReport =
  | {
      status: 'present';
      url: string;
      name?: string;
      title?: string;
      version?: string;
      description?: string;
      transports: CardTransport[];
      /** Whether any transport the card names says authentication is required. */
      requiresAuth: boolean;
      /** What was in the card but not taken (wrong type, too long, too many). */
      ignored?: string[];
    }
  | { status: 'absent'; url: string; detail: string }
  | { status: 'invalid'; url: string; detail: string };

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function text(v: unknown, max: number): string | undefined {
  return typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined;
}

function strings(v: unknown, maxItems: number, maxLength: number): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const ok = v.filter((s): s is string => typeof s === 'string' && s.length > 0 && s.length <= maxLength);
  return ok.length === v.length && ok.length <= maxItems ? ok : undefined;
}

function httpUrl(v: unknown): string | undefined {
  const s = text(v, MAX_URL);
  if (!s) return undefined;
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function authentication(v: unknown): CardTransport['authentication'] {
  if (!isObject(v) || typeof v.required !== 'boolean') return undefined;
  return { required: v.required, schemes: strings(v.schemes, MAX_SCHEMES, 64) ?? [] };
}

function transport(v: unknown, fallbackAuth: CardTransport['authentication']): CardTransport | undefined {
  if (!isObject(v) || (v.type !== 'streamable-http' && v.type !== 'sse')) return undefined;
  // The current revision says `url`; the draft before it said `endpoint`.
  const url = httpUrl(v.url ?? v.endpoint);
  if (!url) return undefined;
  const versions = strings(v.supportedProtocolVersions, MAX_VERSIONS, 32);
  const auth = authentication(v.authentication) ?? fallbackAuth;
  return { type: v.type, url, ...(versions ? { protocolVersions: versions } : {}), ...(auth ? { authentication: auth } : {}) };
}

/** The known fields of a parsed card, bounded; `ignored` names what was dropped. */
export function takeCard(card: Obj, url: string): CardReport {
  const ignored: string[] = [];
  // The draft before the current revision nested identity under serverInfo and had one `transport`.
  const info = isObject(card.serverInfo) ? card.serverInfo : card;
  const field = (key: string, value: unknown, max: number): string | undefined => {
    if (value === undefined) return undefined;
    const taken = text(value, max);
    if (taken === undefined) ignored.push(key);
    return taken;
  };
  const name = field('name', info.name, 200);
  const title = field('title', info.title, MAX_TEXT);
  const version = field('version', info.version, 255);
  const description = field('description', card.description, MAX_TEXT);
  const topAuth = authentication(card.authentication);
  const listed: unknown[] = Array.isArray(card.remotes) ? card.remotes : card.transport !== undefined ? [card.transport] : [];
  if (card.remotes !== undefined && !Array.isArray(card.remotes)) ignored.push('remotes');
  if (listed.length > MAX_REMOTES) ignored.push(`remotes beyond the first ${MAX_REMOTES}`);
  const transports: CardTransport[] = [];
  for (const [i, r] of listed.slice(0, MAX_REMOTES).entries()) {
    const t = transport(r, topAuth);
    if (t) transports.push(t);
    else ignored.push(`remotes[${i}]`);
  }
  return {
    status: 'present',
    url,
    ...(name ? { name } : {}),
    ...(title ? { title } : {}),
    ...(version ? { version } : {}),
    ...(description ? { description } : {}),
    transports,
    requiresAuth: transports.some((t) => t.authentication?.required === true) || topAuth?.required === true,
    ...(ignored.length ? { ignored } : {}),
  };
}

/** GETs the card at `origin` with `fetch` (pinned, no redirects, bounded by MAX_CARD_BYTES). Never throws. */
export async function readCard(origin: string, fetch: FetchLike, signal: AbortSignal): Promise<CardReport> {
  const url = `${origin}${CARD_PATH}`;
  let res: Response;
  try {
    res = await fetch(url, { method: 'GET', headers: { accept: 'application/json, application/mcp-server-card+json' }, signal });
  } catch (err) {
    const reason = signal.aborted ? 'no answer within the detection timeout' : ((err as Error & { cause?: Error }).cause?.message ?? (err as Error).message);
    return { status: reason.includes('larger than') ? 'invalid' : 'absent', url, detail: reason };
  }
  if (res.status >= 300 && res.status <= 399) {
    await res.body?.cancel();
    const location = (res.headers.get('location') ?? '').slice(0, 512);
    return { status: 'absent', url, detail: `GET answered ${res.status}, redirected to ${location || '(no Location)'}, not followed` };
  }
  if (!res.ok) {
    await res.body?.cancel();
    return { status: 'absent', url, detail: `GET answered ${res.status}` };
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    await res.body?.cancel();
    return { status: 'invalid', url, detail: `the card's content type is '${type.slice(0, 100) || '(none)'}', not JSON` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(await res.text());
  } catch (err) {
    return { status: 'invalid', url, detail: `the card is not JSON: ${(err as Error).message.slice(0, 200)}` };
  }
  if (!isObject(parsed)) return { status: 'invalid', url, detail: 'the card is not a JSON object' };
  return takeCard(parsed, url);
}
