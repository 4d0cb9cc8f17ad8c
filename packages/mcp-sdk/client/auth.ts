export * from '@modelcontextprotocol/sdk/client/auth.js';
