/**
 * The search development set on disk: the captured catalogues (bench/devset/catalog/*.json,
 * one per server, tools exactly as shipped) and the queries (bench/devset/queries.json), with
 * a loader that checks every gold tool exists, so the set cannot rot silently. Its unseen part
 * (servers.ts, UNSEEN_SERVERS): more catalogues (bench/devset/unseen) and the requests for
 * their tools (bench/devset/unseen-queries.json), ranked over both folders together.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface CatalogueTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface Catalogue {
  server: string;
  package: string;
  version: string;
  /** Environment variables given obviously fake values so the server would start. */
  fakeEnv?: string[];
  tools: CatalogueTool[];
}

export interface DevsetStep {
  /** `<server>/<tool>` ids; any one of them answers the step. */
  gold: string[];
}

export interface DevsetQuery {
  id: string;
  query: string;
  /** The domain the request is about (files, memory, code, ...), for the breakdown. */
  category: string;
  /** single: one tool; task: two or three steps; distractor: words that pull towards a wrong tool (ids d-...). */
  kind: 'single' | 'task' | 'distractor';
  steps: DevsetStep[];
}

export interface Devset {
  catalogues: Catalogue[];
  queries: DevsetQuery[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `folder`: catalog (the main catalogue) or unseen. */
export async function loadCatalogues(root: string, folder: 'catalog' | 'unseen' = 'catalog'): Promise<Catalogue[]> {
  const dir = join(root, 'bench/devset', folder);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const out: Catalogue[] = [];
  for (const f of files) {
    const parsed: unknown = JSON.parse(await readFile(join(dir, f), 'utf8'));
    if (!isRecord(parsed) || typeof parsed.server !== 'string' || !Array.isArray(parsed.tools)) {
      throw new Error(`bench/devset/${folder}/${f}: expected {server, package, version, tools: [...]}`);
    }
    out.push(parsed as unknown as Catalogue);
  }
  return out;
}

export async function loadDevset(root: string): Promise<Devset> {
  const catalogues = await loadCatalogues(root);
  return { catalogues, queries: await loadQueries(root, 'queries.json', catalogues) };
}

/** The unseen part: the main catalogue and the unseen one together, and the unseen part's requests. */
export async function loadUnseen(root: string): Promise<Devset> {
  const catalogues = [...(await loadCatalogues(root)), ...(await loadCatalogues(root, 'unseen'))];
  return { catalogues, queries: await loadQueries(root, 'unseen-queries.json', catalogues) };
}

async function loadQueries(root: string, file: string, catalogues: readonly Catalogue[]): Promise<DevsetQuery[]> {
  const known = new Set(catalogues.flatMap((c) => c.tools.map((t) => `${c.server}/${t.name}`)));
  const parsed: unknown = JSON.parse(await readFile(join(root, 'bench/devset', file), 'utf8'));
  if (!Array.isArray(parsed)) throw new Error(`bench/devset/${file}: expected an array of {id, query, steps}`);
  const ids = new Set<string>();
  return parsed.map((q: unknown, i): DevsetQuery => {
    const where = `bench/devset/${file}[${i}]`;
    if (!isRecord(q) || typeof q.id !== 'string' || typeof q.query !== 'string' || !Array.isArray(q.steps) || q.steps.length === 0) {
      throw new Error(`${where}: needs a string "id", a string "query" and a non-empty "steps" list`);
    }
    const id = q.id;
    if (ids.has(id)) throw new Error(`${where}: id "${q.id}" is used twice`);
    ids.add(q.id);
    const steps = q.steps.map((s: unknown, j): DevsetStep => {
      if (!isRecord(s) || !Array.isArray(s.gold) || s.gold.length === 0) throw new Error(`${where} (${id}) step ${j}: needs a non-empty "gold" list`);
      const gold = s.gold.map(String);
      const unknown = gold.filter((g) => !known.has(g));
      if (unknown.length > 0) throw new Error(`${where} (${id}) step ${j}: gold ${unknown.join(', ')} not in the catalogues`);
      return { gold };
    });
    if (typeof q.category !== 'string') throw new Error(`${where} (${id}): needs a string "category"`);
    const kind = steps.length > 1 ? 'task' : id.startsWith('d-') ? 'distractor' : 'single';
    return { id, query: q.query, category: q.category, kind, steps };
  });
}

/**
 * The held-back fifth of the queries: chosen by a hash of the query id (SHA-256, first four
 * bytes, modulo 5), not by hand, so it is fixed, unbiased, and stays put as queries are added.
 * Ranking is tuned while looking at the other four fifths only; the bench reports this part's
 * aggregate figures and never its individual misses.
 */
export function isHeldBack(id: string): boolean {
  return createHash('sha256').update(id).digest().readUInt32BE(0) % 5 === 0;
}
