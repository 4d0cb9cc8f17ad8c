export * from '@modelcontextprotocol/sdk/client/streamableHttp.js';
