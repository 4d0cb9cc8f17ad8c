export * from '@modelcontextprotocol/sdk/types.js';
