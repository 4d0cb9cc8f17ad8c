export * from '@modelcontextprotocol/sdk/client/sse.js';
