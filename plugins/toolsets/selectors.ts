/**
 * Toolset selectors: `preset:<name>`, `server:<name>`, `workflow:<name>`, `tool:<name>`,
 * from the X-Service-Toolset header (comma-separated) or filter_tools' `toolset` array.
 */
import { SwitchboardError } from '../../kernel/index.js';

export const MAX_SELECTORS = 32;

export type SelectorKind = 'preset' | 'server' | 'workflow' | 'tool';

export interface Selector {
  kind: SelectorKind;
  value: string;
  /** As written (trimmed), for messages and echoes. */
  text: string;
}

export class InvalidToolsetError extends SwitchboardError {
  constructor(reason: string, selectors: readonly string[]) {
    super('INVALID_TOOLSET', `Invalid toolset: ${reason}`, { toolset: [...selectors] });
  }
}

const KINDS = new Set<string>(['preset', 'server', 'workflow', 'tool']);

export function splitHeader(value: string): string[] {
  return value.split(',').map((s) => s.trim());
}

/** Parses selectors; throws InvalidToolsetError naming the first problem. */
export function parseSelectors(raw: readonly string[]): Selector[] {
  const items = raw.map((s) => s.trim());
  if (items.length === 0 || items.every((s) => s === '')) throw new InvalidToolsetError('it is empty', items);
  if (items.length > MAX_SELECTORS) throw new InvalidToolsetError(`${items.length} selectors, at most ${MAX_SELECTORS} are allowed`, items);
  return items.map((text) => {
    if (text === '') throw new InvalidToolsetError('an empty selector (check for stray commas)', items);
    const colon = text.indexOf(':');
    if (colon <= 0) throw new InvalidToolsetError(`'${text}' is malformed: expected <kind>:<name> with kind preset, server, workflow or tool`, items);
    const kind = text.slice(0, colon);
    const value = text.slice(colon + 1).trim();
    if (kind === 'toolset') throw new InvalidToolsetError(`'${text}': the 'toolset:' selector is reserved`, items);
    if (kind === 'label') throw new InvalidToolsetError(`'${text}': 'label:' selects only inside presets, not inline`, items);
    if (!KINDS.has(kind)) throw new InvalidToolsetError(`'${text}' has unknown kind '${kind}': use preset, server, workflow or tool`, items);
    if (!value) throw new InvalidToolsetError(`'${text}' names nothing`, items);
    return { kind: kind as SelectorKind, value, text };
  });
}
