/**
 * What the embedder tests share: the upstreams (the search development set's replayed
 * catalogues of the servers a new user starts with) and the paraphrases that lexical ranking
 * misses and a real model finds.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort, ROOT, startNode, stdioServer, type Files } from './harness.js';

const REPLAY = join(ROOT, 'dist/bench/devset/replay-server.js');
export const SERVERS = ['memory', 'filesystem', 'everything', 'time', 'thinking', 'github'];

export function replayServers(): Files {
  const files: Files = {};
  for (const s of SERVERS) files[`mcpservers/${s}.yaml`] = stdioServer(s, REPLAY, [join(ROOT, 'bench/devset/catalog', `${s}.json`)]);
  return files;
}

/**
 * The same upstreams served over streamable HTTP by one process (test/fixtures/replay-http.ts),
 * for tests whose Switchboards (several, or one restarted) would each spawn all six: the
 * definitions to write, and the process to kill when done.
 */
export async function replayRemotes(): Promise<{ files: Files; proc: ChildProcess }> {
  const catalogues = SERVERS.map((s) => join(ROOT, 'bench/devset/catalog', `${s}.json`));
  const port = await freePort();
  const proc = await startNode([join(ROOT, 'dist/test/fixtures/replay-http.js'), String(port), ...catalogues], {}, /listening \d+/);
  const files: Files = {};
  for (const s of SERVERS) files[`mcpservers/${s}.yaml`] = `name: ${s}\ntype: streamable-http\nurl: http://127.0.0.1:${port}/mcp/${s}\n`;
  return { files, proc };
}

/**
 * Paraphrases and the tools they mean (no word of the query is a word of the tool's name), and
 * how deep a hybrid answer must have one: the WordNet-trained model is small, so "what hour"
 * reaches current_time only within ten.
 */
export const PARAPHRASES: { query: string; gold: string[]; depth: number; lexicalFinds?: true }[] = [
  // Lexical ranking finds it too since it reads input schemas: convert_time's `time`
  // parameter is "in 24-hour format".
  { query: 'what hour is it in Tokyo', gold: ['x_time_current_time', 'x_time_convert_time'], depth: 10, lexicalFinds: true },
  // Lexical ranking answers only days_in_month (the one tool with "day" in it).
  { query: 'which day is it', gold: ['x_time_current_time'], depth: 10 },
];
