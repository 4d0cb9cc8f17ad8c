export * from '@modelcontextprotocol/sdk/server/zod-compat.js';
