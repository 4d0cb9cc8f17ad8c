/**
 * Decisions remembered by everything Cedar sees of a request: the two entities, the action
 * and the context. A Cedar evaluation costs a few hundred microseconds with a hundred policies;
 * the kernel keeps decisions per catalogue entry, but entries are new objects after every
 * catalogue change (a server reconnecting, a tool list changing) and its cache starts over on
 * every configuration change, while the entities they make are mostly the same as before.
 * Keyed on the entities' full content, a remembered decision is exactly the one Cedar would
 * make again; the memo is emptied whenever the policies change and bounded in size.
 */
import type { EntityJson } from '@cedar-policy/cedar-wasm/nodejs';
import type { Decision } from '../../kernel/index.js';
import type { CedarRequestParts } from './entities.js';

/** Decisions kept at once; beyond it the memo starts over (it is only a shortcut). */
export const MEMO_LIMIT = 20_000;

const entityKeys = new WeakMap<EntityJson, string>();

function entityKey(entity: EntityJson): string {
  let key = entityKeys.get(entity);
  if (key === undefined) {
    key = JSON.stringify(entity);
    entityKeys.set(entity, key);
  }
  return key;
}

export function requestKey(parts: CedarRequestParts): string {
  // entities[0] is the principal, entities[1] the resource: their uids are inside their keys.
  return `${parts.action.id}\n${entityKey(parts.entities[0]!)}\n${entityKey(parts.entities[1]!)}\n${JSON.stringify(parts.context)}`;
}

export class DecisionMemo {
  private readonly decisions = new Map<string, Decision>();

  constructor(private readonly limit = MEMO_LIMIT) {}

  get(key: string): Decision | undefined {
    return this.decisions.get(key);
  }

  set(key: string, decision: Decision): void {
    if (this.decisions.size >= this.limit) this.decisions.clear();
    this.decisions.set(key, decision);
  }

  clear(): void {
    this.decisions.clear();
  }

  get size(): number {
    return this.decisions.size;
  }
}
