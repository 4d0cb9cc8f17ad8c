export * from '@modelcontextprotocol/sdk/client/index.js';
