/**
 * The icons an upstream puts on its tools, resources, templates and prompts (2025-11-25,
 * SEP-973), kept only when they are safe to hand to a client. An icon is data Switchboard
 * passes on and never fetches, but the client that shows it does fetch or decode it: a
 * `javascript:` or `file:` source, an address on the client's own network, or a megabyte
 * of base64 on every tool would reach it through us. So, once per list read (never per
 * listing): an `https:` URL to a public host or a `data:` URI of an image type, within the
 * limits below; anything else is dropped, whole, with a debug line saying why. "Public" is
 * judged without resolving (the client resolves, on its own network): an IP literal by its
 * class, an IPv6 form carrying a private IPv4 address included (`[2002:7f00:1::]`), and a
 * name by what it shows (lib/net/private-host-name.ts: single labels, `.internal` and other
 * private suffixes, metadata names, `10.0.0.1.nip.io`-style names spelling a private address).
 */
import type { Icon, Logger } from '../../kernel/index.js';
import { isPrivateAddress } from '../../lib/net/address-class.js';
import { normalHost } from '../../lib/net/outbound-policy.js';
import { privateHostName } from '../../lib/net/private-host-name.js';
import { isIP } from 'node:net';

/** Icons kept per item: one per theme at two sizes, with room to spare; the rest are dropped. */
export const MAX_ICONS_PER_ITEM = 4;
/**
 * Characters of one `src`. list_tools and filter_tools entries carry icons, so this bounds
 * what an icon adds to a discovery page: a small PNG or SVG as base64 fits, a photo does not.
 */
export const MAX_ICON_SRC_LENGTH = 4096;
const MAX_SIZES = 8;

/** Image types a client is asked to render (the spec's MUSTs and SHOULDs, plus the common icon formats). */
const IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);

/** `data:<image type>[;name=value]*[;base64],<data>`; the media type is read by the caller. */
const DATA_URI = /^data:([a-z0-9.+/-]+)((?:;[a-z0-9-]+=[a-z0-9.+-]+)*)(;base64)?,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const SIZE = /^(any|[1-9]\d{0,4}x[1-9]\d{0,4})$/;
// Control characters and whitespace have no place in a URI; a client's parser may read them differently from ours.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f-\u009f]/;

type Verdict = { ok: true; icon: Icon } | { ok: false; reason: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Why a host is not one a client should be sent to, or undefined for a public one. */
function privateHost(hostname: string): string | undefined {
  const host = normalHost(hostname);
  if (host === 'localhost' || host.endsWith('.localhost')) return `'${host}' is the client's own machine`;
  if (isIP(host)) return isPrivateAddress(host) ? `${host} is not a public address` : undefined;
  const refused = privateHostName(host);
  if (!refused) return undefined;
  switch (refused.why) {
    case 'single-label':
      return `'${host}' is a single-label name, found only on the client's own network`;
    case 'private-suffix':
      return `'${host}' is under .${refused.suffix}, a private-use suffix`;
    case 'metadata-name':
      return `'${host}' names a cloud metadata service`;
    case 'loopback-domain':
      return `'${host}' is under ${refused.suffix}, whose every name is the client's own machine`;
    case 'spelled-address':
      return `'${host}' spells out ${refused.address}, a ${refused.addressClass} address`;
  }
}

function checkSource(src: string): string | undefined {
  if (src.length > MAX_ICON_SRC_LENGTH) return `its src is ${src.length} characters, more than ${MAX_ICON_SRC_LENGTH}`;
  if (UNSAFE_CHARACTERS.test(src)) return 'its src holds whitespace or control characters';
  const data = DATA_URI.exec(src);
  if (data) {
    const type = data[1]!.toLowerCase();
    if (!IMAGE_TYPES.has(type)) return `its data: URI is of type '${type}', not an image type`;
    if (data[3] && !BASE64.test(src.slice(data[0].length))) return 'its data: URI says base64 but is not';
    return undefined;
  }
  if (/^data:/i.test(src)) return 'its data: URI names no media type, or a malformed one';
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return 'its src is not a URI';
  }
  if (url.protocol !== 'https:') return `its src is a ${url.protocol} URI (only https: and data: are kept)`;
  if (url.username || url.password) return 'its src carries credentials';
  return privateHost(url.hostname);
}

function checkIcon(raw: unknown): Verdict {
  if (!isObject(raw)) return { ok: false, reason: 'it is not an object' };
  const { src, mimeType, sizes, theme } = raw;
  if (typeof src !== 'string') return { ok: false, reason: 'it has no src' };
  const bad = checkSource(src);
  if (bad) return { ok: false, reason: bad };
  // A fresh object: only the fields MCP defines, so nothing else an upstream adds rides along.
  const icon: Icon = { src };
  if (mimeType !== undefined) {
    if (typeof mimeType !== 'string' || !IMAGE_TYPES.has(mimeType.toLowerCase())) return { ok: false, reason: 'its mimeType is not an image type' };
    icon.mimeType = mimeType;
  }
  if (sizes !== undefined) {
    if (!Array.isArray(sizes) || sizes.length > MAX_SIZES || !sizes.every((s) => typeof s === 'string' && SIZE.test(s)))
      return { ok: false, reason: `its sizes are not up to ${MAX_SIZES} of 'WxH' or 'any'` };
    icon.sizes = [...(sizes as string[])];
  }
  if (theme !== undefined) {
    if (theme !== 'light' && theme !== 'dark') return { ok: false, reason: "its theme is neither 'light' nor 'dark'" };
    icon.theme = theme;
  }
  return { ok: true, icon };
}

/**
 * Replaces `item.icons` with the icons worth keeping (`what` names the item in the debug
 * lines), or removes the field when none is.
 */
export function keepSafeIcons(item: { icons?: unknown }, what: string, log: Logger): void {
  const raw = item.icons;
  if (raw === undefined) return;
  delete item.icons;
  if (!Array.isArray(raw)) {
    log.debug(`dropping the icons of ${what}: not a list`);
    return;
  }
  const kept: Icon[] = [];
  for (const [i, candidate] of raw.entries()) {
    if (kept.length === MAX_ICONS_PER_ITEM) {
      log.debug(`dropping ${raw.length - i} icon(s) of ${what}: at most ${MAX_ICONS_PER_ITEM} are kept`);
      break;
    }
    const verdict = checkIcon(candidate);
    if (verdict.ok) kept.push(verdict.icon);
    else log.debug(`dropping icon ${i} of ${what}: ${verdict.reason}`);
  }
  if (kept.length > 0) item.icons = kept;
}
