/**
 * The servers' pages: the list (state, health, tools, last error) with a way to add one, and
 * one server's page: its state, what it runs, its actions (edit, reconnect, suspend or resume,
 * delete) and its tools, each with a switch and a link to try it.
 */
import { isActiveState, type CatalogueEntry, type KernelApi, type ServiceState } from '../../kernel/index.js';
import { flash, html, Html, page, postButton, when } from './html.js';
import { ACTION_COLUMN, listTable } from './list-table.js';

const enc = encodeURIComponent;

export function stateClass(state: ServiceState): string {
  return isActiveState(state) ? 'good' : state === 'failed' || state === 'unreachable' || state === 'auth_required' ? 'bad' : '';
}

export function serversPage(kernel: KernelApi, done?: string): Html {
  const upstreams = kernel.services.find('upstreams');
  const list = upstreams?.list() ?? [];
  const suspended = (name: string) => kernel.config.snapshot.mcpServers.get(name)?.value.suspended === true;
  const rows = list.map(
    (s) =>
      html`<tr>
        <td><a href="/mcps/${enc(s.name)}">${s.name}</a></td>
        <td class="${stateClass(s.state)}">${s.state}${suspended(s.name) ? ' (suspended)' : ''}</td>
        <td class="opt">${s.health}</td>
        <td>${upstreams!.toolCount(s.name)}</td>
        <td class="opt">${when(s.nextRetryAfter)}</td>
        <td class="opt bad">${s.error ?? ''}</td>
        <td>${postButton(`/mcps/${enc(s.name)}/reconnect`, 'Reconnect')}</td>
      </tr>`,
  );
  return page(
    'Servers',
    html`${flash(done)}
      <p><a href="/mcps/new">Add a server</a></p>
      ${listTable(
        ['Server', 'State', { label: 'Health', opt: true }, 'Tools', { label: 'Next retry', opt: true }, { label: 'Last error', opt: true }, ACTION_COLUMN],
        rows,
        'No MCP server is registered.',
      )}`,
  );
}

/** The tools with a switch each (a checkbox labelled by the tool's name) and a link to its page when it is in the catalogue. */
function toolSwitches(kernel: KernelApi, name: string): Html {
  const listed = kernel.services.find('upstreams')?.listedTools(name) ?? [];
  const entries = new Map<string, CatalogueEntry>();
  for (const e of kernel.catalogue.all()) if (e.server === name && e.originalName) entries.set(e.originalName, e);
  const off = listed.filter((t) => t.disabled).length;
  if (listed.length === 0)
    return html`<h2 id="tools">Tools</h2>
      <p class="muted">The server has listed no tools (it is not connected, or has none).</p>`;
  return html`<h2 id="tools">Tools (${listed.length}${off ? `, ${off} switched off` : ''})</h2>
    <form method="post" action="/mcps/${enc(name)}/tools">
      <fieldset>
        <legend>Checked tools are on: clients can list, find and call them.</legend>
        <div class="wrap">
          <table>
            <tbody>
              ${listed.map((t, i) => {
                const entry = entries.get(t.name);
                return html`<tr>
                  <td class="nowrap">
                    <input type="checkbox" name="on" value="${t.name}" id="tool-${i}" ${new Html(t.disabled ? '' : 'checked')} /><label for="tool-${i}"
                      >${t.name}</label
                    >
                  </td>
                  <td class="opt">${t.description.split('\n', 1)[0] ?? ''}</td>
                  <td>${entry ? html`<a href="/tools/${enc(entry.name)}" aria-label="Try ${t.name}">Try</a>` : html`<span class="muted">off</span>`}</td>
                </tr>`;
              })}
            </tbody>
          </table>
        </div>
      </fieldset>
      <p><button type="submit">Save tool switches</button></p>
    </form>`;
}

/** The server's own words on stderr, newest last; the page is the refresh (a link, no script). */
function stderrTail(kernel: KernelApi, name: string): Html {
  const lines = kernel.services.find('upstreams')?.stderrTail(name) ?? [];
  return html`<h2 id="log">Log (stderr, last ${lines.length} lines)</h2>
    <p><a href="/mcps/${enc(name)}#log">Refresh</a></p>
    ${lines.length ? html`<pre class="result" id="stderr">${lines.join('\n')}</pre>` : html`<p class="muted">Nothing written on stderr yet.</p>`}`;
}

export function serverPage(kernel: KernelApi, name: string, done?: string): Html | undefined {
  const upstreams = kernel.services.find('upstreams');
  const s = upstreams?.status(name);
  const def = kernel.config.snapshot.mcpServers.get(name)?.value;
  if (!s || !def) return undefined;
  const meta = Object.entries(s.metadata);
  const runs = def.type === 'stdio' ? [def.command, ...(def.args ?? [])].flat().join(' ') : (def.url ?? '');
  return page(
    `Server ${name}`,
    html`${flash(done)}
      <dl>
        <dt>State</dt>
        <dd class="${stateClass(s.state)}" id="state">${s.state}</dd>
        ${
          def.suspended
            ? html`<dt>Suspended</dt>
                <dd>yes: it stays stopped until resumed</dd>`
            : ''
        }
        <dt>Health</dt>
        <dd>${s.health}</dd>
        <dt>${def.type === 'stdio' ? 'Runs' : `URL (${def.type})`}</dt>
        <dd><code>${runs}</code></dd>
        ${
          s.nextRetryAfter
            ? html`<dt>Next retry</dt>
                <dd>${when(s.nextRetryAfter)}</dd>`
            : ''
        }${
          s.error
            ? html`<dt>Last error</dt>
                <dd class="bad">${s.error}</dd>`
            : ''
        }
        ${meta.map(
          ([k, v]) =>
            html`<dt>${k}</dt>
              <dd>${typeof v === 'string' ? v : JSON.stringify(v)}</dd>`,
        )}
      </dl>
      <div class="actions">
        <a href="/mcps/${enc(name)}/edit">Edit</a>
        ${postButton(`/mcps/${enc(name)}/reconnect`, 'Reconnect')}
        ${def.suspended ? postButton(`/mcps/${enc(name)}/resume`, 'Resume') : postButton(`/mcps/${enc(name)}/suspend`, 'Suspend')}
        <a href="/mcps/${enc(name)}/delete" class="bad">Delete…</a>
      </div>
      ${toolSwitches(kernel, name)} ${def.type === 'stdio' ? stderrTail(kernel, name) : ''}`,
  );
}
