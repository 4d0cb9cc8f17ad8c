/**
 * Toolsets: named presets and inline selectors that narrow the catalogue. The toolsets
 * plugin provides this; filter_tools uses it for its `toolset` argument.
 */
import type { CatalogueView } from '../request-context.js';

export interface PresetInfo {
  name: string;
  description: string;
  built_in: boolean;
}

export interface ResolvedToolset {
  view: CatalogueView;
  /** Selectors that selected nothing (within the given view). */
  unmatched: string[];
}

export interface ToolsetService {
  /** Resolves inline selectors; throws INVALID_TOOLSET for a malformed set. */
  resolve(selectors: readonly string[], within?: CatalogueView): ResolvedToolset;
  presets(): PresetInfo[];
}
