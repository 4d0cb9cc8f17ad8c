/**
 * A real word-vector model for the embedder tests: Debian's `fasttext` trained, at test setup,
 * on WordNet 3.0 as Debian's `wordnet-base` ships it (/usr/share/wordnet/data.{noun,verb,adj,
 * adv}: 117,659 synsets; the corpus is one line per synset of its words, its gloss and its
 * hypernyms' words, about 15 MB and 2.3 million words). Skip-gram, dimension 48, 3 epochs
 * (about 30 s of CPU; a vocabulary of ~47,000 words, ~10 MB as text).
 *
 * Cached in ~/.cache/switchboard-embedder/ under a hash of what the corpus is made from
 * (WordNet's files and the code that reads them) and the settings, so a file that finds the
 * model cached never builds the corpus (2.5 s of CPU; three test files ask for the model);
 * written atomically (trained in a temp dir, renamed into place) by one test file at a time
 * (cache-lock.ts), so parallel test files and later runs share one model and train it once.
 * Answers undefined, with the reason, when fasttext or WordNet is not installed (.ci/run
 * installs both).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { withCacheLock } from './cache-lock.js';

const run = promisify(execFile);
const WORDNET = '/usr/share/wordnet';
const POS = ['noun', 'verb', 'adj', 'adv'] as const;
const TRAINING = [
  'skipgram',
  '-dim',
  '48',
  '-epoch',
  '3',
  '-ws',
  '4',
  '-neg',
  '4',
  '-minCount',
  '3',
  '-minn',
  '0',
  '-maxn',
  '0',
  '-thread',
  '2',
  '-verbose',
  '0',
];

/** Pointer symbols whose target's words join a synset's line: hypernyms, instance hypernyms, derivations, similar adjectives. */
const RELATED = new Set(['@', '@i', '+', '&']);

/** One line per synset: its words, its gloss, its related synsets' words; lower case, letters and digits only. */
export async function wordnetCorpus(): Promise<string> {
  const words = new Map<string, string[]>();
  const synsets: { words: string[]; related: string[]; gloss: string }[] = [];
  for (const pos of POS) {
    const text = await readFile(join(WORDNET, `data.${pos}`), 'utf8');
    for (const line of text.split('\n')) {
      if (!line || line.startsWith('  ')) continue;
      const bar = line.indexOf(' | ');
      if (bar < 0) continue;
      const f = line.slice(0, bar).split(' ');
      const count = parseInt(f[3]!, 16);
      const mine = Array.from({ length: count }, (_, i) => f[4 + 2 * i]!.replace(/\(.*\)$/, '').replace(/_/g, ' '));
      const at = 4 + 2 * count;
      const pointers = Number(f[at]);
      const related: string[] = [];
      for (let i = 0; i < pointers; i++) if (RELATED.has(f[at + 1 + 4 * i]!)) related.push(`${f[at + 2 + 4 * i]}${f[at + 3 + 4 * i]}`);
      // Satellite adjectives (s) are pointed at as adjectives (a).
      words.set(`${f[0]}${f[2] === 's' ? 'a' : f[2]}`, mine);
      synsets.push({ words: mine, related, gloss: line.slice(bar + 3) });
    }
  }
  return `${synsets
    .map((s) =>
      `${s.words.join(' ')} ${s.gloss} ${s.related.flatMap((k) => words.get(k) ?? []).join(' ')}`
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ' ')
        .trim(),
    )
    .join('\n')}\n`;
}

export type ModelOutcome = { file: string } | { skipped: string };

/** The trained model's `.vec` file (training it first when the cache lacks it). */
export async function fasttextModel(): Promise<ModelOutcome> {
  try {
    await run('fasttext', [], { timeout: 10_000 }).catch((err: unknown) => {
      // `fasttext` without arguments prints its usage and exits 1: installed. ENOENT: not.
      if ((err as { code?: unknown }).code === 'ENOENT') throw err;
    });
  } catch {
    return { skipped: 'fasttext is not installed (apt-get install fasttext)' };
  }
  try {
    await access(join(WORDNET, 'data.noun'));
  } catch {
    return { skipped: 'WordNet is not installed (apt-get install wordnet-base)' };
  }
  const id = await modelId();
  const dir = join(homedir(), '.cache', 'switchboard-embedder');
  const file = join(dir, `wordnet-${id}.vec`);
  if (await exists(file)) return { file };
  await mkdir(dir, { recursive: true });
  // Trained by one test file; the others asking meanwhile wait for it.
  await withCacheLock(join(dir, '.training.lock'), async () => {
    if (await exists(file)) return;
    const work = await mkdtemp(join(dir, '.training-'));
    try {
      await writeFile(join(work, 'corpus.txt'), await wordnetCorpus());
      await run('fasttext', [TRAINING[0]!, '-input', join(work, 'corpus.txt'), '-output', join(work, 'model'), ...TRAINING.slice(1)], {
        timeout: 15 * 60_000,
        maxBuffer: 16 * 1024 * 1024,
      });
      await rename(join(work, 'model.vec'), file);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
  return { file };
}

/**
 * The cache key: the training settings, the corpus's recipe (wordnetCorpus as it runs, and the
 * constants it reads) and WordNet's files, which make the same corpus whenever these are the same.
 */
async function modelId(): Promise<string> {
  const hash = createHash('sha256')
    .update(TRAINING.join(' '))
    .update(`${WORDNET} ${POS.join(' ')} ${[...RELATED].join(' ')}\n`)
    .update(wordnetCorpus.toString());
  for (const pos of POS) hash.update(await readFile(join(WORDNET, `data.${pos}`)));
  return hash.digest('hex').slice(0, 16);
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
