/**
 * Toolset presets: compiled once per config.yaml into predicates over catalogue entries,
 * evaluated against the live catalogue on every request (a server added later is covered
 * by `server:` and `pattern` rules at once). Invalid presets are configuration errors
 * that name the preset.
 */
import type { CatalogueEntry } from '../../kernel/catalogue.js';
import type { PresetRule, ToolsetPresetSpec } from '../../kernel/config/settings.js';
import type { PresetInfo } from '../../kernel/contracts/toolsets.js';
import { compileGlob, GlobSyntaxError } from '../../lib/glob.js';
import { servedBy } from '../../kernel/tools.js';

export type Predicate = (entry: CatalogueEntry) => boolean;

export interface CompiledPreset {
  name: string;
  description: string;
  builtIn: boolean;
  matches: Predicate;
}

export interface PresetProblem {
  preset: string;
  /** Path inside the preset (`include.2`), '' for the preset itself. */
  path: string;
  message: string;
}

const isReadOnly: Predicate = (e) => e.annotations?.readOnlyHint === true;

function memoise(predicate: Predicate): Predicate {
  const verdicts = new WeakMap<CatalogueEntry, boolean>();
  return (e) => {
    let v = verdicts.get(e);
    if (v === undefined) verdicts.set(e, (v = predicate(e)));
    return v;
  };
}

export const BUILT_IN_PRESETS: readonly CompiledPreset[] = [
  { name: 'full', description: 'Every tool in the catalogue.', builtIn: true, matches: () => true },
  { name: 'none', description: 'No tools (the meta-tools stay visible).', builtIn: true, matches: () => false },
  { name: 'read-only', description: 'Every tool whose readOnlyHint is true, read-only core tools included.', builtIn: true, matches: isReadOnly },
];

const RULE_KEYS = ['tool', 'pattern', 'server', 'workflow', 'readOnly', 'preset', 'label'] as const;

export type PresetCompilation = { ok: true; presets: Map<string, CompiledPreset> } | { ok: false; problems: PresetProblem[] };

export function compilePresets(specs: Record<string, ToolsetPresetSpec>): PresetCompilation {
  const problems: PresetProblem[] = [];
  const presets = new Map<string, CompiledPreset>(BUILT_IN_PRESETS.map((p) => [p.name, p]));
  const builtIns = new Set(BUILT_IN_PRESETS.map((p) => p.name));
  for (const name of Object.keys(specs)) {
    if (builtIns.has(name)) problems.push({ preset: name, path: '', message: `'${name}' is a built-in preset and cannot be redefined` });
  }

  // Resolve in dependency order with cycle detection; a preset's predicate closes over its parts.
  const state = new Map<string, 'visiting' | 'done'>();
  const compile = (name: string, trail: string[]): Predicate | undefined => {
    const existing = presets.get(name);
    if (existing && (builtIns.has(name) || state.get(name) === 'done')) return existing.matches;
    const spec = specs[name];
    if (!spec) return undefined;
    if (state.get(name) === 'visiting') {
      problems.push({ preset: name, path: '', message: `composition cycle: ${[...trail, name].join(' -> ')}` });
      return undefined;
    }
    state.set(name, 'visiting');
    const include = (spec.include ?? []).map((rule, i) => compileRule(name, 'include', i, rule, [...trail, name]));
    const exclude = (spec.exclude ?? []).map((rule, i) => compileRule(name, 'exclude', i, rule, [...trail, name]));
    state.set(name, 'done');
    const inc = include.filter((p): p is Predicate => p !== undefined);
    const exc = exclude.filter((p): p is Predicate => p !== undefined);
    // Exclude wins over include. Entries are immutable and keep their identity across
    // unrelated catalogue changes, so a preset's verdict per entry is computed once.
    const matches = memoise((e) => inc.some((p) => p(e)) && !exc.some((p) => p(e)));
    presets.set(name, { name, description: spec.description ?? '', builtIn: false, matches });
    return matches;
  };

  const compileRule = (preset: string, list: 'include' | 'exclude', index: number, rule: PresetRule, trail: string[]): Predicate | undefined => {
    const path = `${list}.${index}`;
    const keys = RULE_KEYS.filter((k) => (rule as Record<string, unknown>)[k] !== undefined);
    if (keys.length !== 1) {
      problems.push({
        preset,
        path,
        message: keys.length === 0 ? 'a rule must set exactly one key; it sets none' : `a rule must set exactly one key; it sets ${keys.join(', ')}`,
      });
      return undefined;
    }
    const key = keys[0]!;
    switch (key) {
      case 'tool': {
        const name = rule.tool!;
        return (e) => e.name === name;
      }
      case 'pattern':
        try {
          const re = compileGlob(rule.pattern!);
          return (e) => re.test(e.name);
        } catch (err) {
          problems.push({ preset, path: `${path}.pattern`, message: err instanceof GlobSyntaxError ? err.message : String(err) });
          return undefined;
        }
      case 'server': {
        const server = rule.server!;
        return (e) => servedBy(e, server);
      }
      case 'workflow': {
        const tool = `workflow_${rule.workflow!}`;
        return (e) => e.kind === 'workflow' && e.name === tool;
      }
      case 'readOnly':
        return isReadOnly;
      case 'label': {
        const eq = rule.label!.indexOf('=');
        if (eq <= 0) {
          problems.push({ preset, path: `${path}.label`, message: `label rule '${rule.label}' must be key=value` });
          return undefined;
        }
        const k = rule.label!.slice(0, eq).trim();
        const v = rule.label!.slice(eq + 1).trim();
        return (e) => e.labels?.[k] === v;
      }
      case 'preset': {
        if (list === 'exclude') {
          problems.push({ preset, path: `${path}.preset`, message: 'composition (preset) is allowed in include rules only' });
          return undefined;
        }
        const target = rule.preset!;
        if (!presets.has(target) && !specs[target]) {
          problems.push({ preset, path: `${path}.preset`, message: `composes unknown preset '${target}'` });
          return undefined;
        }
        const inner = compile(target, trail);
        if (!inner) return undefined;
        // Late-bound: the composed preset's predicate may still be under construction in a cycle.
        return (e) => inner(e);
      }
    }
  };

  for (const name of Object.keys(specs)) if (!builtIns.has(name)) compile(name, []);
  return problems.length ? { ok: false, problems } : { ok: true, presets };
}

export function presetInfos(presets: ReadonlyMap<string, CompiledPreset>): PresetInfo[] {
  return [...presets.values()].map((p) => ({ name: p.name, description: p.description, built_in: p.builtIn }));
}
