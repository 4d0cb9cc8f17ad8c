export * from '@modelcontextprotocol/sdk/shared/stdio.js';
