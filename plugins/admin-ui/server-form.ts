/**
 * The forms that add and edit an MCP server: one per transport (a local command, a remote
 * URL) and a box to paste what an IDE's configuration says. What they post becomes the
 * arguments of core_mcpserver_create / core_mcpserver_update, whose refusals come back here
 * and are shown beside the field they are about.
 */
import type { JsonObject, McpServerDefinition, SecretValue } from '../../kernel/index.js';
import { addError, checkbox, errorSummary, field, select, type FieldErrors } from './fields.js';
import { html, type Html } from './html.js';

export const REMOTE_TYPES = ['streamable-http', 'sse'] as const;

const LABELS: Record<string, string> = {
  name: 'Name',
  command: 'Command',
  args: 'Arguments',
  env: 'Environment',
  url: 'URL',
  type: 'Transport',
  headers: 'Headers',
  description: 'Description',
  snippet: 'Configuration snippet',
  autoStart: 'Start now and with Switchboard',
};

/** The fields of the definition a form posts, as the form shows them again after a refusal. */
export type ServerForm = Partial<Record<'name' | 'command' | 'args' | 'env' | 'url' | 'type' | 'headers' | 'description' | 'snippet', string>> & {
  autoStart?: boolean;
};

function lines(text: string | undefined): string[] {
  return (text ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

/** `KEY=value` (env) or `Name: value` (headers) lines as a map; a line without the separator is the field's error. */
function pairs(text: string | undefined, sep: '=' | ':', id: string, errors: FieldErrors): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [i, line] of lines(text).entries()) {
    const at = line.indexOf(sep);
    if (at <= 0) {
      addError(errors, id, `line ${i + 1} ('${line.slice(0, 40)}') has no '${sep}': write ${sep === '=' ? 'NAME=value' : 'Name: value'}`);
      continue;
    }
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return Object.keys(out).length ? out : undefined;
}

/** The core tool's arguments from a posted form (create: every field; update: the same, replacing). */
export function definitionOf(form: URLSearchParams, errors: FieldErrors): { args: JsonObject; shown: ServerForm } {
  const get = (k: string) => form.get(k) ?? undefined;
  const shown: ServerForm = {};
  for (const k of ['name', 'command', 'args', 'env', 'url', 'type', 'headers', 'description'] as const) {
    const v = get(k);
    if (v !== undefined) shown[k] = v;
  }
  shown.autoStart = form.get('autoStart') === 'on';
  const args: JsonObject = { name: (shown.name ?? '').trim() };
  const type = shown.type ?? 'stdio';
  args.type = type;
  if (shown.description?.trim()) args.description = shown.description.trim();
  if (type === 'stdio') {
    args.command = (shown.command ?? '').trim();
    args.args = lines(shown.args);
    args.env = pairs(shown.env, '=', 'env', errors) ?? {};
    args.autoStart = shown.autoStart;
  } else {
    args.url = (shown.url ?? '').trim();
    args.headers = pairs(shown.headers, ':', 'headers', errors) ?? {};
  }
  return { args, shown };
}

/** Puts each problem a core tool named beside the field it is about; the rest are the form's own. */
export function placeProblems(problems: readonly string[], fallback: string, errors: FieldErrors, fields: readonly string[]): void {
  if (problems.length === 0) addError(errors, '', fallback);
  for (const p of problems) {
    const head = /^([A-Za-z]+)(?:[.[/][^:]*)?: (.*)$/.exec(p);
    const named =
      /^(command|url|type) is required/.exec(p) ?? /required property '([A-Za-z]+)'/.exec(p) ?? (/^unsupported MCP server type/.test(p) ? ['', 'type'] : null);
    const headField = head?.[1];
    const namedField = named?.[1];
    const target = headField && fields.includes(headField) ? headField : namedField && fields.includes(namedField) ? namedField : '';
    addError(errors, target, target && head?.[1] === target ? head[2]! : p);
  }
}

function shownMap(map: Record<string, SecretValue> | undefined, sep: string): string {
  return Object.entries(map ?? {})
    .map(([k, v]) => `${k}${sep}${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('\n');
}

/** A stored (redacted) definition as the edit form shows it. */
export function formOf(def: McpServerDefinition): ServerForm {
  const command = Array.isArray(def.command) ? def.command.join(' ') : def.command;
  return {
    name: def.name,
    type: def.type,
    ...(def.description ? { description: def.description } : {}),
    ...(command ? { command } : {}),
    args: (def.args ?? []).join('\n'),
    env: shownMap(def.env, '='),
    ...(def.url ? { url: def.url } : {}),
    headers: shownMap(def.headers, ': '),
    autoStart: def.autoStart,
  };
}

function stdioFields(f: ServerForm, errors: FieldErrors, p = ''): Html {
  return html`${field({ id: 'command', label: 'Command', value: f.command ?? '', required: true, hint: 'The program to run, e.g. npx or /usr/local/bin/my-server' }, errors, p)}
  ${field({ id: 'args', label: 'Arguments', kind: 'textarea', value: f.args ?? '', hint: 'One per line.' }, errors, p)}
  ${field({ id: 'env', label: 'Environment', kind: 'textarea', value: f.env ?? '', hint: 'NAME=value, one per line; write ${NAME} to pass a variable of your environment rather than the value.' }, errors, p)}
  ${checkbox('autoStart', LABELS.autoStart!, f.autoStart ?? true, errors, p)}`;
}

function remoteFields(f: ServerForm, errors: FieldErrors, p = ''): Html {
  return html`${select('type', 'Transport', REMOTE_TYPES, f.type ?? 'streamable-http', errors, true, p)}
  ${field({ id: 'url', label: 'URL', kind: 'url', value: f.url ?? '', required: true }, errors, p)}
  ${field({ id: 'headers', label: 'Headers', kind: 'textarea', value: f.headers ?? '', hint: 'Name: value, one per line; ${NAME} keeps a token out of the file.' }, errors, p)}`;
}

/** Which of the add page's three forms was posted (and so shows the errors). */
export type AddForm = 'paste' | 'stdio' | 'remote';

export function addServerBody(which: AddForm | undefined, f: ServerForm, errors: FieldErrors): Html {
  const own = (form: AddForm) => (which === form ? errors : new Map<string, string[]>());
  const summary = which ? errorSummary(errors, LABELS, `${which}-`) : '';
  return html`${summary}
    <section aria-labelledby="paste-h">
      <h2 id="paste-h">Paste from your IDE</h2>
      <form method="post" action="/mcps/import">
        ${field(
          {
            id: 'snippet',
            label: 'Configuration snippet',
            kind: 'textarea',
            rows: 8,
            value: which === 'paste' ? (f.snippet ?? '') : '',
            required: true,
            hint: 'What Claude Desktop, Cursor or VS Code has: the whole file, its mcpServers map, or one "name": {"command": ...} entry. Read as switchboard import reads it.',
          },
          own('paste'),
          'paste-',
        )}
        <button type="submit">Add from snippet</button>
      </form>
    </section>
    <section aria-labelledby="stdio-h">
      <h2 id="stdio-h">A local command (stdio)</h2>
      <form method="post" action="/mcps">
        <input type="hidden" name="type" value="stdio" />
        ${field({ id: 'name', label: 'Name', value: which === 'stdio' ? (f.name ?? '') : '', required: true, hint: 'Its tools are called x_<name>_<tool>.' }, own('stdio'), 'stdio-')}
        ${stdioFields(which === 'stdio' ? f : {}, own('stdio'), 'stdio-')}
        ${field({ id: 'description', label: 'Description', value: which === 'stdio' ? (f.description ?? '') : '' }, own('stdio'), 'stdio-')}
        <button type="submit">Add local server</button>
      </form>
    </section>
    <section aria-labelledby="remote-h">
      <h2 id="remote-h">A remote server (URL)</h2>
      <form method="post" action="/mcps">
        ${field({ id: 'name', label: 'Name', value: which === 'remote' ? (f.name ?? '') : '', required: true }, own('remote'), 'remote-')}
        ${remoteFields(which === 'remote' ? f : {}, own('remote'), 'remote-')}
        ${field({ id: 'description', label: 'Description', value: which === 'remote' ? (f.description ?? '') : '' }, own('remote'), 'remote-')}
        <button type="submit">Add remote server</button>
      </form>
    </section>`;
}

export function editServerBody(f: ServerForm, errors: FieldErrors): Html {
  const stdio = (f.type ?? 'stdio') === 'stdio';
  return html`${errorSummary(errors, LABELS)}
    <form method="post" action="/mcps/${encodeURIComponent(f.name ?? '')}/edit">
      ${field({ id: 'name', label: 'Name', value: f.name ?? '', kind: 'readonly', hint: 'A server keeps its name; add a new one to rename.' }, errors)}
      ${stdio ? html`<input type="hidden" name="type" value="stdio" />${stdioFields(f, errors)}` : remoteFields(f, errors)}
      ${field({ id: 'description', label: 'Description', value: f.description ?? '' }, errors)}
      <p class="hint">Secret values show as &lt;redacted&gt;; leave them so to keep them.</p>
      <button type="submit">Save</button> <a href="/mcps/${encodeURIComponent(f.name ?? '')}">Cancel</a>
    </form>`;
}

export const SERVER_FIELDS = ['name', 'command', 'args', 'env', 'url', 'type', 'headers', 'description', 'autoStart'] as const;
