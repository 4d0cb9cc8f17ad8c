export * from '@modelcontextprotocol/sdk/shared/protocol.js';
