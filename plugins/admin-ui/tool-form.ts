/**
 * A tool's page: a form generated from its input schema, one labelled control per top-level
 * property (text, number, a yes/no choice, a list of the enum's values; anything nested as
 * JSON), run through call_tool, and the result shown below it. Values are read back from the
 * form by the same schema, so "3" reaches an integer argument as 3.
 */
import type { CatalogueEntry, JsonObject } from '../../kernel/index.js';
import { addError, errorSummary, field, select, type FieldErrors } from './fields.js';
import { html, type Html } from './html.js';
import type { CallOutcome } from './tool-calls.js';

type Prop = { type?: unknown; enum?: unknown; description?: unknown; title?: unknown; default?: unknown };

function properties(entry: CatalogueEntry): [string, Prop][] {
  const props = entry.inputSchema.properties;
  return props && typeof props === 'object' ? (Object.entries(props) as [string, Prop][]) : [];
}

function requiredOf(entry: CatalogueEntry): Set<string> {
  const r = entry.inputSchema.required;
  return new Set(Array.isArray(r) ? r.filter((x): x is string => typeof x === 'string') : []);
}

function kindOf(p: Prop): 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json' {
  if (Array.isArray(p.enum) && p.enum.every((v) => typeof v === 'string')) return 'enum';
  const t: unknown = Array.isArray(p.type) ? (p.type as unknown[]).find((x) => x !== 'null') : p.type;
  return t === 'string' || t === 'number' || t === 'integer' || t === 'boolean' ? t : 'json';
}

/** The element id of argument `name`: a prefix keeps it apart from the page's own ids. */
const idOf = (name: string) => `arg-${name}`;

/** The form's arguments from what was posted, with a problem per field that cannot be read. */
export function argumentsOf(entry: CatalogueEntry, form: URLSearchParams, errors: FieldErrors): JsonObject {
  const out: JsonObject = {};
  for (const [name, p] of properties(entry)) {
    const raw = form.get(idOf(name));
    if (raw === null || raw.trim() === '') continue;
    const kind = kindOf(p);
    if (kind === 'string' || kind === 'enum') out[name] = raw;
    else if (kind === 'boolean') out[name] = raw === 'true';
    else if (kind === 'number' || kind === 'integer') {
      const n = Number(raw);
      if (Number.isNaN(n) || (kind === 'integer' && !Number.isInteger(n)))
        addError(errors, idOf(name), `'${raw.slice(0, 40)}' is not ${kind === 'integer' ? 'a whole number' : 'a number'}`);
      else out[name] = n;
    } else {
      try {
        out[name] = JSON.parse(raw) as unknown;
      } catch (err) {
        addError(errors, idOf(name), `not JSON: ${(err as Error).message}`);
      }
    }
  }
  return out;
}

function control(name: string, p: Prop, required: boolean, value: string | undefined, errors: FieldErrors): Html {
  const id = idOf(name);
  const label = typeof p.title === 'string' ? `${p.title} (${name})` : name;
  const hint = typeof p.description === 'string' ? p.description : undefined;
  const kind = kindOf(p);
  if (kind === 'enum') return select(id, label, p.enum as string[], value, errors, required);
  if (kind === 'boolean') return select(id, label, ['true', 'false'], value, errors, required);
  const fallback: unknown = p.default;
  const shown = value ?? (fallback === undefined ? '' : typeof fallback === 'string' ? fallback : JSON.stringify(fallback));
  return field(
    {
      id,
      label,
      value: shown,
      required,
      ...(hint ? { hint } : {}),
      ...(kind === 'json'
        ? { kind: 'textarea' as const, hint: `${hint ? `${hint} ` : ''}(JSON)` }
        : kind === 'number' || kind === 'integer'
          ? { kind: 'number' as const }
          : {}),
    },
    errors,
  );
}

function resultOf(outcome: CallOutcome): Html {
  const structured = outcome.structured && !outcome.structured.error ? JSON.stringify(outcome.structured, null, 2) : undefined;
  return html`<section aria-labelledby="result-h" id="result">
    <h2 id="result-h" class="${outcome.ok ? 'good' : 'bad'}">${outcome.ok ? 'Result' : `Failed${outcome.code ? ` (${outcome.code})` : ''}`}</h2>
    <pre class="result" role="status">${outcome.text}</pre>
    ${
      structured && structured !== outcome.text
        ? html`<h3>Structured content</h3>
            <pre class="result">${structured}</pre>`
        : ''
    }
  </section>`;
}

export function toolBody(entry: CatalogueEntry, posted: URLSearchParams | undefined, errors: FieldErrors, outcome: CallOutcome | undefined): Html {
  const required = requiredOf(entry);
  const props = properties(entry);
  const labels = Object.fromEntries(props.map(([n]) => [idOf(n), n]));
  return html`<p>${entry.description}</p>
    ${entry.server ? html`<p class="muted">Served by <a href="/mcps/${encodeURIComponent(entry.server)}">${entry.server}</a></p>` : ''}
    ${errorSummary(errors, labels)}
    <form method="post" action="/tools/${encodeURIComponent(entry.name)}">
      ${props.length ? props.map(([name, p]) => control(name, p, required.has(name), posted?.get(idOf(name)) ?? undefined, errors)) : html`<p class="muted">This tool takes no arguments.</p>`}
      <button type="submit">Run</button>
    </form>
    ${outcome ? resultOf(outcome) : ''}`;
}
