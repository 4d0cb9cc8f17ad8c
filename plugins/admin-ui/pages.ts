/**
 * The admin pages: sessions (who, since when, through what), servers (state, health,
 * tools, backoff, last error) and workflow runs with a step timeline. Read-only; actions
 * are forms posting to actions.ts.
 */
import { isActiveState, type ExecutionRecord, type KernelApi, type Session, type ServiceState } from '../../kernel/index.js';
import { age, html, page, postButton, type Html } from './html.js';

const enc = encodeURIComponent;

function runningServers(kernel: KernelApi): string[] {
  return (kernel.services.find('upstreams')?.list() ?? []).filter((s) => isActiveState(s.state)).map((s) => s.name);
}

function who(s: Session): Html | string {
  return s.identity ? s.identity.subject : html`<span class="muted">anonymous</span>`;
}

export function sessionsPage(kernel: KernelApi): Html {
  const sessions = kernel.sessions.all();
  const servers = runningServers(kernel);
  const rows = sessions.map(
    (s) =>
      html`<tr>
        <td><a href="/sessions/${enc(s.id)}">${s.id.slice(0, 8)}…</a></td>
        <td>${s.clientInfo ? `${s.clientInfo.name} ${s.clientInfo.version}` : ''}</td>
        <td>${who(s)}</td>
        <td>${s.transport}</td>
        <td>${age(s.createdAt)}</td>
        <td class="opt">${servers.length}</td>
        <td>${postButton(`/sessions/${enc(s.id)}/delete`, 'End', true)}</td>
      </tr>`,
  );
  return page(
    'Sessions',
    sessions.length
      ? html`<div class="wrap">
          <table>
            <thead>
              <tr>
                <th>Session</th>
                <th>Client</th>
                <th>Identity</th>
                <th>Transport</th>
                <th>Age</th>
                <th class="opt">Servers</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              ${rows}
            </tbody>
          </table>
        </div>`
      : html`<p class="muted">No client is connected.</p>`,
  );
}

export function sessionPage(kernel: KernelApi, s: Session): Html {
  const servers = runningServers(kernel);
  return page(
    `Session ${s.id.slice(0, 8)}`,
    html`<dl>
        <dt>Id</dt>
        <dd>${s.id}</dd>
        <dt>Client</dt>
        <dd>${s.clientInfo ? `${s.clientInfo.name} ${s.clientInfo.version}` : 'not initialized yet'}</dd>
        <dt>Identity</dt>
        <dd>${who(s)}</dd>
        <dt>Transport</dt>
        <dd>${s.transport}</dd>
        <dt>Opened</dt>
        <dd>${s.createdAt.toISOString()} (${age(s.createdAt)} ago)</dd>
        <dt>Log level</dt>
        <dd>${s.logLevel ?? 'all'}</dd>
      </dl>
      <p>${postButton(`/sessions/${enc(s.id)}/delete`, 'End this session', true)}</p>
      <h2>Connected servers</h2>
      ${
        servers.length
          ? html`<table>
              <tbody>
                ${servers.map(
                  (n) =>
                    html`<tr>
                      <td><a href="/mcps/${enc(n)}">${n}</a></td>
                      <td>${postButton(`/sessions/${enc(s.id)}/servers/${enc(n)}/reconnect`, 'Reconnect')}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
          : html`<p class="muted">None.</p>`
      }`,
  );
}

function stateClass(state: ServiceState): string {
  return isActiveState(state) ? 'good' : state === 'failed' || state === 'unreachable' || state === 'auth_required' ? 'bad' : '';
}

export function serversPage(kernel: KernelApi): Html {
  const upstreams = kernel.services.find('upstreams');
  const list = upstreams?.list() ?? [];
  const rows = list.map(
    (s) =>
      html`<tr>
        <td><a href="/mcps/${enc(s.name)}">${s.name}</a></td>
        <td class="${stateClass(s.state)}">${s.state}</td>
        <td>${s.health}</td>
        <td>${upstreams!.toolCount(s.name)}</td>
        <td class="opt">${s.nextRetryAfter ?? ''}</td>
        <td class="opt bad">${s.error ?? ''}</td>
        <td>${postButton(`/mcps/${enc(s.name)}/reconnect`, 'Reconnect')}</td>
      </tr>`,
  );
  return page(
    'Servers',
    list.length
      ? html`<div class="wrap">
          <table>
            <thead>
              <tr>
                <th>Server</th>
                <th>State</th>
                <th>Health</th>
                <th>Tools</th>
                <th class="opt">Next retry</th>
                <th class="opt">Last error</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              ${rows}
            </tbody>
          </table>
        </div>`
      : html`<p class="muted">No MCP server is registered.</p>`,
  );
}

export function serverPage(kernel: KernelApi, name: string): Html | undefined {
  const upstreams = kernel.services.find('upstreams');
  const s = upstreams?.status(name);
  if (!s) return undefined;
  const tools = kernel.catalogue.all().filter((e) => e.server === name);
  const meta = Object.entries(s.metadata);
  return page(
    `Server ${name}`,
    html`<dl>
        <dt>State</dt>
        <dd class="${stateClass(s.state)}" id="state">${s.state}</dd>
        <dt>Health</dt>
        <dd>${s.health}</dd>
        ${
          s.nextRetryAfter
            ? html`<dt>Next retry</dt>
                <dd>${s.nextRetryAfter}</dd>`
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
      <p>${postButton(`/mcps/${enc(name)}/reconnect`, 'Reconnect')}</p>
      <h2>Tools (${tools.length})</h2>
      <div class="wrap">
        <table>
          <tbody>
            ${tools.map(
              (t) =>
                html`<tr>
                  <td>${t.name}</td>
                  <td>${t.summary}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>`,
  );
}

export async function executionsPage(kernel: KernelApi): Promise<Html> {
  const history = kernel.services.find('executions');
  const { executions } = (await history?.list({ limit: 100, offset: 0 })) ?? { executions: [] };
  const rows = executions.map(
    (e) =>
      html`<tr>
        <td><a href="/executions/${enc(e.execution_id)}">${e.execution_id.slice(0, 8)}…</a></td>
        <td>${e.workflow_name}</td>
        <td class="${e.status === 'completed' ? 'good' : e.status === 'running' ? '' : 'bad'}">${e.status}</td>
        <td class="opt">${e.started_at}</td>
        <td>${e.duration_ms === undefined ? '' : `${e.duration_ms} ms`}</td>
      </tr>`,
  );
  return page(
    'Workflow runs',
    executions.length
      ? html`<div class="wrap">
          <table>
            <thead>
              <tr>
                <th>Run</th>
                <th>Workflow</th>
                <th>Status</th>
                <th class="opt">Started</th>
                <th>Duration</th>
              </tr>
            </thead>
            <tbody>
              ${rows}
            </tbody>
          </table>
        </div>`
      : html`<p class="muted">No workflow has run yet.</p>`,
  );
}

/** Each step as a bar: where it started and how long it took, relative to the whole run. */
function timeline(e: ExecutionRecord): Html {
  const start = Date.parse(e.started_at);
  const end = e.completed_at ? Date.parse(e.completed_at) : Date.now();
  const total = Math.max(1, end - start);
  const steps = [...e.steps, ...(e.rollback ?? [])];
  return html`<div class="wrap">
    <table>
      <thead>
        <tr>
          <th>Step</th>
          <th>Tool</th>
          <th>Status</th>
          <th style="width:45%">Timeline</th>
          <th>ms</th>
        </tr>
      </thead>
      <tbody>
        ${steps.map((s) => {
          const from = s.started_at ? ((Date.parse(s.started_at) - start) / total) * 100 : 0;
          const width = s.duration_ms !== undefined ? Math.max(0.5, (s.duration_ms / total) * 100) : 0;
          return html`<tr>
            <td>${s.id}</td>
            <td>${s.tool}</td>
            <td>${s.status}</td>
            <td>
              <div class="timeline"><div class="bar ${s.status}" style="left:${from.toFixed(2)}%;width:${width.toFixed(2)}%"></div></div>
            </td>
            <td>${s.duration_ms ?? ''}</td>
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}

export async function executionPage(kernel: KernelApi, id: string): Promise<Html | undefined> {
  const e = await kernel.services.find('executions')?.get(id);
  if (!e) return undefined;
  return page(
    `Run of ${e.workflow_name}`,
    html`<dl>
        <dt>Run</dt>
        <dd>${e.execution_id}</dd>
        <dt>Status</dt>
        <dd>${e.status}</dd>
        <dt>Started</dt>
        <dd>${e.started_at}</dd>
        <dt>Duration</dt>
        <dd>${e.duration_ms ?? '…'} ms</dd>
        ${
          e.error
            ? html`<dt>Error</dt>
                <dd class="bad">${e.error}</dd>`
            : ''
        }
      </dl>
      <h2>Steps</h2>
      ${timeline(e)}`,
  );
}
