/**
 * The frame every list page shares (sessions, servers, workflow runs, settings): a table that
 * scrolls within the page at phone width, its header row (columns marked `opt` hide there),
 * or a line saying the list is empty.
 */
import { html, type Html } from './html.js';

export type Column = string | { label: string | Html; opt?: boolean };

export function listTable(columns: readonly Column[], rows: readonly Html[], empty: string): Html {
  if (!rows.length) return html`<p class="muted">${empty}</p>`;
  const head = columns.map((c) => (typeof c === 'string' ? html`<th>${c}</th>` : c.opt ? html`<th class="opt">${c.label}</th>` : html`<th>${c.label}</th>`));
  return html`<div class="wrap">
    <table>
      <thead>
        <tr>
          ${head}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`;
}

/** The last column of a list with a button per row: named for screen readers, quiet on screen. */
export const ACTION_COLUMN: Column = { label: html`<span class="muted">Action</span>` };
