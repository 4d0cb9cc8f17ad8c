export * from '@modelcontextprotocol/sdk/server/sse.js';
