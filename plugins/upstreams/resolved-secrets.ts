/**
 * The env and headers a connection actually uses: references resolved, and every value
 * that is a secret reported so logs and results can scrub it. Resolved at each connect,
 * so a rotated file or variable takes effect on the next (re)start (the old value stays
 * scrubbed until Switchboard restarts: harmless, it was a secret).
 *
 * Whose values count: a value the operator wrote in a definition file, and a value read
 * from the operator's environment or files through a reference (`${NAME}`, `{fromFile}`).
 * A literal value in a definition created through a core tool (it carries `registeredBy`)
 * is the caller's own string: scrubbing it would let any caller blank out ordinary text
 * (`X-Api-Key: "pong from"`) in every other session's results, so it is never added.
 */
import { isReference, resolveSecretMap, secretLookingName, type McpServerDefinition } from '../../kernel/index.js';
import { referenceEnvironment } from '../../lib/secrets/secrets-env.js';

/** Headers that carry credentials whatever their value looks like. */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key)$|token|secret|key/i;

/** True for a definition the operator wrote in a file (core tools stamp `registeredBy`). */
export function operatorWritten(def: Pick<McpServerDefinition, 'registeredBy'>): boolean {
  return def.registeredBy === undefined;
}

export function resolvedSecrets(
  def: Pick<McpServerDefinition, 'env' | 'headers' | 'registeredBy'>,
  configPath: string,
  onSecret: (value: string) => void,
): { env: Record<string, string>; headers: Record<string, string> } {
  // References are honoured in a tool-written definition only as the operator allows
  // (secrets.allowedEnv, secrets.allowedDirs): what they resolve to is the operator's.
  // `${NAME}`: Switchboard's environment, then the operator's secrets.env (read now: an edit applies on the next start).
  const ctx = { configPath, env: referenceEnvironment(configPath), onSecret };
  const env = resolveSecretMap(def.env, 'env', ctx);
  const headers = resolveSecretMap(def.headers, 'headers', ctx);
  if (!operatorWritten(def)) return { env, headers };
  for (const [name, value] of Object.entries(env)) {
    if (secretLookingName(name) && !isReference(def.env[name]!)) onSecret(value);
  }
  for (const [name, value] of Object.entries(headers)) {
    if (!CREDENTIAL_HEADER.test(name)) continue;
    onSecret(value);
    // `Bearer <token>`: the token alone may be echoed too.
    const credential = /^\S+\s+(\S.*)$/.exec(value)?.[1];
    if (credential) onSecret(credential);
  }
  return { env, headers };
}
