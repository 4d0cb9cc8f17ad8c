export * from '@modelcontextprotocol/sdk/validation/ajv';
