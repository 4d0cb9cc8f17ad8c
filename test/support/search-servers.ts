/**
 * The real MCP servers whose tools the search query set (bench/search-queries.json) is written
 * against: server-everything, server-memory, server-sequential-thinking and server-filesystem,
 * each over stdio, as `startSwitchboard` files. Shared by the search bench and its e2e test so
 * both rank the very same catalogue.
 */
import { join } from 'node:path';
import { EVERYTHING, MEMORY, referenceServer, stdioServer, type Files } from './harness.js';

export const SEQUENTIAL_THINKING = referenceServer('server-sequential-thinking');
export const FILESYSTEM = referenceServer('server-filesystem');

/** `allowedDir` is the one directory server-filesystem may touch (it refuses to start without one). */
export function searchServers(allowedDir: string): Files {
  return {
    'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING, ['stdio']),
    'mcpservers/memory.yaml': stdioServer('memory', MEMORY, [], `env:\n  MEMORY_FILE_PATH: ${JSON.stringify(join(allowedDir, 'memory.jsonl'))}\n`),
    'mcpservers/thinking.yaml': stdioServer('thinking', SEQUENTIAL_THINKING, [], 'env:\n  DISABLE_THOUGHT_LOGGING: "true"\n'),
    'mcpservers/filesystem.yaml': stdioServer('filesystem', FILESYSTEM, [allowedDir]),
  };
}
