/**
 * code-mode (opt-in: `plugins: {code-mode: true}`): the meta-tool run_code, which runs an
 * agent's JavaScript in a QuickJS sandbox that calls catalogue tools, so twenty calls are one
 * round trip and only the answer comes back into the model's context (docs/code-mode.md).
 * It is the one meta-tool beyond the interface's thirteen, and only when switched on.
 */
import { definePlugin } from '../../kernel/index.js';
import { optionsSchema, type CodeModeOptions } from './options.js';
import { RunCode } from './run-code.js';
import { signatureOf } from './signature.js';
import { WorkerPool } from './worker-pool.js';

export default definePlugin<CodeModeOptions>({
  name: 'code-mode',
  description: 'run_code: an async JavaScript function body run in a QuickJS (WebAssembly) sandbox, calling tools through the invoker as the caller.',
  provides: ['tool-signatures'],
  // tool-search (meta-tools) answers tools.search; events records each execution; executions (workflows) keeps its record.
  uses: ['tool-search', 'events', 'executions'],
  optionsSchema: optionsSchema(),
  setup({ kernel, options, log }) {
    const pool = new WorkerPool(options.workers, log);
    kernel.services.provide('tool-signatures', { typescript: signatureOf });
    kernel.endpoint.addMetaTool(new RunCode(kernel, pool, () => options).definition());
    return {
      start: () => pool.warm(),
      stop: () => pool.close(),
    };
  },
});
