/** core-tools: Switchboard's own core_service_*, core_mcpserver_* and core_config_* tools. */
import { definePlugin, publishCoreTools } from '../../kernel/index.js';
import { allowedCommandProblems, unpinnedCodeRunners, unpinnedWarning } from './allowed-commands.js';
import { configTools } from './config-tools.js';
import { mcpServerTools } from './mcpserver-tools.js';
import { serviceTools } from './service-tools.js';

export default definePlugin({
  name: 'core-tools',
  description: 'Core tools for services, MCP server definitions and configuration.',
  needsWhenRunning: ['store', 'upstreams'],
  setup({ kernel, log }) {
    kernel.config.addSettingsCheck(allowedCommandProblems);
    // `switchboard check` says it too (app/cli/check.ts); here it reaches whoever reads the log.
    for (const executable of unpinnedCodeRunners(kernel.settings())) log.warn(unpinnedWarning(executable));
    publishCoreTools(kernel, 'core', (p) => [...serviceTools(kernel, p), ...mcpServerTools(kernel, p), ...configTools(kernel, p)]);
  },
});
