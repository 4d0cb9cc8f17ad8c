/** The admin pages' frame: style, header, buttons. */
import { Html, html } from '../../lib/html.js';

export { Html, html };

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1c1c1c;background:#fafafa}
header{background:#22304a;color:#fff;padding:.6rem 1rem;display:flex;gap:1.2rem;flex-wrap:wrap;align-items:baseline}
header a{color:#dfe7f5;text-decoration:none}header strong{margin-right:auto}
main{padding:1rem;max-width:70rem;margin:auto}
table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #e3e3e3;vertical-align:top}
.wrap{overflow-x:auto}.muted{color:#666}.bad{color:#a40000}.good{color:#0a6a2a}
form.inline{display:inline}button{font:inherit;padding:.25rem .7rem;border:1px solid #889;border-radius:4px;background:#fff;cursor:pointer}
button.danger{border-color:#a40000;color:#a40000}
.timeline{position:relative;height:1.3rem;background:#eef1f6;border-radius:3px}.bar{position:absolute;top:0;bottom:0;border-radius:3px;background:#4a78c2}
.bar.failed{background:#c24a4a}.bar.skipped,.bar.cancelled{background:#aaa}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{color:#555}
@media (max-width:40rem){th.opt,td.opt{display:none}}
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
        <header><strong>Switchboard admin</strong><a href="/sessions">Sessions</a><a href="/mcps">Servers</a><a href="/executions">Workflow runs</a></header>
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
