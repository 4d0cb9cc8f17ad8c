/** meta-tools: the 13 tools an MCP client sees; everything else is reached through call_tool. */
import { definePlugin } from '../../kernel/index.js';
import { contentTools } from './content.js';
import { discoveryTools } from './discovery.js';
import { executionTools } from './execution.js';
import { warmSearchIndex } from './index-warmer.js';
import { announceCatalogueChanges } from './list-changed.js';
import { nativeContent } from './native-content.js';
import { searchRanker } from './semantic.js';
import { serverTools } from './servers.js';

export default definePlugin({
  name: 'meta-tools',
  description: 'list_tools, filter_tools, describe_tool, call_tool and the other meta-tools; resources, prompts and completions as MCP offers them.',
  // tool-search: filter_tools' ranking, for plugins that search on a caller's behalf (code-mode).
  provides: ['tool-search'],
  // embedder: set up first when enabled, so filter_tools ranks with it (semantic.ts).
  uses: ['upstreams', 'embedder'],
  setup({ kernel, log }) {
    const search = searchRanker(kernel, log);
    for (const def of [...discoveryTools(kernel, search.ranker), ...executionTools(kernel), ...contentTools(kernel), ...serverTools(kernel)]) {
      kernel.endpoint.addMetaTool(def);
    }
    kernel.services.provide('tool-search', { rank: async (query, candidates) => (await search.ranker.rank(query, candidates)).scored });
    nativeContent(kernel);
    announceCatalogueChanges(kernel);
    const warmer = warmSearchIndex(kernel);
    return { start: () => warmer.start(), stop: async () => search.stop() };
  },
});
