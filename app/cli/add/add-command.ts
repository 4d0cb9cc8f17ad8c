/**
 * `switchboard add NAME [--env K=V]... -- COMMAND [ARGS...]` and
 * `switchboard add NAME --url URL [--transport sse] [--header K=V]...`: one server, as
 * `claude mcp add` does it, through the same checks and writes as import
 * (definitions/write-definition.ts). A running Switchboard of the directory loads the file
 * as it appears; the message says which one, from its run file.
 */
import { readRunFile } from '../run-file.js';
import { movedNote, startWriting, writeDefinition } from '../definitions/write-definition.js';

export interface AddOptions {
  name: string;
  configPath: string;
  commandLine?: string[];
  url?: string;
  type?: 'streamable-http' | 'sse';
  headers: [string, string][];
  env: [string, string][];
  force: boolean;
  out: (line: string) => void;
}

function definitionOf(o: AddOptions): Record<string, unknown> {
  const def: Record<string, unknown> = { name: o.name };
  if (o.commandLine) {
    const [command, ...args] = o.commandLine;
    Object.assign(def, { type: 'stdio', command, ...(args.length ? { args } : {}) });
    if (o.env.length) def.env = Object.fromEntries(o.env);
    // What an IDE does with a server it is given: start it.
    def.autoStart = true;
  } else {
    Object.assign(def, { type: o.type ?? 'streamable-http', url: o.url });
    if (o.headers.length) def.headers = Object.fromEntries(o.headers);
  }
  return def;
}

/** Returns the exit status: 0 when the file was written, 1 when it was not (and why is said). */
export async function addServer(o: AddOptions): Promise<number> {
  const w = await startWriting({ configPath: o.configPath, force: o.force, dryRun: false, command: 'switchboard add' });
  const r = await writeDefinition(w, o.name, definitionOf(o));
  if (r.status === 'invalid' || r.status === 'taken') {
    o.out(`switchboard add: ${o.name} was not added: ${r.reason}`);
    return 1;
  }
  o.out(`wrote ${r.file} (${r.what})${movedNote(w, r.moved, false)}`);
  const run = readRunFile(o.configPath);
  o.out(
    run.state === 'live'
      ? `the Switchboard at ${run.record.url} loads it now: 'switchboard list servers' shows it`
      : `'switchboard serve --config-path ${o.configPath}' starts it (no Switchboard of this directory is running)`,
  );
  return 0;
}
