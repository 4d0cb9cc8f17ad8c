/**
 * The admin pages: sessions (who, since when, through what), servers (state, health,
 * tools, backoff, last error) and workflow runs with a step timeline. Actions are forms
 * posting to server-actions.ts.
 */
import { isActiveState, type ExecutionRecord, type KernelApi, type Session } from '../../kernel/index.js';
import { flash, html, page, postButton, when, type Html } from './html.js';
import { ACTION_COLUMN, listTable } from './list-table.js';

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
        <td class="opt">${who(s)}</td>
        <td class="opt">${s.transport}</td>
        <td>${when(s.createdAt)}</td>
        <td class="opt">${servers.length}</td>
        <td>${postButton(`/sessions/${enc(s.id)}/delete`, 'End', true)}</td>
      </tr>`,
  );
  return page(
    'Sessions',
    listTable(
      ['Session', 'Client', { label: 'Identity', opt: true }, { label: 'Transport', opt: true }, 'Opened', { label: 'Servers', opt: true }, ACTION_COLUMN],
      rows,
      'No client is connected.',
    ),
  );
}

export function sessionPage(kernel: KernelApi, s: Session, done?: string): Html {
  const servers = runningServers(kernel);
  return page(
    `Session ${s.id.slice(0, 8)}`,
    html`${flash(done)}
      <dl>
        <dt>Id</dt>
        <dd>${s.id}</dd>
        <dt>Client</dt>
        <dd>${s.clientInfo ? `${s.clientInfo.name} ${s.clientInfo.version}` : 'not initialized yet'}</dd>
        <dt>Identity</dt>
        <dd>${who(s)}</dd>
        <dt>Transport</dt>
        <dd>${s.transport}</dd>
        <dt>Opened</dt>
        <dd>${when(s.createdAt)}</dd>
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

export async function executionsPage(kernel: KernelApi): Promise<Html> {
  const history = kernel.services.find('executions');
  const { executions } = (await history?.list({ limit: 100, offset: 0 })) ?? { executions: [] };
  const rows = executions.map(
    (e) =>
      html`<tr>
        <td><a href="/executions/${enc(e.execution_id)}">${e.execution_id.slice(0, 8)}…</a></td>
        <td>${e.workflow_name}</td>
        <td class="${e.status === 'completed' ? 'good' : e.status === 'running' ? '' : 'bad'}">${e.status}</td>
        <td class="opt">${when(e.started_at)}</td>
        <td>${e.duration_ms === undefined ? '' : `${e.duration_ms} ms`}</td>
      </tr>`,
  );
  return page('Workflow runs', listTable(['Run', 'Workflow', 'Status', { label: 'Started', opt: true }, 'Duration'], rows, 'No workflow has run yet.'));
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

/** A value as indented JSON, wrapped to the page (results can be long: scrolled within). */
function json(value: unknown): Html {
  return html`<pre class="result">${JSON.stringify(value ?? {}, null, 2)}</pre>`;
}

/** Each step's arguments as rendered and its result or error, folded (a details element: no script). */
function stepDetails(e: ExecutionRecord): Html {
  const steps = [...e.steps, ...(e.rollback ?? [])];
  return html`<h2>Step arguments and results</h2>
    ${steps.map(
      (s) =>
        html`<details class="step">
          <summary>${s.path ?? s.id} (${s.tool}): ${s.status}</summary>
          <h3>Arguments</h3>
          ${json(s.input ?? s.args)}
          ${
            s.error
              ? html`<h3>Error</h3>
                  <p class="bad">${s.error}</p>`
              : html`<h3>Result</h3>
                  ${json(s.result)}`
          }
        </details>`,
    )}`;
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
        <dd>${when(e.started_at)}</dd>
        <dt>Duration</dt>
        <dd>${e.duration_ms ?? '…'} ms</dd>
        ${
          e.error
            ? html`<dt>Error</dt>
                <dd class="bad">${e.error}</dd>`
            : ''
        }
        <dt>Run by</dt>
        <dd>${e.caller_name ?? e.caller ?? ''}</dd>
      </dl>
      <h2>Inputs</h2>
      ${json(e.input)}
      <h2>Steps</h2>
      ${timeline(e)} ${stepDetails(e)}
      ${
        e.result !== undefined
          ? html`<h2>Result</h2>
              ${json(e.result)}`
          : ''
      }`,
  );
}
