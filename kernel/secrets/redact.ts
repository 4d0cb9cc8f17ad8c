/**
 * What leaves Switchboard in a tool result (core_mcpserver_*, core_config_get, service
 * status) carries no secret: `env` keeps its names and `headers` their names, but a value
 * written in the definition shows as `<redacted>`. A reference (`${NAME}`, `{fromFile}`)
 * holds no secret itself and shows as written, so an operator can see where a value comes from.
 */
import { isFileReference, REFERENCE, type SecretValue } from './secret-value.js';

export const REDACTED = '<redacted>';

/** What may stand beside references in a shown value: an HTTP auth scheme, nothing else. */
const SCHEME_ONLY = /^(?:(?:Bearer|Basic|Token|Bot|DPoP)\s*)?$/i;

/** Keys of settings whose string values are secrets wherever they appear. */
const SECRET_KEY = /secret|token|password|passwd|credential|api[-_]?key|private[-_]?key|^key$/i;

export function shownSecretValue(value: SecretValue): SecretValue {
  if (isFileReference(value)) {
    if (value.prefix === undefined) return { fromFile: value.fromFile };
    // A prefix is the operator's literal: shown when it is an auth scheme, like the text beside a `${NAME}`.
    return { fromFile: value.fromFile, prefix: SCHEME_ONLY.test(value.prefix.trim()) ? value.prefix : REDACTED };
  }
  if (!value.includes('${')) return REDACTED;
  let references = 0;
  const rest = value.replace(REFERENCE, (_whole, name: string | undefined) => {
    if (name) references++;
    return '';
  });
  return references > 0 && SCHEME_ONLY.test(rest.trim()) ? value : REDACTED;
}

export function redactSecretMap(map: Readonly<Record<string, SecretValue>> | undefined): Record<string, SecretValue> | undefined {
  if (!map) return map;
  const out: Record<string, SecretValue> = {};
  for (const [k, v] of Object.entries(map)) out[k] = shownSecretValue(v);
  return out;
}

/** A URL without its password and without the values of query parameters that look secret. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  let changed = false;
  if (parsed.password) {
    parsed.password = 'redacted';
    changed = true;
  }
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_KEY.test(key) || /^(sig|signature|auth|access_token|code)$/i.test(key)) {
      parsed.searchParams.set(key, 'redacted');
      changed = true;
    }
  }
  return changed ? parsed.toString() : url;
}

export interface WithSecrets {
  env?: Record<string, SecretValue>;
  headers?: Record<string, SecretValue>;
  url?: string;
}

/** An MCP server definition as a tool result may show it. */
export function redactDefinition<T extends WithSecrets>(def: T): T {
  const out = { ...def };
  if (def.env) out.env = redactSecretMap(def.env)!;
  if (def.headers) out.headers = redactSecretMap(def.headers)!;
  if (def.url) out.url = redactUrl(def.url);
  return out;
}

/** Settings as core_config_get shows them: every string under a secret-looking key redacted. */
export function redactSettings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSettings);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && SECRET_KEY.test(k)) out[k] = v ? REDACTED : v;
    else if (k === 'headers' || k === 'env') out[k] = v && typeof v === 'object' ? redactSecretMap(v as Record<string, SecretValue>) : v;
    else out[k] = redactSettings(v);
  }
  return out;
}

/** A literal env value is treated as a secret when its name says so (API_KEY, GITHUB_TOKEN, ...). */
export function secretLookingName(name: string): boolean {
  return SECRET_KEY.test(name) || /(^|_)(PAT|AUTH|PASS)(_|$)/i.test(name);
}
