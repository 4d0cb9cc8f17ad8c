/**
 * Form fields with their labels and their errors beside them: each error is tied to its
 * field (aria-describedby, aria-invalid), so a screen reader reads it with the field, and the
 * form's summary at the top (role=alert) says how many need attention and links to each.
 */
import { html, Html } from './html.js';

/** Errors by field id; `''` is the form's own (not about one field). */
export type FieldErrors = Map<string, string[]>;

export function addError(errors: FieldErrors, field: string, message: string): void {
  errors.set(field, [...(errors.get(field) ?? []), message]);
}

function errorOf(name: string, id: string, errors: FieldErrors): { attrs: Html; note: Html | string } {
  const list = errors.get(name);
  if (!list?.length) return { attrs: new Html(''), note: '' };
  return {
    attrs: html` aria-invalid="true" aria-describedby="${id}-error"`,
    note: html`<p class="field-error" id="${id}-error">${list.join('; ')}</p>`,
  };
}

export interface FieldSpec {
  /** The posted name, and the element id after the form's prefix (`stdio-name`: the add page has several forms). */
  id: string;
  label: string;
  value?: string;
  hint?: string;
  required?: boolean;
  kind?: 'text' | 'number' | 'url' | 'textarea' | 'readonly';
  rows?: number;
}

export function field(spec: FieldSpec, errors: FieldErrors, prefix = ''): Html {
  const name = spec.id;
  const f = { ...spec, id: prefix + spec.id };
  const e = errorOf(name, f.id, errors);
  const hintId = f.hint ? `${f.id}-hint` : '';
  const hint = f.hint ? html`<p class="hint" id="${hintId}">${f.hint}</p>` : '';
  const described = hintId && !errors.get(name)?.length ? html` aria-describedby="${hintId}"` : new Html('');
  const req = f.required ? new Html(' required') : new Html('');
  const mark = f.required ? html` <span class="muted">(required)</span>` : '';
  const control =
    f.kind === 'textarea'
      ? html`<textarea id="${f.id}" name="${name}" rows="${f.rows ?? 4}" ${req}${e.attrs}${described}>${f.value ?? ''}</textarea>`
      : f.kind === 'readonly'
        ? html`<input id="${f.id}" name="${name}" value="${f.value ?? ''}" readonly${described} />`
        : html`<input
            id="${f.id}"
            name="${name}"
            type="${f.kind ?? 'text'}"
            value="${f.value ?? ''}"
            ${req}${e.attrs}${described}
            ${new Html(f.kind === 'number' ? 'step="any"' : '')}
          />`;
  return html`<div class="field"><label for="${f.id}">${f.label}${mark}</label>${hint}${control}${e.note}</div>`;
}

export function checkbox(name: string, label: string, checked: boolean, errors: FieldErrors, prefix = ''): Html {
  const id = prefix + name;
  const e = errorOf(name, id, errors);
  return html`<div class="field check">
    <input type="checkbox" id="${id}" name="${name}" value="on" ${new Html(checked ? 'checked' : '')}${e.attrs} /><label for="${id}">${label}</label>${e.note}
  </div>`;
}

export function select(
  name: string,
  label: string,
  options: readonly string[],
  value: string | undefined,
  errors: FieldErrors,
  required = false,
  prefix = '',
): Html {
  const id = prefix + name;
  const e = errorOf(name, id, errors);
  return html`<div class="field">
    <label for="${id}">${label}${required ? html` <span class="muted">(required)</span>` : ''}</label>
    <select id="${id}" name="${name}" ${e.attrs}>
      ${required ? '' : html`<option value="">(not set)</option>`} ${options.map((o) => html`<option ${new Html(o === value ? 'selected' : '')}>${o}</option>`)}
    </select>
    ${e.note}
  </div>`;
}

/** The summary above a form that was refused: the form's own errors, and a link to each field with one. */
export function errorSummary(errors: FieldErrors, labels: Readonly<Record<string, string>>, prefix = ''): Html | string {
  if (errors.size === 0) return '';
  const own = errors.get('') ?? [];
  const fields = [...errors.keys()].filter((k) => k !== '');
  return html`<div class="error-summary" role="alert" tabindex="-1" id="errors">
    <h2>Not saved: ${errors.size === 1 && own.length ? 'see below' : `${fields.length + (own.length ? 1 : 0)} problem(s)`}</h2>
    <ul>
      ${own.map((m) => html`<li>${m}</li>`)} ${fields.map((f) => html`<li><a href="#${prefix}${f}">${labels[f] ?? f}</a>: ${errors.get(f)!.join('; ')}</li>`)}
    </ul>
  </div>`;
}
