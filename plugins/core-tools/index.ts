/** core-tools: Switchboard's own core_service_*, core_mcpserver_* and core_config_* tools. */
import { definePlugin } from '../../kernel/plugin.js';
import { configTools } from './config-tools.js';
import { mcpServerTools } from './mcpserver-tools.js';
import { serviceTools } from './service-tools.js';

export default definePlugin({
  name: 'core-tools',
  description: 'Core tools for services, MCP server definitions and configuration.',
  setup({ kernel }) {
    let prefix: string | undefined;
    // Names carry the ServicePrefix, so the set is re-registered when it changes.
    kernel.hooks.onConfigLoad.tap('core-tools', (next) => {
      const p = next.settings.aggregator.servicePrefix;
      if (p === prefix) return;
      prefix = p;
      kernel.catalogue.replaceSource('core', [...serviceTools(kernel, p), ...mcpServerTools(kernel, p), ...configTools(kernel, p)]);
    });
  },
});
