/** The admin pages' frame: style, header, buttons. */
import { Html, html } from '../../lib/html.js';

export { Html, html };

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1c1c1c;background:#fafafa}
header{background:#22304a;color:#fff;padding:.6rem 1rem;display:flex;gap:1.2rem;flex-wrap:wrap;align-items:baseline}
header a{color:#dfe7f5;text-decoration:none}header strong{margin-right:auto}header nav{gap:1.2rem}
main{padding:1rem;max-width:70rem;margin:auto}
table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #e3e3e3;vertical-align:top}
.wrap{overflow-x:auto}.muted{color:#666}.bad{color:#a40000}.good{color:#0a6a2a}
form.inline{display:inline}button{font:inherit;padding:.25rem .7rem;border:1px solid #889;border-radius:4px;background:#fff;cursor:pointer}
button.danger{border-color:#a40000;color:#a40000}
.timeline{position:relative;height:1.3rem;background:#eef1f6;border-radius:3px}.bar{position:absolute;top:0;bottom:0;border-radius:3px;background:#4a78c2}
.bar.failed{background:#c24a4a}.bar.skipped,.bar.cancelled{background:#aaa}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{color:#555}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}.actions a{padding:.25rem .2rem}
.field{margin:.7rem 0;display:flex;flex-direction:column;gap:.2rem;max-width:40rem}.field.check{flex-direction:row;align-items:center;gap:.5rem}
.field label{font-weight:600}input,select,textarea{font:inherit;padding:.3rem .4rem;border:1px solid #889;border-radius:4px;max-width:100%;box-sizing:border-box}
textarea{font-family:ui-monospace,monospace;font-size:.9em}.hint{margin:0;color:#555;font-size:.9em}
.field-error{margin:0;color:#a40000;font-weight:600}[aria-invalid=true]{border:2px solid #a40000}
.error-summary{border:2px solid #a40000;padding:.3rem 1rem;background:#fff4f4;margin-bottom:1rem}.error-summary h2{margin:.3rem 0;font-size:1.1em}
.flash{border-left:4px solid #0a6a2a;background:#eef8f0;padding:.4rem .8rem}
section{background:#fff;border:1px solid #e3e3e3;border-radius:6px;padding:.2rem 1rem .8rem;margin:1rem 0}
pre.result{white-space:pre-wrap;word-break:break-word;background:#f3f4f7;padding:.6rem;border-radius:4px;max-height:30rem;overflow:auto}
time span,.nowrap{white-space:nowrap}dd{min-width:0;overflow-wrap:anywhere}code{overflow-wrap:anywhere}
@media (max-width:40rem){th.opt,td.opt,td time .abs{display:none}main{padding:.5rem}td,th{padding:.35rem .3rem}}
`;

export function page(title: string, body: Html): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>${title} · Switchboard admin</title>
        <style>
          ${new Html(STYLE)}
        </style>
      </head>
      <body>
        <header>
          <strong>Switchboard admin</strong>
          <nav aria-label="Sections" class="actions">
            <a href="/sessions">Sessions</a><a href="/mcps">Servers</a><a href="/executions">Workflow runs</a><a href="/settings">Settings</a>
          </nav>
        </header>
        <main>
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html>`;
}

/** A button posting to `action`: a form, so it works without script and carries the page's origin. */
export function postButton(action: string, label: string, danger = false): Html {
  return html`<form class="inline" method="post" action="${action}">
    <button type="submit" ${new Html(danger ? ' class="danger"' : '')}>${label}</button>
  </form>`;
}

export function age(since: Date | string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - new Date(since).getTime()) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** The page for anything that is not there: the admin pages' own frame, a way back. */
export function notFound(what: string): Html {
  return page(
    'Not found',
    html`<p>${what || 'This page'} does not exist (any more).</p>
      <p><a href="/mcps">Servers</a> · <a href="/sessions">Sessions</a> · <a href="/executions">Workflow runs</a></p>`,
  );
}

/** A moment as people read it, in UTC, with how long ago; the exact value stays in `datetime` and the tooltip. */
export function when(at: Date | string | undefined, now = Date.now()): Html | string {
  if (at === undefined) return '';
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return String(at);
  const iso = d.toISOString();
  const shown = `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
  const diff = now - d.getTime();
  const rel = diff >= 0 ? `${age(d, now)} ago` : `in ${age(new Date(now), d.getTime())}`;
  return html`<time datetime="${iso}" title="${iso}"><span class="abs">${shown}</span> <span class="muted rel">(${rel})</span></time>`;
}

/** What the action a page was redirected from did, said once at its top (role=status: read out). */
const DONE: Record<string, string> = {
  created: 'Server added.',
  updated: 'Saved.',
  suspended: 'Suspended: stopped, and kept stopped until resumed.',
  resumed: 'Resumed.',
  reconnected: 'Reconnected.',
  'reconnect-failed': 'The reconnect failed; the state below says why.',
  deleted: 'Server deleted.',
  tools: 'Tool switches saved.',
};

export function flash(done: string | undefined): Html | string {
  const message = done && DONE[done];
  return message ? html`<p class="flash" role="status">${message}</p>` : '';
}
