/**
 * A connection's request headers as node:http's flat list (`[name, value, ...]`, the form of
 * `rawHeaders`). Handed an object, node:http checks and stores each header by a call of its own
 * on every request (setHeader, then getHeader for Host and Expect); handed the list, it checks
 * each once as it writes the request, a part of what the upstream leg of a forwarded call
 * cost beyond a bare request (bench/README.md, "The upstream leg"). The list gets no Host from
 * node:http, so the connection's own is in it.
 */
import { isIP } from 'node:net';
import { mcpNameSource } from '../../../kernel/index.js';
import { headerValue } from './param-headers.js';

export type HeaderList = string[];

/** A configured header as sent: its name as first spelled, its value read under `key`. */
interface Configured {
  name: string;
  lower: string;
  /** The spelling whose value is sent: of two spellings of a name the later, as in setHeader. */
  key: string;
}

export class ConnectionHeaders {
  /**
   * The configured names, worked out once: a renewal changes values; only an edit of the
   * definition, which connects again, changes names.
   */
  private readonly names: Configured[] = [];
  /** False when the definition sets a Host of its own (a virtual host), kept as node:http did. */
  private readonly addsHost: boolean;

  /**
   * `configured`: the server's headers from its definition, whose values are read at each
   * request (a renewed credential is written into this object: secret-rotation.ts); `host`: the
   * URL's host, with a port that is not the scheme's.
   */
  constructor(
    private readonly configured: Readonly<Record<string, string>>,
    private readonly host: string,
  ) {
    for (const key of Object.keys(configured)) {
      const lower = key.toLowerCase();
      const earlier = this.names.find((n) => n.lower === lower);
      if (earlier) earlier.key = key;
      else this.names.push({ name: key, lower, key });
    }
    this.addsHost = !this.names.some((n) => n.lower === 'host');
  }

  /** The definition's own Host (a virtual host behind an address), or undefined. */
  get virtualHost(): string | undefined {
    const host = this.names.find((n) => n.lower === 'host');
    return host && this.configured[host.key];
  }

  /**
   * A request's headers: the configured ones it does not set itself, Host, then `own`
   * (lower-case names, each once), which win over a configured one of the same name in any
   * case, as they did through setHeader.
   */
  with(own: HeaderList): HeaderList {
    const out: HeaderList = [];
    for (const { name, lower, key } of this.names) if (!named(own, lower)) out.push(name, this.configured[key]!);
    if (this.addsHost) out.push('host', this.host);
    for (let i = 0; i < own.length; i++) out.push(own[i]!);
    return out;
  }
}

/** Whether the list sets `name` (lower case; the list's names are). */
function named(list: HeaderList, name: string): boolean {
  for (let i = 0; i < list.length; i += 2) if (list[i] === name) return true;
  return false;
}

/** An object of headers (lower-case names) appended to `list`. */
export function appendHeaders(list: HeaderList, headers: Readonly<Record<string, string>>): HeaderList {
  for (const name of Object.keys(headers)) list.push(name, headers[name]!);
  return list;
}

/** `Mcp-Method`, and `Mcp-Name` for a method naming something (Base64-sentinel unless ASCII). */
export function modernHeaders(headers: HeaderList, method: string, params: unknown): void {
  headers.push('mcp-method', method);
  const name = mcpNameSource(method, params)?.value;
  if (typeof name !== 'string') return;
  headers.push('mcp-name', headerValue(name));
}

/**
 * The TLS server name a configured Host header gives (a virtual host behind an address): what
 * node:http derived from a Host it was handed as an object, and no longer sees in a list. The
 * port and an IPv6 address's brackets go; an address names no server ('').
 */
export function serverNameOf(hostHeader: string): string {
  const close = hostHeader.startsWith('[') ? hostHeader.indexOf(']') : -1;
  const name = hostHeader.startsWith('[') ? (close === -1 ? hostHeader : hostHeader.slice(1, close)) : hostHeader.split(':', 1)[0]!;
  return isIP(name) ? '' : name;
}
