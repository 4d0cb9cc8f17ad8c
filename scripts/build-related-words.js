#!/usr/bin/env node
// Regenerates plugins/meta-tools/ranking/related-words.txt, the table of related words that
// filter_tools' lexical ranking expands a query with, from WordNet 3.0 as Debian's
// `wordnet-base` package installs it (`apt-get install wordnet-base`; another directory as the
// first argument). Run only when the table should change: the output is committed, so neither
// a build nor a running Switchboard needs WordNet.
//
// Kept small on purpose (a query word with thirty loose "synonyms" is noise, and the table is
// held in memory): a headword is a common word, one with at least one sense tagged in WordNet's
// sense-tagged corpus; only its most frequent senses (at most MAX_SENSES, tagged ones) count;
// and its related words are the other one-word lemmas of those senses (synonyms) plus the
// words WordNet links to it as derivationally related ("remember" -> "memory").
// Line format: `headword related related ...`, sorted, lower-case ASCII words only.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = process.argv[2] ?? '/usr/share/wordnet';
const target = join(root, 'plugins/meta-tools/ranking/related-words.txt');
const MAX_SENSES = 2;
const MAX_RELATED = 8;
const WORD = /^[a-z]{3,}$/;
const POS = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

/** data.<pos>: synset offset -> its words and pointers. */
function loadData(pos) {
  const synsets = new Map();
  for (const line of readFileSync(join(source, `data.${pos}`), 'latin1').split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    const f = line.split(' | ')[0].split(' ');
    const count = parseInt(f[3], 16);
    const words = [];
    for (let i = 0; i < count; i++) words.push(f[4 + 2 * i].toLowerCase().replace(/\(.*\)$/, ''));
    let k = 4 + 2 * count;
    const pointers = [];
    const pcount = Number(f[k]);
    for (let i = 0; i < pcount; i++, k += 4) {
      const [symbol, offset, p, st] = f.slice(k + 1, k + 5);
      pointers.push({ symbol, offset, pos: POS[p], source: parseInt(st.slice(0, 2), 16), target: parseInt(st.slice(2), 16) });
    }
    synsets.set(f[0], { words, pointers });
  }
  return synsets;
}

const data = { noun: loadData('noun'), verb: loadData('verb'), adj: loadData('adj'), adv: loadData('adv') };
const related = new Map();
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  for (const line of readFileSync(join(source, `index.${pos}`), 'latin1').split('\n')) {
    if (line === '' || line.startsWith('  ')) continue;
    const f = line.split(' ');
    const lemma = f[0];
    if (!WORD.test(lemma)) continue;
    const senses = Number(f[2]);
    const tagged = Number(f[f.length - senses - 2]);
    if (!(tagged > 0)) continue;
    const offsets = f.slice(f.length - senses - 1, f.length - 1).slice(0, Math.min(tagged, MAX_SENSES));
    const out = related.get(lemma) ?? [];
    for (const offset of offsets) {
      const synset = data[pos].get(offset);
      if (!synset) continue;
      const self = synset.words.indexOf(lemma) + 1;
      for (const w of synset.words) if (w !== lemma && WORD.test(w) && !out.includes(w)) out.push(w);
      for (const p of synset.pointers) {
        // Derivation pointers are lexical: only those leaving this very word.
        if (p.symbol !== '+' || p.source !== self) continue;
        const w = data[p.pos].get(p.offset)?.words[p.target - 1];
        if (w && w !== lemma && WORD.test(w) && !out.includes(w)) out.push(w);
      }
    }
    if (out.length > 0) related.set(lemma, out);
  }
}

const lines = [...related.keys()].sort().map((w) => `${w} ${related.get(w).slice(0, MAX_RELATED).join(' ')}`);
const temp = `${target}.tmp`;
writeFileSync(temp, `${lines.join('\n')}\n`);
renameSync(temp, target);
process.stdout.write(`${lines.length} headwords written to ${target}\n`);
