/**
 * transport-stdio: one MCP client on standard input/output (aggregator.transport: stdio),
 * for clients that launch Switchboard as a subprocess. When the client closes stdin,
 * Switchboard shuts down gracefully.
 */
import { StdioServerTransport } from '#mcp-sdk/server/stdio.js';
import { definePlugin } from '../../kernel/index.js';

export default definePlugin({
  name: 'transport-stdio',
  description: 'MCP over standard input/output when aggregator.transport is stdio.',
  provides: [],
  setup({ kernel }) {
    let transport: StdioServerTransport | undefined;
    return {
      async start() {
        const settings = kernel.settings().aggregator;
        if (!settings.enabled || settings.transport !== 'stdio') return;
        transport = new StdioServerTransport();
        const session = await kernel.endpoint.connect(transport, 'stdio');
        session.server.onclose = ((previous) => () => {
          previous?.();
          kernel.requestShutdown('stdio client closed the connection');
        })(session.server.onclose);
        process.stdin.once('end', () => void transport?.close());
      },
      async stop() {
        await transport?.close();
      },
    };
  },
});
