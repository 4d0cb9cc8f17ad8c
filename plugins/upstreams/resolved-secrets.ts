/**
 * The env and headers a connection actually uses: references resolved, and every value
 * that is a secret reported so logs and results can scrub it. Resolved at each connect,
 * so a rotated file or variable takes effect on the next (re)start.
 */
import type { McpServerDefinition } from '../../kernel/config/settings.js';
import { secretLookingName } from '../../kernel/secrets/redact.js';
import { isReference, resolveSecretMap } from '../../kernel/secrets/secret-value.js';

/** Headers that carry credentials whatever their value looks like. */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key)$|token|secret|key/i;

export function resolvedSecrets(
  def: Pick<McpServerDefinition, 'env' | 'headers'>,
  configPath: string,
  onSecret: (value: string) => void,
): { env: Record<string, string>; headers: Record<string, string> } {
  const ctx = { configPath, env: process.env, onSecret };
  const env = resolveSecretMap(def.env ?? {}, 'env', ctx);
  const headers = resolveSecretMap(def.headers ?? {}, 'headers', ctx);
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
