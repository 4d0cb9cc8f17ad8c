/**
 * Switchboard's own icon, as `serverInfo.icons` carries it: one hub wired to four servers.
 * Sent as `data:` URIs rather than a URL: they reach a stdio client as well as an HTTP one,
 * need no route of their own, and do not depend on the address Switchboard is reached at
 * (often plain http on localhost, which careful clients refuse to fetch an icon from).
 * One per theme, so the wires stay visible on a dark background as on a light one.
 */
import type { Icon } from '../../tools.js';

function svg(wire: string): string {
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48">' +
    `<g stroke="${wire}" stroke-width="3" stroke-linecap="round">` +
    '<path d="M24 24L9 9M24 24L39 9M24 24L9 39M24 24L39 39"/></g>' +
    `<g fill="${wire}"><circle cx="9" cy="9" r="5"/><circle cx="39" cy="9" r="5"/><circle cx="9" cy="39" r="5"/><circle cx="39" cy="39" r="5"/></g>` +
    '<circle cx="24" cy="24" r="8" fill="#2563eb"/></svg>'
  );
}

function icon(theme: 'light' | 'dark', wire: string): Icon {
  return { src: `data:image/svg+xml;base64,${Buffer.from(svg(wire)).toString('base64')}`, mimeType: 'image/svg+xml', sizes: ['any'], theme };
}

/** `light`: drawn for a light background; `dark`: for a dark one (MCP's meaning of an icon's theme). */
export const SWITCHBOARD_ICONS: readonly Icon[] = [icon('light', '#1f2937'), icon('dark', '#e5e7eb')];
