export * from '@modelcontextprotocol/sdk/server/index.js';
