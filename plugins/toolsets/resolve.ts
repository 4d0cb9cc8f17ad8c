/** Turning parsed selectors into a CatalogueView, optionally inside another view. */
import type { Catalogue } from '../../kernel/catalogue.js';
import type { ResolvedToolset } from '../../kernel/contracts/toolsets.js';
import type { CatalogueView } from '../../kernel/request-context.js';
import { servedBy } from '../../kernel/tools.js';
import type { CompiledPreset, Predicate } from './presets.js';
import { InvalidToolsetError, type Selector } from './selectors.js';

function predicateOf(selector: Selector, presets: ReadonlyMap<string, CompiledPreset>, all: readonly Selector[]): Predicate {
  const v = selector.value;
  switch (selector.kind) {
    case 'preset': {
      const preset = presets.get(v);
      if (!preset)
        throw new InvalidToolsetError(
          `unknown preset '${v}' (known: ${[...presets.keys()].join(', ')})`,
          all.map((s) => s.text),
        );
      return preset.matches;
    }
    case 'server':
      return (e) => servedBy(e, v);
    case 'workflow': {
      const name = `workflow_${v}`;
      return (e) => e.kind === 'workflow' && e.name === name;
    }
    case 'tool':
      return (e) => e.name === v;
  }
}

/** The union of the selectors, intersected with `within` when given: never wider than it. */
export function viewOf(selectors: readonly Selector[], presets: ReadonlyMap<string, CompiledPreset>, within?: CatalogueView): CatalogueView {
  const predicates = selectors.map((s) => predicateOf(s, presets, selectors));
  const union: Predicate = predicates.length === 1 ? predicates[0]! : (e) => predicates.some((p) => p(e));
  return {
    selectors: within ? [...within.selectors, ...selectors.map((s) => s.text)] : selectors.map((s) => s.text),
    includes: within ? (e) => within.includes(e) && union(e) : union,
  };
}

/** viewOf plus the selectors that select nothing (inside `within`) in the live catalogue. */
export function resolveSelectors(
  selectors: readonly Selector[],
  presets: ReadonlyMap<string, CompiledPreset>,
  catalogue: Catalogue,
  within?: CatalogueView,
): ResolvedToolset {
  const view = viewOf(selectors, presets, within);
  const entries = within ? catalogue.all().filter((e) => within.includes(e)) : catalogue.all();
  const unmatched = selectors.filter((s) => {
    const p = predicateOf(s, presets, selectors);
    return !entries.some(p);
  });
  return { view, unmatched: unmatched.map((s) => s.text) };
}
