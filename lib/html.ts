/**
 * HTML by tagged template: every interpolated value is escaped unless it is already Html
 * (another template's output), so nothing a server, a client or a tool names can become
 * markup. Arrays of Html are joined.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escape(value: string | number | boolean | null | undefined): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  // A page interpolates text, numbers and flags; anything else shows as its JSON, never as [object Object].
  return escape(typeof value === 'object' && value !== null ? JSON.stringify(value) : (value as string | number | boolean | null | undefined));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

const PAGE_STYLE = `body { font: 16px/1.5 system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; color: #1c1c1c; }`;

/**
 * A short standalone page (a sign-in's outcome, a consent step): one narrow column of text.
 * `style` adds rules for the page's own classes.
 */
export function shortPage(title: string, body: Html, style = ''): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>${title} · Switchboard</title>
        <style>
          ${new Html(PAGE_STYLE + style)}
        </style>
      </head>
      <body>
        ${body}
      </body>
    </html>`;
}
