/**
 * Which config.yaml keys take effect only when Switchboard restarts. The schema says so, one
 * place for the code, the log, the core tools, `switchboard check`, the admin pages and
 * docs/config-reference.md: a property marked `"x-applies": "restart"` (with everything
 * under it) is read once at startup; every other key is applied by hot reload.
 *
 * A running instance keeps its settings in force as configured (kernel.settings() is what
 * config.yaml and core_config_update_aggregator say, so core_config_save writes what was
 * asked), and this tracker says which of the restart-only keys differ from what the process
 * started with: once in the log per change, and on request (core_config_get, the admin pages).
 */
import { createHash } from 'node:crypto';
import type { Logger } from '../log.js';
import type { Settings } from './settings.js';
import { loadSchema } from './validate.js';

export const APPLIES_KEYWORD = 'x-applies';

/** A restart-only key whose configured value differs from the one the process started with. */
export interface RestartChange {
  /** Dotted path in config.yaml: `aggregator.port`, `plugins.workflows.options.maxRecordedResultBytes`. */
  key: string;
  /** Booleans and numbers only (they cannot be secrets); absent for anything else. */
  inForce?: boolean | number | null;
  configured?: boolean | number | null;
}

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  [APPLIES_KEYWORD]?: unknown;
}

let cached: readonly string[][] | undefined;

/** Paths of the properties the config schema marks restart-only (read once, when first needed: never at startup). */
export function restartOnlyPaths(): readonly string[][] {
  if (cached) return cached;
  const out: string[][] = [];
  const walk = (node: SchemaNode, path: string[]): void => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const here = [...path, key];
      if (child[APPLIES_KEYWORD] === 'restart') out.push(here);
      else walk(child, here);
    }
  };
  walk(loadSchema('config'), []);
  return (cached = out);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function at(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const p of path) node = isRecord(node) ? node[p] : undefined;
  return node;
}

/** JSON of a settings value; an absent key (undefined, which JSON.stringify does not write) as 'undefined'. */
function jsonOf(v: unknown): string {
  return v === undefined ? 'undefined' : JSON.stringify(v);
}

function shown(v: unknown): boolean | number | null | undefined {
  return typeof v === 'boolean' || typeof v === 'number' || v === null ? v : undefined;
}

/** The leaves where two values differ (objects descended, anything else compared whole), with the configured value's JSON. */
function differences(a: unknown, b: unknown, path: string[], out: { change: RestartChange; json: string }[]): void {
  if (isRecord(a) && isRecord(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) differences(a[k], b[k], [...path, k], out);
    return;
  }
  const json = jsonOf(b);
  if (jsonOf(a) === json) return;
  const change: RestartChange = { key: path.join('.') };
  const from = shown(a);
  const to = shown(b);
  if (from !== undefined) change.inForce = from;
  if (to !== undefined) change.configured = to;
  out.push({ change, json });
}

function changesWithValues(inForce: unknown, configured: unknown): { change: RestartChange; json: string }[] {
  const out: { change: RestartChange; json: string }[] = [];
  for (const path of restartOnlyPaths()) differences(at(inForce, path), at(configured, path), [...path], out);
  return out;
}

/** The restart-only keys whose values differ between `inForce` and `configured`. */
export function restartChanges(inForce: unknown, configured: unknown): RestartChange[] {
  return changesWithValues(inForce, configured).map((d) => d.change);
}

/**
 * A value as `switchboard check` may compare it without reading it: booleans and numbers as
 * they are, anything else (a URL, a secret reference) as a hash of its JSON.
 */
export function fingerprint(value: unknown): boolean | number | null | string {
  const plain = shown(value);
  if (plain !== undefined) return plain;
  return `sha256:${createHash('sha256').update(jsonOf(value)).digest('hex').slice(0, 32)}`;
}

/** Each restart-only key with its value's fingerprint: what a running process writes for `switchboard check`. */
export function restartFingerprints(settings: Settings): Record<string, boolean | number | null | string> {
  const out: Record<string, boolean | number | null | string> = {};
  for (const path of restartOnlyPaths()) out[path.join('.')] = fingerprint(at(settings, path));
  return out;
}

function phrase(c: RestartChange): string {
  const values =
    c.inForce !== undefined || c.configured !== undefined ? ` (${String(c.inForce ?? 'unset')} in force, ${String(c.configured ?? 'unset')} configured)` : '';
  return `${c.key} changes on restart${values}`;
}

/**
 * The settings the process started with, and what it has said so far: a key is logged when it
 * starts to differ or changes again, and once when it is back to the value in force; an edit
 * that leaves it as it was says nothing.
 */
export class RestartTracker {
  private said = new Map<string, string>();
  private current: RestartChange[] = [];

  constructor(
    private readonly inForce: Settings,
    private readonly log: Logger,
  ) {}

  /** Settings just adopted (a config.yaml edit, a reload, core_config_update_aggregator). */
  observe(configured: Settings): void {
    const found = changesWithValues(this.inForce, configured);
    this.current = found.map((d) => d.change);
    const now = new Map(found.map((d) => [d.change.key, d.json]));
    for (const c of this.current) if (this.said.get(c.key) !== now.get(c.key)) this.log.warn(phrase(c));
    for (const key of this.said.keys()) if (!now.has(key)) this.log.info(`${key} is back to the value in force`);
    this.said = now;
  }

  /** What differs now, keys in schema order. */
  list(): RestartChange[] {
    return [...this.current];
  }
}
