/** Running run_code as a client does, and reading what it answers (code-mode tests). */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorCode, metaRaw, text } from './harness.js';

/** One entry of run_code's call summary. */
export interface CallSummary {
  op: string;
  name: string;
  at: number;
  ms: number;
  ok: boolean;
  error?: string;
}

export interface Ran {
  execution_id: string;
  result: unknown;
  logs: string[];
  calls: CallSummary[];
}

export function runCode(client: Client, code: string, extra: Record<string, unknown> = {}): Promise<CallToolResult> {
  return metaRaw(client, 'run_code', { code, ...extra });
}

/** The result of a run that succeeded (fails the test otherwise). */
export function ran(r: CallToolResult): Ran {
  expect(r.isError, text(r)).to.not.equal(true);
  return r.structuredContent as unknown as Ran;
}

/** The limit a run ended on (fails the test unless it is CODE_LIMIT). */
export function limitOf(r: CallToolResult): string | undefined {
  expect(errorCode(r), text(r)).to.equal('CODE_LIMIT');
  return (r.structuredContent as { error: { details: { limit: string } } }).error.details.limit;
}

/** The call summary of a run that failed. */
export function failedCalls(r: CallToolResult): CallSummary[] {
  return (r.structuredContent as { error: { details: { calls: CallSummary[] } } }).error.details.calls;
}
