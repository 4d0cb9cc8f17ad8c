/**
 * YAML parsing that remembers where things are, so every configuration error can name
 * file, line and column. The store plugins and the config.yaml reader share it.
 */
import { LineCounter, parseDocument, isMap, isPair, isScalar, isSeq, type Document, type Node } from 'yaml';
import type { ConfigProblem } from '../errors.js';

export type PathSegment = string | number;

export interface Position {
  line: number;
  column: number;
}

export interface ParsedYaml {
  file: string;
  value: unknown;
  /** Position of the value at `path`; with `key`, of the key `key` inside the map at `path`. */
  locate(path: readonly PathSegment[], key?: string): Position;
  problems: ConfigProblem[];
}

export function parseYaml(text: string, file: string): ParsedYaml {
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number | undefined): Position => {
    if (offset === undefined) return { line: 1, column: 1 };
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const problems: ConfigProblem[] = doc.errors.map((e) => {
    const pos = at(e.pos[0]);
    return { file, ...pos, field: '', message: `YAML syntax error: ${e.message.split('\n', 1)[0]}` };
  });
  const locate = (path: readonly PathSegment[], key?: string): Position => {
    // Walk down as far as the path exists; an error about a missing field points at its parent.
    let node: unknown = doc.contents;
    for (const seg of path) {
      const next = isMap(node) || isSeq(node) ? node.get(seg, true) : undefined;
      if (next === undefined || next === null) break;
      node = next;
    }
    if (key !== undefined && isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === key);
      if (pair && isScalar(pair.key)) return at(pair.key.range?.[0]);
    }
    return at((node as Node | null)?.range?.[0]);
  };
  let value: unknown = null;
  if (problems.length === 0) value = doc.toJS({ maxAliasCount: 100 });
  return { file, value, locate, problems };
}
