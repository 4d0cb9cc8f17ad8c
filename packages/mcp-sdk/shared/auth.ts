export * from '@modelcontextprotocol/sdk/shared/auth.js';
