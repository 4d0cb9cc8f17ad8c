/**
 * Temporary: kernel/kernel-api.ts still names the endpoint by its old path and is being
 * rewritten by the lead engineer (issue 23). Once it imports './mcp/server/endpoint.js',
 * delete this file.
 */
export type { Endpoint } from './server/endpoint.js';
