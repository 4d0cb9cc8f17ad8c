#!/usr/bin/env node
// Regenerates plugins/meta-tools/ranking/english-words.txt, the English words filter_tools'
// spelling correction leaves alone (plugins/meta-tools/ranking/english.ts), from WordNet 3.0
// as Debian's `wordnet-base` package installs it (`apt-get install wordnet-base`; another
// directory as the first argument). Run only when the list should change: the output is
// committed, so neither a build nor a running Switchboard needs WordNet.
//
// Every one-word lemma of five letters or more (shorter words are never corrected), and the
// irregular forms WordNet lists beside them ("wrote", "children"): regular inflections
// ("players", "stopped") are undone at run time by WordNet's own detachment rules.
// One lower-case ASCII word a line, sorted.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = process.argv[2] ?? '/usr/share/wordnet';
const target = join(root, 'plugins/meta-tools/ranking/english-words.txt');
const WORD = /^[a-z]{5,}$/;

const words = new Set();
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  for (const line of readFileSync(join(source, `index.${pos}`), 'latin1').split('\n')) {
    if (line.startsWith('  ')) continue;
    const lemma = line.split(' ')[0];
    if (WORD.test(lemma)) words.add(lemma);
  }
  for (const line of readFileSync(join(source, `${pos}.exc`), 'latin1').split('\n')) {
    const form = line.split(' ')[0];
    if (WORD.test(form)) words.add(form);
  }
}

const temp = `${target}.tmp`;
writeFileSync(temp, `${[...words].sort().join('\n')}\n`);
renameSync(temp, target);
process.stdout.write(`${words.size} words written to ${target}\n`);
