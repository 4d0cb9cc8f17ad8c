/**
 * call-journal: an example of a third-party Switchboard plugin. It appends one JSON line per
 * finished tool call to a file (the `onCallEnd` hook: the real tool name, its server, the
 * outcome and how long it took) and offers a tool, `journal_recent`, that reads the last lines.
 *
 * It imports only Switchboard's public API, `switchboard/kernel`, as any plugin must.
 * Enable it in config.yaml (the module path is relative to the config directory):
 *
 *   plugins:
 *     call-journal:
 *       module: ./node_modules/switchboard-call-journal/index.js   # or a path to this file
 *       options: { path: calls.jsonl }
 */
import { appendFile, readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { ANNOTATIONS, coreTool, definePlugin, ValidationFailedError } from 'switchboard/kernel';

/** At most this many lines are returned at once: a tool result is read by a model. */
const MAX_RECENT = 100;

export default definePlugin({
  name: 'call-journal',
  description: 'Appends one JSON line per finished tool call to a file; journal_recent reads the last lines.',
  // It provides no service and reaches none: it only taps a hook and publishes a tool.
  provides: [],
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { path: { type: 'string', minLength: 1, default: 'calls.jsonl' } },
  },
  setup({ kernel, options, log }) {
    const file = isAbsolute(options.path) ? options.path : join(kernel.config.configPath, options.path);
    // Lines are appended one after another, never interleaved; a failed write is logged, not thrown
    // (onCallEnd taps must not throw: they run at the end of every call).
    let writing = Promise.resolve();
    kernel.hooks.onCallEnd.tap('call-journal', (end) => {
      if (end.tool === 'journal_recent') return;
      const line = JSON.stringify({ tool: end.tool ?? null, server: end.server ?? null, outcome: end.outcome, ms: Math.round(end.durationMs) });
      writing = writing.then(() => appendFile(file, `${line}\n`, { mode: 0o600 })).catch((err) => log.warn(`cannot append to ${file}: ${err.message}`));
    });

    kernel.catalogue.replaceSource('call-journal', [
      coreTool('', {
        name: 'journal_recent',
        description: `The last calls the journal recorded, newest last (at most ${MAX_RECENT}).`,
        annotations: ANNOTATIONS.read,
        properties: { count: { type: 'integer', minimum: 1, maximum: MAX_RECENT, default: 10 } },
        async run(args) {
          const count = args.count ?? 10;
          if (!Number.isInteger(count) || count < 1 || count > MAX_RECENT) throw new ValidationFailedError(`count must be an integer from 1 to ${MAX_RECENT}`);
          await writing;
          const text = await readFile(file, 'utf8').catch((err) => (err.code === 'ENOENT' ? '' : Promise.reject(err)));
          const calls = text
            .split('\n')
            .filter(Boolean)
            .slice(-count)
            .map((l) => JSON.parse(l));
          return { calls, total: calls.length };
        },
      }),
    ]);
    return { stop: () => writing };
  },
});
