export * from '@modelcontextprotocol/sdk/server/stdio.js';
