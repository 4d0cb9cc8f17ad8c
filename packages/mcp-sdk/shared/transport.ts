export * from '@modelcontextprotocol/sdk/shared/transport.js';
