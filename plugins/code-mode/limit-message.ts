/** The words of a CODE_LIMIT error: what the script did, and the option that bounds it. */
import type { LimitName } from './messages.js';

const LIMIT_WORDS: Record<LimitName, string> = {
  wallMs: 'ran longer than its wall time',
  cpuMs: 'spent more CPU time than allowed',
  memoryBytes: 'used more memory than allowed',
  stackBytes: 'recursed deeper than its stack allows',
  maxCalls: 'made more tool calls than allowed',
  maxConcurrentCalls: 'had more tool calls in flight than allowed',
  maxResultBytes: 'returned a value larger than allowed',
  maxLogBytes: 'logged more than allowed',
  maxScriptsPerCaller: 'is one script too many: its caller already runs as many as allowed',
};

export function limitMessage(limit: LimitName, budget: number): string {
  return `the script ${LIMIT_WORDS[limit]} (plugins.code-mode.options.${limit}: ${budget})`;
}
