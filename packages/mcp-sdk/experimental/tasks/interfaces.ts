export * from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
