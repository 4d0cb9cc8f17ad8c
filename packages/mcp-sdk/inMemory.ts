export * from '@modelcontextprotocol/sdk/inMemory.js';
