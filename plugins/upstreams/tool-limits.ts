/**
 * What one upstream may put into the catalogue. A server offering 50,000 tools or names of
 * thousands of characters costs every client's discovery and the process's memory; its list
 * is refused whole (a partial list would hide which tools are missing) and the server's
 * status says which limit and which setting raises it.
 */
import type { Tool } from '#mcp-sdk/types.js';
import type { AggregatorLimits } from '../../kernel/index.js';

export type ToolListLimits = Pick<AggregatorLimits, 'maxToolsPerServer' | 'maxToolNameLength'>;

export class ToolListLimitError extends Error {
  readonly code = 'TOOL_LIST_LIMIT';
  constructor(message: string) {
    super(message);
    this.name = 'ToolListLimitError';
  }
}

/** Throws when `page`, after the `before` tools already read, breaks a limit. */
export function checkToolPage(before: number, page: readonly Tool[], limits: ToolListLimits): void {
  const total = before + page.length;
  if (total > limits.maxToolsPerServer) {
    throw new ToolListLimitError(
      `the server offers more than ${limits.maxToolsPerServer} tools (aggregator.limits.maxToolsPerServer); its tool list is refused`,
    );
  }
  for (const tool of page) {
    if (tool.name.length > limits.maxToolNameLength) {
      throw new ToolListLimitError(
        `the server offers a tool whose name is ${tool.name.length} characters long ('${tool.name.slice(0, 40)}...'), longer than ${limits.maxToolNameLength} (aggregator.limits.maxToolNameLength); its tool list is refused`,
      );
    }
  }
}
