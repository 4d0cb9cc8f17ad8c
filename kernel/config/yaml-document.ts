/**
 * YAML parsing that remembers where things are, so every configuration error can name
 * file, line and column. The store plugins and the config.yaml reader share it.
 */
import { LineCounter, parseDocument, isMap, isPair, isScalar, isSeq, type Document, type ErrorCode, type Node } from 'yaml';
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

/** A definition or config.yaml larger than this is refused before parsing: no real one comes near. */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

/** Aliases may repeat a node this often at most; more is a "billion laughs" document. */
const MAX_ALIAS_COUNT = 100;

/**
 * The yaml library's messages of these kinds quote the source (`Unresolved tag: !<text>`,
 * `Invalid escape sequence <text>`, `Unexpected <token> in ...`): said by their kind instead,
 * so that a file that is not a definition (a link to a secret) is not printed line by line.
 * Line and column still say where.
 */
const QUOTES_SOURCE = new Set<ErrorCode>(['TAG_RESOLVE_FAILED', 'BAD_DQ_ESCAPE', 'UNEXPECTED_TOKEN', 'BAD_COLLECTION_TYPE', 'BAD_SCALAR_START', 'BAD_ALIAS']);

function syntaxMessage(code: ErrorCode, message: string): string {
  if (QUOTES_SOURCE.has(code)) return code.toLowerCase().replace(/_/g, ' ');
  return message.split('\n', 1)[0]!;
}

export function parseYaml(text: string, file: string): ParsedYaml {
  if (text.length > MAX_DOCUMENT_BYTES) {
    const problem = { file, line: 1, column: 1, field: '', message: `document is ${text.length} characters; at most ${MAX_DOCUMENT_BYTES} are read` };
    return { file, value: null, locate: () => ({ line: 1, column: 1 }), problems: [problem] };
  }
  const lineCounter = new LineCounter();
  // logLevel 'error': a collection used as a key becomes a string key (rejected by the schema) without a process warning.
  const doc: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, logLevel: 'error' });
  const at = (offset: number | undefined): Position => {
    if (offset === undefined) return { line: 1, column: 1 };
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const problems: ConfigProblem[] = doc.errors.map((e) => {
    const pos = at(e.pos[0]);
    return { file, ...pos, field: '', message: `YAML syntax error: ${syntaxMessage(e.code, e.message)}` };
  });
  const locate = (path: readonly PathSegment[], key?: string): Position => {
    // Walk down as far as the path exists; an error about a missing field points at its parent.
    let node: unknown = doc.contents;
    for (const seg of path) {
      const next: unknown = isMap(node) || isSeq(node) ? node.get(seg, true) : undefined;
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
  if (problems.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (err) {
      // The yaml library refuses alias expansion past the count (resource exhaustion).
      problems.push({ file, line: 1, column: 1, field: '', message: `YAML cannot be expanded: ${(err as Error).message}` });
    }
  }
  return { file, value, locate, problems };
}
