/**
 * `node dist/bench/search-tools.js`: prints the catalogue the search query set is written
 * against, read from the real servers through a real Switchboard, so the set's expected
 * names come from the servers and not from memory.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchSearch } from './search.bench.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
await benchSearch(root, { list: true });
