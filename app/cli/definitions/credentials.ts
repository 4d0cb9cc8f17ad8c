/**
 * Literal credentials in a definition that `import` or `add` is about to write: found by the
 * name they are given (`*_TOKEN`, `*_KEY`, `Authorization`, ...) or by how the value looks
 * (`ghp_...`, `sk-...`, `Bearer ...`, a long random string), and turned into `${NAME}`
 * references whose values go to secrets.env (lib/secrets/secrets-env.ts). The YAML then
 * holds no secret: it can be shared, committed or shown, and the secret file is one place.
 */
import { isFileReference, isReference, secretLookingName, type SecretValue } from '../../../kernel/index.js';

/** Prefixes of tokens that well-known services issue. */
const TOKEN_PREFIX = /^(ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|sk-|sk_live_|sk_test_|rk_live_|xox[abposr]-|AKIA|AIza|hf_|npm_|pypi-|dop_v1_|lin_api_)/;
/** An auth scheme and its credential, as in an Authorization header. */
const SCHEME = /^(Bearer|Basic|Token|Bot)\s+(\S.*)$/i;
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key)$|token|secret|key/i;

/** Bits per character of the value's own character distribution. */
function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits;
}

/**
 * A long string of token characters that mixes upper case, lower case and digits (base64,
 * base62), or 32+ hexadecimal digits (hex keys, UUIDs), spread evenly: what an API key looks
 * like. Paths, URLs, package and file names (one case, or no digits) are left alone.
 */
function randomLooking(value: string): boolean {
  if (value.length < 24 || !/^[A-Za-z0-9+/=_\-.]+$/.test(value) || value.startsWith('/')) return false;
  const mixed = /[A-Z]/.test(value) && /[a-z]/.test(value) && /\d/.test(value);
  const hex = value.length >= 32 && /^[0-9a-f-]+$/i.test(value) && /\d/.test(value) && /[a-f]/i.test(value);
  return (mixed && entropy(value) >= 3.5) || (hex && entropy(value) >= 3);
}

export function credentialName(kind: 'env' | 'headers', name: string): boolean {
  return kind === 'headers' ? CREDENTIAL_HEADER.test(name) : secretLookingName(name) || /(^|_)KEY$/i.test(name);
}

/** Whether a literal value (no reference in it) is a credential by its name or its look. */
export function looksLikeCredential(kind: 'env' | 'headers', name: string, value: SecretValue): boolean {
  if (isFileReference(value) || isReference(value) || value.trim() === '') return false;
  if (credentialName(kind, name)) return true;
  const credential = SCHEME.exec(value)?.[2] ?? value;
  return SCHEME.test(value) || TOKEN_PREFIX.test(credential) || randomLooking(credential);
}

/** `GITHUB`, `MY_SERVER`: a server or header name as an environment variable's. */
function envWord(text: string): string {
  return text
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
}

export interface MovedCredential {
  /** `env.GITHUB_TOKEN`, `headers.Authorization`. */
  field: string;
  variable: string;
  value: string;
}

/**
 * The variable names a credential may take, best first: an env entry's own name (what the
 * server's documentation calls it), else one made of the server's name.
 */
function candidates(server: string, kind: 'env' | 'headers', name: string): string[] {
  const own = kind === 'env' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? [name] : [];
  const made = kind === 'headers' && /^(proxy-)?authorization$/i.test(name) ? `${envWord(server)}_TOKEN` : `${envWord(server)}_${envWord(name)}`;
  const base = /^[A-Za-z_]/.test(made) ? made : `MCP_${made}`;
  return [...own, base, ...[2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${base}_${n}`)];
}

/**
 * The definition with its literal credentials replaced by `${NAME}` references, and what to
 * add to secrets.env. A name is taken when it is free or already holds the same value, in
 * secrets.env (`known`) and in this environment (which wins over secrets.env when serve runs
 * in it). `known` gains the names chosen, so one import run does not give a name twice.
 */
export function moveCredentials(
  server: string,
  def: Record<string, unknown>,
  known: Map<string, string>,
  env: NodeJS.ProcessEnv,
): { definition: Record<string, unknown>; moved: MovedCredential[] } {
  const moved: MovedCredential[] = [];
  const out = { ...def };
  for (const kind of ['env', 'headers'] as const) {
    const map = def[kind] as Record<string, SecretValue> | undefined;
    if (!map) continue;
    const next: Record<string, SecretValue> = {};
    for (const [name, value] of Object.entries(map)) {
      if (!looksLikeCredential(kind, name, value)) {
        next[name] = value;
        continue;
      }
      const literal = value as string;
      // The scheme stays in the YAML (`Bearer ${GITHUB_TOKEN}`): it is not secret, and the value shows how it is sent.
      const scheme = SCHEME.exec(literal);
      const secret = scheme ? scheme[2]! : literal;
      const free = (v: string) => (known.get(v) ?? secret) === secret && (env[v] ?? secret) === secret;
      const variable = candidates(server, kind, name).find(free);
      if (!variable)
        throw new Error(`${kind}.${name} looks like a credential and every name for it is taken in secrets.env; write it there and put \${NAME} here`);
      known.set(variable, secret);
      moved.push({ field: `${kind}.${name}`, variable, value: secret });
      next[name] = `${scheme ? `${scheme[1]!} ` : ''}\${${variable}}`;
    }
    out[kind] = next;
  }
  return { definition: out, moved };
}
