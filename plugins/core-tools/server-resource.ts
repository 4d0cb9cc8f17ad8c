/** An MCP server definition as the authorizer sees it: name, type, owner, the executable it runs. */
import type { McpServerDefinition, Resource } from '../../kernel/index.js';
import { executableOf } from './runtime-commands.js';

/** A server definition as the authorizer sees it. */
export function serverResource(def: Pick<McpServerDefinition, 'name' | 'type' | 'registeredBy' | 'command' | 'args'>): Resource {
  const command = def.type === 'stdio' ? executableOf(def) : undefined;
  return {
    type: 'server',
    name: def.name,
    serverType: def.type,
    ...(def.registeredBy !== undefined ? { owner: def.registeredBy } : {}),
    ...(command !== undefined ? { command } : {}),
  };
}
