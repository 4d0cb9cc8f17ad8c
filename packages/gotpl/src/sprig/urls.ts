/**
 * sprig's urlParse and urlJoin on a port of Go's net/url: parsing (scheme, opaque,
 * authority, userinfo, host, path, query, fragment, with Go's escape rules and errors) and
 * URL.String().
 */
import { isIP } from 'node:net';
import { quoteString, utf8Bytes } from '../unicode.js';
import { mapGet } from '../values.js';
import type { GoMap } from '../values.js';
import { kindName, newMap, setKey } from './convert.js';
import type { FunctionGroup } from './define.js';
import { fixed, M, S } from './define.js';

const enum Mode {
  Path,
  Host,
  Zone,
  UserPassword,
  Fragment,
}

const isAlnum = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);

/** net/url's shouldEscape for one byte. */
function shouldEscape(c: number, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  const ch = String.fromCharCode(c);
  if ((mode === Mode.Host || mode === Mode.Zone) && '!$&\'()*+,;=:[]<>"'.includes(ch)) return false;
  if ('-_.~'.includes(ch)) return false;
  if ('$&+,/:;=?@'.includes(ch)) {
    switch (mode) {
      case Mode.Path:
        return ch === '?';
      case Mode.UserPassword:
        return '@/?:'.includes(ch);
      case Mode.Fragment:
        return false;
    }
  }
  if (mode === Mode.Fragment && '!()*'.includes(ch)) return false;
  return true;
}

const HEX = '0123456789ABCDEF';
const decoder = new TextDecoder();

function escape(s: string, mode: Mode): string {
  let out = '';
  for (const b of utf8Bytes(s)) out += shouldEscape(b, mode) ? '%' + HEX[b >> 4]! + HEX[b & 15]! : String.fromCharCode(b);
  return out;
}

const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/** net/url's unescape, with its EscapeError and InvalidHostError. */
function unescape(s: string, mode: Mode): string {
  const bytes = utf8Bytes(s);
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x25) {
      const a = String.fromCharCode(bytes[i + 1] ?? 0);
      const b = String.fromCharCode(bytes[i + 2] ?? 0);
      if (i + 2 >= bytes.length || !isHex(a) || !isHex(b)) {
        throw new Error(`invalid URL escape ${quoteString(decoder.decode(bytes.subarray(i, i + 3)))}`);
      }
      const v = parseInt(a + b, 16);
      const text = decoder.decode(bytes.subarray(i, i + 3));
      if (mode === Mode.Host && parseInt(a, 16) < 8 && text !== '%25') throw new Error(`invalid URL escape ${quoteString(text)}`);
      if (mode === Mode.Zone && text !== '%25' && v !== 0x20 && shouldEscape(v, Mode.Host)) throw new Error(`invalid URL escape ${quoteString(text)}`);
      out.push(v);
      i += 2;
    } else {
      if ((mode === Mode.Host || mode === Mode.Zone) && c < 0x80 && shouldEscape(c, mode)) {
        throw new Error(`invalid character ${quoteString(String.fromCharCode(c))} in host name`);
      }
      out.push(c);
    }
  }
  return decoder.decode(new Uint8Array(out));
}

interface Url {
  scheme: string;
  opaque: string;
  user: { username: string; password: string | null } | null;
  host: string;
  path: string;
  rawPath: string;
  forceQuery: boolean;
  rawQuery: string;
  fragment: string;
  rawFragment: string;
  omitHost: boolean;
}

function emptyUrl(): Url {
  return {
    scheme: '',
    opaque: '',
    user: null,
    host: '',
    path: '',
    rawPath: '',
    forceQuery: false,
    rawQuery: '',
    fragment: '',
    rawFragment: '',
    omitHost: false,
  };
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function parseHost(host: string): string {
  const open = host.lastIndexOf('[');
  if (open > 0) throw new Error('invalid IP-literal');
  if (open === 0) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new Error("missing ']' in host");
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) throw new Error(`invalid port ${quoteString(colonPort)} after host`);
    const port = unescape(colonPort, Mode.Host);
    const hostname = host.slice(1, close);
    const zone = hostname.indexOf('%25');
    const name = zone >= 0 ? unescape(hostname.slice(0, zone), Mode.Host) + unescape(hostname.slice(zone), Mode.Zone) : unescape(hostname, Mode.Host);
    const addr = name.replace(/%.*$/, '');
    if (isIP(addr) === 0) throw new Error(`invalid host: ParseAddr(${quoteString(name)}): unable to parse IP`);
    if (isIP(addr) === 4) throw new Error('invalid IP-literal');
    return '[' + name + ']' + port;
  }
  const colon = host.lastIndexOf(':');
  if (colon !== -1) {
    const colonPort = host.slice(colon);
    if (!validOptionalPort(colonPort)) throw new Error(`invalid port ${quoteString(colonPort)} after host`);
  }
  return unescape(host, Mode.Host);
}

function validUserinfo(s: string): boolean {
  return /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(s);
}

function setPath(u: Url, p: string): void {
  u.path = unescape(p, Mode.Path);
  u.rawPath = escape(u.path, Mode.Path) === p ? '' : p;
}

function parseUrl(raw: string): Url {
  // eslint-disable-next-line no-control-regex -- Go refuses control bytes in a URL
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new Error('net/url: invalid control character in URL');
  const u = emptyUrl();
  if (raw === '*') {
    u.path = '*';
    return u;
  }
  let rest = raw;
  const m = /^([A-Za-z][A-Za-z0-9+\-.]*):/.exec(raw);
  if (raw.startsWith(':')) throw new Error('missing protocol scheme');
  if (m !== null) {
    u.scheme = m[1]!.toLowerCase();
    rest = raw.slice(m[0].length);
  }
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    u.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      u.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (u.scheme !== '') {
      u.opaque = rest;
      return u;
    }
    if (rest.split('/')[0]!.includes(':')) throw new Error('first path segment in URL cannot contain colon');
  }
  if ((u.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    const at = authority.lastIndexOf('@');
    u.host = parseHost(at < 0 ? authority : authority.slice(at + 1));
    if (at >= 0) {
      const info = authority.slice(0, at);
      if (!validUserinfo(info)) throw new Error('net/url: invalid userinfo');
      const colon = info.indexOf(':');
      u.user =
        colon < 0
          ? { username: unescape(info, Mode.UserPassword), password: null }
          : { username: unescape(info.slice(0, colon), Mode.UserPassword), password: unescape(info.slice(colon + 1), Mode.UserPassword) };
    }
  } else if (u.scheme !== '' && rest.startsWith('/')) {
    u.omitHost = true;
  }
  setPath(u, rest);
  return u;
}

/** url.Parse, whose error sprig turns into a panic. */
function parse(raw: string): Url {
  const hash = raw.indexOf('#');
  const main = hash < 0 ? raw : raw.slice(0, hash);
  let u: Url;
  try {
    u = parseUrl(main);
  } catch (e) {
    throw new Error(`unable to parse url: parse ${quoteString(main)}: ${(e as Error).message}`, { cause: e });
  }
  const frag = hash < 0 ? '' : raw.slice(hash + 1);
  if (frag !== '') {
    try {
      u.fragment = unescape(frag, Mode.Fragment);
    } catch (e) {
      throw new Error(`unable to parse url: parse ${quoteString(raw)}: ${(e as Error).message}`, { cause: e });
    }
    u.rawFragment = escape(u.fragment, Mode.Fragment) === frag ? '' : frag;
  }
  return u;
}

function validEncoded(s: string, mode: Mode): boolean {
  for (const b of utf8Bytes(s)) if (!"!$&'()*+,;=:@[]%".includes(String.fromCharCode(b)) && shouldEscape(b, mode)) return false;
  return true;
}

function escapedPath(u: Url): string {
  if (u.rawPath !== '' && validEncoded(u.rawPath, Mode.Path)) {
    try {
      if (unescape(u.rawPath, Mode.Path) === u.path) return u.rawPath;
    } catch {
      // fall through to escaping the path
    }
  }
  if (u.path === '*') return '*';
  return escape(u.path, Mode.Path);
}

function escapedFragment(u: Url): string {
  if (u.rawFragment !== '' && validEncoded(u.rawFragment, Mode.Fragment)) {
    try {
      if (unescape(u.rawFragment, Mode.Fragment) === u.fragment) return u.rawFragment;
    } catch {
      // fall through to escaping the fragment
    }
  }
  return escape(u.fragment, Mode.Fragment);
}

function userString(user: NonNullable<Url['user']>): string {
  return escape(user.username, Mode.UserPassword) + (user.password === null ? '' : ':' + escape(user.password, Mode.UserPassword));
}

/** URL.String(). */
function format(u: Url): string {
  let out = u.scheme === '' ? '' : u.scheme + ':';
  if (u.opaque !== '') out += u.opaque;
  else {
    if ((u.scheme !== '' || u.host !== '' || u.user !== null) && !(u.omitHost && u.host === '' && u.user === null)) {
      if (u.host !== '' || u.path !== '' || u.user !== null) out += '//';
      if (u.user !== null) out += userString(u.user) + '@';
      if (u.host !== '') out += escape(u.host, Mode.Host);
    }
    const path = escapedPath(u);
    if (path !== '' && path[0] !== '/' && u.host !== '') out += '/';
    if (out === '' && path.split('/')[0]!.includes(':')) out += './';
    out += path;
  }
  if (u.forceQuery || u.rawQuery !== '') out += '?' + u.rawQuery;
  if (u.fragment !== '') out += '#' + escapedFragment(u);
  return out;
}

/** URL.Hostname(). */
function hostname(host: string): string {
  let h = host;
  const colon = h.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(h.slice(colon))) h = h.slice(0, colon);
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  return h;
}

function urlParse(raw: string): GoMap {
  const u = parse(raw);
  const m = newMap();
  setKey(m, 'scheme', u.scheme);
  setKey(m, 'host', u.host);
  setKey(m, 'hostname', hostname(u.host));
  setKey(m, 'path', u.path);
  setKey(m, 'query', u.rawQuery);
  setKey(m, 'opaque', u.opaque);
  setKey(m, 'fragment', u.fragment);
  setKey(m, 'userinfo', u.user === null ? '' : userString(u.user));
  return m;
}

/** sprig's dictGetOrEmpty: a string, "" when absent, a panic for anything else. */
function field(d: GoMap | null, key: string): string {
  const v = d === null ? undefined : mapGet(d, key);
  if (v === undefined) return '';
  if (typeof v !== 'string') {
    if (v === null) throw new Error('runtime error: invalid memory address or nil pointer dereference');
    throw new Error(`unable to parse ${key} key, must be of type string, but ${kindName(v)} found`);
  }
  return v;
}

function urlJoin(d: GoMap | null): string {
  const u = emptyUrl();
  u.scheme = field(d, 'scheme');
  u.host = field(d, 'host');
  u.path = field(d, 'path');
  u.rawQuery = field(d, 'query');
  u.opaque = field(d, 'opaque');
  u.fragment = field(d, 'fragment');
  const info = field(d, 'userinfo');
  if (info !== '') {
    try {
      u.user = parseUrl(`proto://${info}@host`).user;
    } catch (e) {
      throw new Error(`unable to parse userinfo in dict: parse ${quoteString(`proto://${info}@host`)}: ${(e as Error).message}`, { cause: e });
    }
  }
  return format(u);
}

export const URLS: FunctionGroup = {
  urlParse: fixed([S], (a) => urlParse(a[0] as string)),
  urlJoin: fixed([M], (a) => urlJoin(a[0] as GoMap | null)),
};
