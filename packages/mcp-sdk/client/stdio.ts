export * from '@modelcontextprotocol/sdk/client/stdio.js';
