export * from '@modelcontextprotocol/sdk/validation/types.js';
