/**
 * A client that read a definition saw its secrets as `<redacted>`; when it sends the same
 * map back on update, those placeholders mean "keep what is stored", so a round trip
 * through core_mcpserver_get never turns a token into the literal text `<redacted>`.
 */
import { REDACTED, ValidationFailedError, type JsonObject, type McpServerDefinition, type SecretValue } from '../../kernel/index.js';

function keepMap(field: 'env' | 'headers', stored: Record<string, SecretValue>, given: unknown, problems: string[]): unknown {
  if (!given || typeof given !== 'object' || Array.isArray(given)) return given;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) {
    if (value !== REDACTED) out[key] = value;
    else if (Object.hasOwn(stored, key)) out[key] = stored[key];
    else problems.push(`${field}.${key}: '${REDACTED}' keeps a stored value, but '${key}' has none; give the real value`);
  }
  return out;
}

/** The update's arguments with `<redacted>` placeholders replaced by the stored values. */
export function keepRedactedSecrets(stored: McpServerDefinition, args: JsonObject): JsonObject {
  const problems: string[] = [];
  const out: JsonObject = { ...args };
  if (args.env !== undefined) out.env = keepMap('env', stored.env, args.env, problems);
  if (args.headers !== undefined) out.headers = keepMap('headers', stored.headers, args.headers, problems);
  if (problems.length) throw new ValidationFailedError('validation failed', problems, { name: stored.name });
  return out;
}
