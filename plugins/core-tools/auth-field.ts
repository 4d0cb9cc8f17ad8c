/**
 * The `auth` argument of core_mcpserver_create, _update and _validate: the definition
 * schema's own block, so describe_tool shows every property, its rules and defaults exactly
 * as files are checked (the two cannot drift).
 */
import { loadSchema } from '../../kernel/index.js';

const properties = loadSchema('mcpserver').properties as Record<string, Record<string, unknown>>;

export const AUTH_FIELD: Record<string, unknown> = {
  ...properties.auth,
  description: `${String(properties.auth?.description)} On update the block given replaces the stored one whole.`,
};
